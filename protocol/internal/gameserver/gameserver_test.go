package gameserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestReadBody(t *testing.T) {
	for _, tc := range []struct {
		name      string
		body      string
		announced bool
		tooLarge  bool
	}{
		{"within", "0123456789", true, false},
		{"over, announced", "0123456789X", true, true},
		{"over, unannounced", "0123456789X", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if !tc.announced {
				r.ContentLength = -1
			}
			w := httptest.NewRecorder()
			data, err := ReadBody(w, r, 10)
			var tl *TooLargeError
			if got := errors.As(err, &tl); got != tc.tooLarge {
				t.Fatalf("ReadBody() = %q, %v; too large %v, want %v", data, err, got, tc.tooLarge)
			}
			if tc.tooLarge {
				if w.Header().Get("Connection") != "close" || tl.Limit != 10 {
					t.Errorf("too large: Connection %q, limit %d", w.Header().Get("Connection"), tl.Limit)
				}
			} else if string(data) != tc.body {
				t.Errorf("ReadBody() = %q, want %q", data, tc.body)
			}
		})
	}
}

func TestReply(t *testing.T) {
	w := httptest.NewRecorder()
	Reply(w, http.StatusCreated, map[string]int{"n": 1})
	if w.Code != http.StatusCreated || w.Header().Get("Content-Type") != "application/json" || w.Body.String() != "{\"n\":1}\n" {
		t.Errorf("Reply: %d %q %q", w.Code, w.Header().Get("Content-Type"), w.Body.String())
	}
	w = httptest.NewRecorder()
	Reply(w, http.StatusOK, func() {})
	if w.Code != http.StatusInternalServerError {
		t.Errorf("a value that does not encode: %d, want 500", w.Code)
	}
}

func TestSecretEqual(t *testing.T) {
	for _, tc := range []struct {
		got, want string
		ok        bool
	}{
		{"k3y", "k3y", true},
		{"k3", "k3y", false},
		{"k3yy", "k3y", false},
		{"", "", false},
		{"x", "", false},
	} {
		if ok := SecretEqual(tc.got, tc.want); ok != tc.ok {
			t.Errorf("SecretEqual(%q, %q) = %v, want %v", tc.got, tc.want, ok, tc.ok)
		}
	}
}

func TestBearerToken(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	if _, ok := BearerToken(r); ok {
		t.Error("a token without the header")
	}
	r.Header.Set("Authorization", "Bearer abc")
	if tok, ok := BearerToken(r); !ok || tok != "abc" {
		t.Errorf("BearerToken() = %q, %v", tok, ok)
	}
}
