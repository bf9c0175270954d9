package rbcclient_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
)

// authLog is a server that keeps the Authorization headers it was sent.
type authLog struct {
	mu   sync.Mutex
	hits int
	auth []string
}

func (a *authLog) wrap(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.hits++
		if v := r.Header.Get("Authorization"); v != "" {
			a.auth = append(a.auth, v)
		}
		a.mu.Unlock()
		next(w, r)
	}
}

func (a *authLog) seen() (int, []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.hits, append([]string(nil), a.auth...)
}

func answerVersion(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"version":"`+rbcclient.HarnessVersion+`"}`)
}

// redirectAll answers every request with a 307 to the same path on target.
func redirectAll(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

// checkNoPassword asserts that the call failed with a RedirectError naming
// both origins, and that neither the target nor the error got the password.
func checkNoPassword(t *testing.T, err error, from, to string, target *authLog) {
	t.Helper()
	if hits, auth := target.seen(); hits != 0 {
		t.Errorf("the redirect's target got %d requests, with Authorization %q", hits, auth)
	}
	var re *rbcclient.RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RedirectError", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, from) || !strings.Contains(msg, to) || !strings.Contains(msg, "not sent") {
		t.Errorf("error %q does not name %s and %s or say the credentials were not sent", msg, from, to)
	}
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
	if strings.Contains(msg, password) || strings.Contains(msg, basic) {
		t.Errorf("error %q quotes the password", msg)
	}
}

func TestRedirectToAnotherPortGetsNoPassword(t *testing.T) {
	var origin, target authLog
	dst := httptest.NewServer(target.wrap(answerVersion))
	defer dst.Close()
	src := httptest.NewServer(origin.wrap(redirectAll(dst.URL)))
	defer src.Close()

	c, err := rbcclient.NewClient(rbcclient.Config{URL: src.URL, Username: user, Password: password})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Version(context.Background())
	checkNoPassword(t, err, src.URL, dst.URL, &target)
	if hits, _ := origin.seen(); hits != 1 {
		t.Errorf("the server got %d requests, want 1 (a refused redirect is not retried)", hits)
	}
}

func TestRedirectFromHTTPSToHTTPGetsNoPassword(t *testing.T) {
	var target authLog
	dst := httptest.NewServer(target.wrap(answerVersion))
	defer dst.Close()
	src := httptest.NewTLSServer(redirectAll(dst.URL))
	defer src.Close()

	c, err := rbcclient.NewClient(rbcclient.Config{URL: src.URL, Username: user, Password: password, HTTPClient: src.Client()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Version(context.Background())
	checkNoPassword(t, err, src.URL, dst.URL, &target)
}

func TestSameOriginRedirectIsFollowed(t *testing.T) {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	mux := http.NewServeMux()
	mux.HandleFunc("/api/version", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/v2/api/version", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/v2/api/version", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			http.Error(w, "{}", http.StatusUnauthorized)
			return
		}
		answerVersion(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	c, err := rbcclient.NewClient(rbcclient.Config{URL: srv.URL, Username: user, Password: password})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := c.Version(context.Background()); err != nil || v != rbcclient.HarnessVersion {
		t.Fatalf("Version() = %q, %v; want %q", v, err, rbcclient.HarnessVersion)
	}
}
