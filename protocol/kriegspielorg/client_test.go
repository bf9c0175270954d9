package kriegspielorg_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg/ksserver"
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

// A create refused because the bot already has an open game (the site
// allows one; a retry after a lost answer meets this refusal) hands back
// that game instead of an error, and a refusal with no game of ours behind
// it stays an error.
func TestCreateFindsOurOpenGame(t *testing.T) {
	srv := ksserver.New(ksserver.Config{})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: ts.URL, Token: srv.AddBot("alpha")})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := c.Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "berkeley"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "berkeley"})
	if err != nil {
		t.Fatalf("second create: %v, want the open game back", err)
	}
	if again.GameID != first.GameID || again.GameCode != first.GameCode {
		t.Errorf("second create gave %+v, want the open game %+v", again, first)
	}
	if _, err := c.Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "wild16"}); err == nil {
		t.Error("a create with other rules than the open game's succeeded")
	}
}
