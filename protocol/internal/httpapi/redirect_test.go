package httpapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	testAuth = "Bearer s3cret-token"
	testKey  = "k3y-value"
)

// recorder is a server that counts its requests and keeps the credentials
// they carried.
type recorder struct {
	mu    sync.Mutex
	hits  int
	creds []string // Authorization and X-Bot-Registration-Key values seen
}

func (r *recorder) handler(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits++
		for _, h := range []string{"Authorization", "X-Bot-Registration-Key", "Cookie"} {
			if v := req.Header.Get(h); v != "" {
				r.creds = append(r.creds, h+": "+v)
			}
		}
		r.mu.Unlock()
		next(w, req)
	}
}

func (r *recorder) seen() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits, append([]string(nil), r.creds...)
}

func okJSON(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"ok":true}`)
}

func redirectTo(target string, code int) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, target+req.URL.Path, code)
	}
}

func newTestCaller(t *testing.T, base string, hc *http.Client) *Caller {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{
		Name: "test", Base: u, Auth: testAuth, Secrets: []string{testAuth, testKey},
		HTTPClient: hc, RetryInterval: time.Millisecond, RetryFor: time.Minute,
	})
}

// call posts with the registration key header, as kriegspielorg.Register does.
func call(c *Caller) error {
	var out struct{ OK bool }
	o := Options{JSON: true, Header: map[string]string{"X-Bot-Registration-Key": testKey}}
	return c.Call(context.Background(), http.MethodPost, "/register", map[string]int{"n": 1}, &out, o)
}

// checkRefused asserts that err is a refused redirect that names both
// origins and no secret, that the target was never reached, and that the
// origin was asked once (a refused redirect is not retried).
func checkRefused(t *testing.T, err error, from, to string, origin, target *recorder) {
	t.Helper()
	if hits, creds := target.seen(); hits != 0 || len(creds) != 0 {
		t.Errorf("the redirect's target got %d requests with credentials %q, want none", hits, creds)
	}
	var re *RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RedirectError", err)
	}
	msg := err.Error()
	for _, want := range []string{from, to, "not sent", "HTTP 307"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
	for _, secret := range []string{testAuth, "s3cret", testKey} {
		if strings.Contains(msg, secret) {
			t.Errorf("error %q quotes a secret", msg)
		}
	}
	if hits, _ := origin.seen(); hits != 1 {
		t.Errorf("the origin got %d requests, want 1 (a refused redirect is not retried)", hits)
	}
}

func TestRedirectToAnotherPortSendsNoCredentials(t *testing.T) {
	var origin, target recorder
	dst := httptest.NewServer(target.handler(okJSON))
	defer dst.Close()
	src := httptest.NewServer(origin.handler(redirectTo(dst.URL, http.StatusTemporaryRedirect)))
	defer src.Close()

	err := call(newTestCaller(t, src.URL, nil))
	checkRefused(t, err, src.URL, dst.URL, &origin, &target)
}

func TestRedirectToAnotherHostSendsNoCredentials(t *testing.T) {
	// One server under two names: 127.0.0.1 and localhost are different
	// hosts to the client (Go's own policy would forward the custom header).
	var rec recorder
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/register", func(w http.ResponseWriter, req *http.Request) {
		to := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
		http.Redirect(w, req, to+"/elsewhere", http.StatusTemporaryRedirect)
	})
	var elsewhere recorder
	mux.HandleFunc("/elsewhere", elsewhere.handler(okJSON))
	srv = httptest.NewServer(rec.handler(mux.ServeHTTP))
	defer srv.Close()

	err := call(newTestCaller(t, srv.URL, nil))
	to := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	checkRefused(t, err, srv.URL, to, &rec, &elsewhere)
}

func TestRedirectFromHTTPSToHTTPSendsNoCredentials(t *testing.T) {
	var origin, target recorder
	dst := httptest.NewServer(target.handler(okJSON))
	defer dst.Close()
	src := httptest.NewTLSServer(origin.handler(redirectTo(dst.URL, http.StatusTemporaryRedirect)))
	defer src.Close()

	// The caller's own client (it trusts the test certificate) gets the
	// policy too, and is left as it was.
	hc := src.Client()
	err := call(newTestCaller(t, src.URL, hc))
	checkRefused(t, err, src.URL, dst.URL, &origin, &target)
	if hc.CheckRedirect != nil {
		t.Error("New modified the caller's http.Client")
	}
}

func TestSameOriginRedirectKeepsCredentials(t *testing.T) {
	var rec recorder
	mux := http.NewServeMux()
	mux.HandleFunc("/register", func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, "/v2/register", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/v2/register", func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		if req.Method != http.MethodPost || string(body) != `{"n":1}` ||
			req.Header.Get("Authorization") != testAuth || req.Header.Get("X-Bot-Registration-Key") != testKey {
			http.Error(w, "{}", http.StatusBadRequest)
			return
		}
		okJSON(w, req)
	})
	srv := httptest.NewServer(rec.handler(mux.ServeHTTP))
	defer srv.Close()

	if err := call(newTestCaller(t, srv.URL, nil)); err != nil {
		t.Fatalf("a same-origin redirect failed: %v", err)
	}
	if hits, _ := rec.seen(); hits != 2 {
		t.Errorf("the server got %d requests, want 2", hits)
	}
}

func TestCallersRedirectPolicyStillApplies(t *testing.T) {
	var rec recorder
	srv := httptest.NewServer(rec.handler(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/register" {
			http.Redirect(w, req, "/v2/register", http.StatusTemporaryRedirect)
			return
		}
		okJSON(w, req)
	}))
	defer srv.Close()
	stop := errors.New("no redirects here")
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return stop }}
	c := newTestCaller(t, srv.URL, hc)
	if err := call(c); !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the caller's own redirect error", err)
	}
	if hits, _ := rec.seen(); hits != 1 {
		t.Errorf("the server got %d requests, want 1 (a refused redirect is not retried)", hits)
	}
}

// chainQuotes returns the texts of err and of every error it wraps that
// quote one of secrets.
func chainQuotes(err error, secrets ...string) []string {
	var out []string
	for e := err; e != nil; e = errors.Unwrap(e) {
		for _, s := range secrets {
			if strings.Contains(e.Error(), s) {
				out = append(out, e.Error())
			}
		}
	}
	return out
}

// A same-origin redirect loop whose targets quote the caller's credentials
// ends the call with one error after at most 10 requests, quoting no secret
// in it or in what it wraps; so does a Location that does not parse.
func TestRedirectStopsAreFinal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		location func(n int) string
		maxHits  int
	}{
		{"loop, secret in the path", func(n int) string { return fmt.Sprintf("/loop%d/%s", n, url.PathEscape(testAuth)) }, 10},
		{"loop, secret in the query", func(n int) string { return fmt.Sprintf("/loop%d?s=%s&k=%s", n, url.QueryEscape(testAuth), testKey) }, 10},
		{"bad Location", func(int) string { return "%zz" + testAuth + testKey }, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var rec recorder
			n := 0
			srv := httptest.NewServer(rec.handler(func(w http.ResponseWriter, req *http.Request) {
				n++
				w.Header().Set("Location", tc.location(n))
				w.WriteHeader(http.StatusTemporaryRedirect)
			}))
			defer srv.Close()
			err := call(newTestCaller(t, srv.URL, nil))
			var stop *RedirectStopError
			if !errors.As(err, &stop) {
				t.Fatalf("err = %v, want a RedirectStopError", err)
			}
			if hits, _ := rec.seen(); hits > tc.maxHits {
				t.Errorf("the server got %d requests, want at most %d (no retry)", hits, tc.maxHits)
			}
			if q := chainQuotes(err, testAuth, "s3cret", testKey); q != nil {
				t.Errorf("errors quote a secret: %q", q)
			}
		})
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://example.org/api", "https://example.org/v2", true},
		{"https://example.org", "https://EXAMPLE.org:443/x", true},
		{"http://example.org:80", "http://example.org/x", true},
		{"http://[::1]:8080/", "http://[::1]:8080/x", true},
		{"https://example.org", "http://example.org/x", false},
		{"https://example.org", "http://example.org:443/x", false},
		{"https://example.org", "https://example.org:8443/x", false},
		{"https://example.org", "https://api.example.org/x", false},
		{"https://example.org", "https://example.org.evil/x", false},
		{"http://127.0.0.1:8080", "http://localhost:8080/x", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
