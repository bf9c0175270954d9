// Package redirecttest is the redirect test both clients of package httpapi
// run through their own calls: the attacks of httpapi's tests (a redirect
// to another port, from https to http) made on a real client, so that the
// credentials the client itself adds (a Basic header, a bearer token, a
// registration key) are shown to stay home too.
package redirecttest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi"
)

// Call is one call of a client that carries credentials.
type Call struct {
	// Path is the call's path on the server.
	Path string
	// Do makes the call to the server at base, through hc (nil: the
	// client's own), logging to log (nil: nowhere), and returns its error.
	Do func(ctx context.Context, base string, hc *http.Client, log *slog.Logger) error
	// Answer is the server's valid answer to the call.
	Answer http.HandlerFunc
	// Authorized says whether a request is the call with its credentials:
	// a same-origin redirect must keep them.
	Authorized func(*http.Request) bool
	// Secrets are what no error may quote.
	Secrets []string
}

// recorder is a server that counts its requests and keeps the credentials
// they carried.
type recorder struct {
	mu    sync.Mutex
	hits  int
	creds []string
}

func (l *recorder) wrap(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.hits++
		for _, h := range []string{"Authorization", "X-Bot-Registration-Key"} {
			if v := r.Header.Get(h); v != "" {
				l.creds = append(l.creds, h+": "+v)
			}
		}
		l.mu.Unlock()
		next(w, r)
	}
}

func (l *recorder) seen() (int, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.hits, append([]string(nil), l.creds...)
}

// redirectAll answers every request with a 307 to the same path on target.
func redirectAll(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

// Run checks c against redirects. To another port and from https to http,
// the call fails with a RedirectError that names both origins and says the
// credentials were not sent, quotes none of c.Secrets, the target gets no
// request and the origin one (a refused redirect is not retried). To the
// same origin, the redirect is followed with the credentials. Then RunEcho.
func Run(t *testing.T, c Call) {
	t.Run("another port", func(t *testing.T) {
		var origin, target recorder
		dst := httptest.NewServer(target.wrap(c.Answer))
		defer dst.Close()
		src := httptest.NewServer(origin.wrap(redirectAll(dst.URL)))
		defer src.Close()
		checkRefused(t, c, c.Do(t.Context(), src.URL, nil, nil), src.URL, dst.URL, &origin, &target)
	})
	t.Run("https to http", func(t *testing.T) {
		var origin, target recorder
		dst := httptest.NewServer(target.wrap(c.Answer))
		defer dst.Close()
		src := httptest.NewTLSServer(origin.wrap(redirectAll(dst.URL)))
		defer src.Close()
		checkRefused(t, c, c.Do(t.Context(), src.URL, src.Client(), nil), src.URL, dst.URL, &origin, &target)
	})
	t.Run("same origin", func(t *testing.T) {
		mux := http.NewServeMux()
		mux.HandleFunc(c.Path, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/v2"+c.Path, http.StatusTemporaryRedirect)
		})
		mux.HandleFunc("/v2"+c.Path, func(w http.ResponseWriter, r *http.Request) {
			if !c.Authorized(r) {
				http.Error(w, "{}", http.StatusUnauthorized)
				return
			}
			c.Answer(w, r)
		})
		srv := httptest.NewServer(mux)
		defer srv.Close()
		if err := c.Do(t.Context(), srv.URL, nil, nil); err != nil {
			t.Fatalf("a same-origin redirect failed: %v", err)
		}
	})
	t.Run("secrets echoed", func(t *testing.T) { RunEcho(t, c) })
}

// echo is a server that answers every request by quoting secrets back,
// the way placement says: in a same-origin redirect's target path or
// query (a loop), in a Location header that does not parse, or in the body
// of an answer (a 500 once, which is retried, then a 400).
func echo(placement string, secrets []string) http.HandlerFunc {
	var mu sync.Mutex
	n := 0
	return func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		var path, query []string
		for _, s := range secrets {
			path, query = append(path, url.PathEscape(s)), append(query, "s="+url.QueryEscape(s))
		}
		switch placement {
		case "redirect target":
			w.Header().Set("Location", fmt.Sprintf("/loop%d/%s", i, strings.Join(path, "/")))
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "query":
			w.Header().Set("Location", fmt.Sprintf("/loop%d?%s", i, strings.Join(query, "&")))
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "header":
			w.Header().Set("Location", "%zz"+strings.Join(path, "/"))
			w.WriteHeader(http.StatusTemporaryRedirect)
		case "body":
			code := http.StatusBadRequest
			if i == 1 {
				code = http.StatusInternalServerError
			}
			http.Error(w, `{"error": {"code": "`+strings.Join(secrets, " ")+`", "message": "`+strings.Join(secrets, " ")+`"}}`, code)
		}
	}
}

// RunEcho checks that c's errors and log (at Debug, as -v logs) quote none
// of c.Secrets when the server echoes them back in a redirect's target, a
// query, a header or a body; and that a same-origin redirect loop ends the
// call after at most 10 requests, with no retry.
func RunEcho(t *testing.T, c Call) {
	for _, placement := range []string{"redirect target", "query", "header", "body"} {
		t.Run(placement, func(t *testing.T) {
			var rec recorder
			srv := httptest.NewServer(rec.wrap(echo(placement, c.Secrets)))
			defer srv.Close()
			var logs syncBuffer
			log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			err := c.Do(t.Context(), srv.URL, nil, log)
			if err == nil {
				t.Fatal("the call succeeded")
			}
			for e := err; e != nil; e = errors.Unwrap(e) {
				for _, s := range c.Secrets {
					if strings.Contains(e.Error(), s) {
						t.Errorf("an error quotes a secret: %q", e.Error())
					}
				}
			}
			text := logs.String()
			for _, s := range c.Secrets {
				if strings.Contains(text, s) {
					t.Errorf("the log quotes a secret:\n%s", text)
				}
			}
			hits, _ := rec.seen()
			switch placement {
			case "redirect target", "query":
				if hits > 10 {
					t.Errorf("a redirect loop made %d requests, want at most 10 (no retry)", hits)
				}
			case "body":
				if !strings.Contains(text, "retrying") {
					t.Errorf("the 500 was not retried (log:\n%s)", text)
				}
			}
			t.Logf("%d requests; error: %v", hits, err)
		})
	}
}

// syncBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func checkRefused(t *testing.T, c Call, err error, from, to string, origin, target *recorder) {
	t.Helper()
	if hits, creds := target.seen(); hits != 0 {
		t.Errorf("the redirect's target got %d requests, with credentials %q", hits, creds)
	}
	var re *httpapi.RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RedirectError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, from) || !strings.Contains(msg, to) || !strings.Contains(msg, "not sent") {
		t.Errorf("error %q does not name %s and %s or say the credentials were not sent", msg, from, to)
	}
	for _, s := range c.Secrets {
		if strings.Contains(msg, s) {
			t.Errorf("error %q quotes a secret", msg)
		}
	}
	if hits, _ := origin.seen(); hits != 1 {
		t.Errorf("the server got %d requests, want 1 (a refused redirect is not retried)", hits)
	}
}
