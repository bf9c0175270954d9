package kriegspielorg

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/listen"
)

// TestResignUnplayed: when a listener stops, it resigns the active games
// the site has us in that it never started (a join whose game became
// active after the last poll, or whose answer was lost), so that an
// opponent playing one is not left waiting for our whole clock; it leaves
// alone the games it played, our lobby game that waits for an opponent,
// and a game of a ruleset we do not play. Before, Listen returned with such
// a game active, and the opponent's listener hung on it.
func TestResignUnplayed(t *testing.T) {
	var mu sync.Mutex
	var resigned []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/game/mine/active":
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"games": []GameInfo{
				{GameID: "played", State: "active", RuleVariant: "wild16"},
				{GameID: "joined", State: "active", RuleVariant: "wild16"},
				{GameID: "lobby", State: "waiting", RuleVariant: "wild16"},
				{GameID: "other", State: "active", RuleVariant: "berkeley"},
			}})
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/resign"):
			mu.Lock()
			resigned = append(resigned, r.URL.Path)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"result": {}}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer ts.Close()
	c, err := NewClient(Config{URL: ts.URL, Token: "t", RetryInterval: time.Millisecond, RetryFor: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	l := &listener{cfg: ListenConfig{Client: c, Username: "beta"}, log: slog.New(slog.DiscardHandler),
		gameCtx: t.Context(), skipped: map[string]bool{"other": true}, refused: map[string]bool{}}
	l.games = listen.New(listen.Config[string, *Result]{MaxGames: 1})
	l.games.Start("played", func() (*Result, error) { return &Result{}, nil })
	l.games.Wait(l.log)
	l.resignUnplayed()
	if want := []string{"/game/joined/resign"}; !slices.Equal(resigned, want) {
		t.Errorf("resigned %v, want %v", resigned, want)
	}
}
