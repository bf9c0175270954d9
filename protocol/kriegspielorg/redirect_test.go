package kriegspielorg_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi/redirecttest"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

const (
	regKey   = "registration-K3Y"
	botToken = "bot-T0KEN-value"
)

// answerAll is a valid answer to a registration and to ActiveGames.
func answerAll(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"bot_id":"1","username":"bot","api_token":"new-token","games":[]}`)
}

// A registration redirected elsewhere sends no key; one redirected on the
// same server keeps it.
func TestRegisterRedirects(t *testing.T) {
	redirecttest.Run(t, redirecttest.Call{
		Path: "/auth/bots/register",
		Do: func(ctx context.Context, base string, hc *http.Client, log *slog.Logger) error {
			reg, err := kriegspielorg.Register(ctx, kriegspielorg.Config{URL: base, HTTPClient: hc, Logger: log}, regKey,
				kriegspielorg.BotProfile{Username: "bot", DisplayName: "Bot", OwnerEmail: "a@example.org"})
			if err == nil && reg.APIToken != "new-token" {
				t.Errorf("Register() = %+v; want the token", reg)
			}
			return err
		},
		Answer: answerAll,
		Authorized: func(r *http.Request) bool {
			return r.Method == http.MethodPost && r.Header.Get("X-Bot-Registration-Key") == regKey
		},
		Secrets: []string{regKey},
	})
}

// A call redirected elsewhere sends no token; one redirected on the same
// server keeps it.
func TestRedirects(t *testing.T) {
	redirecttest.Run(t, redirecttest.Call{
		Path: "/game/mine/active",
		Do: func(ctx context.Context, base string, hc *http.Client, log *slog.Logger) error {
			c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: base, Token: botToken, HTTPClient: hc, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.ActiveGames(ctx)
			return err
		},
		Answer:     answerAll,
		Authorized: func(r *http.Request) bool { return r.Header.Get("Authorization") == "Bearer "+botToken },
		Secrets:    []string{botToken},
	})
}
