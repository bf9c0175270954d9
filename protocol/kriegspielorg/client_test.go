package kriegspielorg_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

// Register sends the X-Bot-Registration-Key header with a key and none
// without one (kriegspiel.org registers bots without a key today).
func TestRegisterSendsTheKeyOnlyWhenGiven(t *testing.T) {
	var got []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, sent := r.Header["X-Bot-Registration-Key"]
		if sent {
			got = append(got, v[0])
		} else {
			got = append(got, "(none)")
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"bot_id": "b", "username": "x", "api_token": "tok-for-test"}`))
	}))
	defer ts.Close()
	for _, k := range []string{"", "the-key"} {
		if _, err := kriegspielorg.Register(context.Background(), kriegspielorg.Config{URL: ts.URL}, k,
			kriegspielorg.BotProfile{Username: "x", OwnerEmail: "a@b.c"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 2 || got[0] != "(none)" || got[1] != "the-key" {
		t.Errorf("headers sent %q, want none and then the key", got)
	}
}
