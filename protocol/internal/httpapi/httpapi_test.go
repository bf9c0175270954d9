package httpapi

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// A refusal carries the error code of kriegspiel.org's error shape and
// the Retry-After header, so that a client can wait as the server asks.
func TestStatusErrorCarriesRetryAfterAndCode(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			w.Header().Set("Retry-After", "7")
		}
		w.WriteHeader(http.StatusConflict)
		w.Write([]byte(`{"error": {"code": "BOT_JOIN_COOLDOWN", "message": "once per minute", "details": {}}}`))
	}))
	defer ts.Close()
	u, _ := url.Parse(ts.URL)
	c := New(Config{Name: "test", Base: u})
	for path, want := range map[string]time.Duration{"/slow": 7 * time.Second, "/plain": 0} {
		err := c.Call(context.Background(), http.MethodPost, path, struct{}{}, nil, Options{JSON: true})
		var se *StatusError
		if !errors.As(err, &se) || se.Code != http.StatusConflict || se.ErrCode != "BOT_JOIN_COOLDOWN" || se.RetryAfter != want {
			t.Errorf("%s: %#v, want 409 BOT_JOIN_COOLDOWN with Retry-After %s", path, err, want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"": 0, "30": 30 * time.Second, " 5 ": 5 * time.Second, "-3": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", v, got, want)
		}
	}
}
