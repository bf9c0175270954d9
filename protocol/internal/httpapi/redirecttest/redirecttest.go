// Package redirecttest is the redirect test both clients of package httpapi
// run through their own calls: the attacks of httpapi's tests (a redirect
// to another port, from https to http) made on a real client, so that the
// credentials the client itself adds (a Basic header, a bearer token, a
// registration key) are shown to stay home too.
package redirecttest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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
	// client's own), and returns its error.
	Do func(ctx context.Context, base string, hc *http.Client) error
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
// same origin, the redirect is followed with the credentials.
func Run(t *testing.T, c Call) {
	t.Run("another port", func(t *testing.T) {
		var origin, target recorder
		dst := httptest.NewServer(target.wrap(c.Answer))
		defer dst.Close()
		src := httptest.NewServer(origin.wrap(redirectAll(dst.URL)))
		defer src.Close()
		checkRefused(t, c, c.Do(t.Context(), src.URL, nil), src.URL, dst.URL, &origin, &target)
	})
	t.Run("https to http", func(t *testing.T) {
		var origin, target recorder
		dst := httptest.NewServer(target.wrap(c.Answer))
		defer dst.Close()
		src := httptest.NewTLSServer(origin.wrap(redirectAll(dst.URL)))
		defer src.Close()
		checkRefused(t, c, c.Do(t.Context(), src.URL, src.Client()), src.URL, dst.URL, &origin, &target)
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
		if err := c.Do(t.Context(), srv.URL, nil); err != nil {
			t.Fatalf("a same-origin redirect failed: %v", err)
		}
	})
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
