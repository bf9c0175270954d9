package kriegspielorg_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/syncbuf"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/faults"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg/ksserver"
)

// TestListenersPlayEachOther: one bot keeps a lobby game open, the other
// joins open games; both play several games at once through a flaky server
// until each has finished its share, and every game ends with a checked
// record.
func TestListenersPlayEachOther(t *testing.T) {
	r := newRig(t, faults.Faults{Seed: 3, Burst5xx: 0.02, Drop: 0.02, DropAfter: 0.02})
	// The deadline guards against a hang, not slowness (as in rig.play): at
	// load 17 on two cores one random game over HTTP took 147 s.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const games = 3
	var mu sync.Mutex
	results := map[string][]*kriegspielorg.Result{}
	var wg sync.WaitGroup
	for i, name := range []string{"alpha", "beta"} {
		seed := uint64(100 * (i + 1))
		cfg := kriegspielorg.ListenConfig{
			Client: r.clients[i], Username: name, Variants: []string{"wild16+chessdraws"},
			Create: i == 0, JoinOpen: i == 1, MaxGames: 2, StopAfter: games, PollInterval: 10 * time.Millisecond,
			Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) {
				mu.Lock()
				defer mu.Unlock()
				seed++
				return kriegspiel.NewRandomPlayer(seed), nil
			},
			OnGame: func(id string, res *kriegspielorg.Result, err error) {
				if err != nil {
					t.Errorf("%s: game %s: %v", name, id, err)
				}
				mu.Lock()
				results[name] = append(results[name], res)
				mu.Unlock()
			},
		}
		wg.Go(func() {
			if err := kriegspielorg.Listen(ctx, cfg); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	wg.Wait()
	for _, name := range []string{"alpha", "beta"} {
		if len(results[name]) < games {
			t.Errorf("%s finished %d games, want %d", name, len(results[name]), games)
		}
		for _, res := range results[name] {
			if res == nil || res.Record == nil || res.Result.Reason == kriegspiel.Unfinished {
				t.Errorf("%s: a game without its result or record: %+v", name, res)
				continue
			}
			truth, ok := r.srv.Record(res.GameID)
			if !ok || truth.Result != res.Result {
				t.Errorf("%s: game %s: result %v, the server's %v", name, res.GameID, res.Result, truth.Result)
			}
			if res.Record.White == "" || res.Record.Black == "" || res.Record.White == res.Record.Black {
				t.Errorf("%s: game %s: players %q and %q", name, res.GameID, res.Record.White, res.Record.Black)
			}
		}
	}
	t.Logf("faults %v", r.srv.FaultCounts())
}

// TestListenStopsCleanly: once its context is done, a listener starts no
// new game, lets the running one finish, and only then returns.
func TestListenStopsCleanly(t *testing.T) {
	r := newRig(t, faults.Faults{})
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	oppCtx, oppStop := context.WithTimeout(context.Background(), 2*time.Minute)
	defer oppStop()
	newRandom := func(kriegspiel.Ruleset) (kriegspiel.Player, error) { return kriegspiel.NewRandomPlayer(9), nil }
	started := make(chan string, 4)
	var finished []string
	var mu sync.Mutex
	done := make(chan error, 1)
	go func() {
		done <- kriegspielorg.Listen(ctx, kriegspielorg.ListenConfig{Client: r.clients[0], Username: "alpha",
			Variants: []string{"wild16+chessdraws"}, Create: true, PollInterval: 5 * time.Millisecond,
			Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			NewPlayer: func(rules kriegspiel.Ruleset) (kriegspiel.Player, error) {
				started <- "game"
				return newRandom(rules)
			},
			OnGame: func(id string, res *kriegspielorg.Result, err error) {
				mu.Lock()
				finished = append(finished, id)
				mu.Unlock()
			}})
	}()
	go kriegspielorg.Listen(oppCtx, kriegspielorg.ListenConfig{Client: r.clients[1], Username: "beta",
		Variants: []string{"wild16+chessdraws"}, JoinOpen: true, PollInterval: 5 * time.Millisecond,
		Play: kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond}, NewPlayer: newRandom})
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("no game started")
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Listen: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(finished) != 1 {
		t.Fatalf("Listen returned with %d games finished, want the 1 it was playing", len(finished))
	}
	if rec, ok := r.srv.Record(finished[0]); !ok || rec.Result.Reason == kriegspiel.Unfinished {
		t.Errorf("the game was not played to its end: %+v", rec)
	}
	if len(started) != 0 {
		t.Error("a game was started after the stop")
	}
}

// counter is a handler in front of a server that counts the calls by
// method and path and signals each answer's status on answered.
type counter struct {
	next     http.Handler
	mu       sync.Mutex
	calls    map[string]int
	answered chan string // "METHOD /path STATUS", dropped when full
}

func newCounter(next http.Handler) *counter {
	return &counter{next: next, calls: map[string]int{}, answered: make(chan string, 1000)}
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &statusRecorder{ResponseWriter: w, code: http.StatusOK}
	c.next.ServeHTTP(rec, r)
	key := r.Method + " " + r.URL.Path
	c.mu.Lock()
	c.calls[key]++
	c.mu.Unlock()
	select {
	case c.answered <- fmt.Sprintf("%s %d", key, rec.code):
	default:
	}
}

// count is how many calls were made whose "METHOD /path" starts with
// prefix.
func (c *counter) count(prefix string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.calls {
		if strings.HasPrefix(k, prefix) {
			n += v
		}
	}
	return n
}

// waitFor waits for an answer to a call that starts with prefix, of the
// given status.
func (c *counter) waitFor(t *testing.T, prefix string, status int) {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case a := <-c.answered:
			if strings.HasPrefix(a, prefix) && strings.HasSuffix(a, fmt.Sprintf(" %d", status)) {
				return
			}
		case <-timeout:
			t.Fatalf("no answer %d to %q in a minute", status, prefix)
		}
	}
}

type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.code = code
	s.ResponseWriter.WriteHeader(code)
}

// syncBuffer is a log's buffer that several goroutines write.
type syncBuffer = syncbuf.Buffer

// TestListenKeepsTheSitesRulesForBots: on a server with the site's rules,
// a listener that joins open games asks for a human's game once (403) and
// never again, joins one bot's game, and after the 409 of the join
// cooldown leaves the lobby alone instead of asking every poll. At the
// start it sends its rulesets to /bots/profile once and shows its profile.
func TestListenKeepsTheSitesRulesForBots(t *testing.T) {
	srv := ksserver.New(ksserver.Config{RegistrationKey: key})
	cnt := newCounter(srv)
	ts := httptest.NewServer(cnt)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, tok := range []string{srv.AddHuman("hannah"), srv.AddBot("b1"), srv.AddBot("b2"), srv.AddBot("b3")} {
		c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: ts.URL, Token: tok})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "wild16", PlayAs: "white"}); err != nil {
			t.Fatal(err)
		}
	}
	client, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: ts.URL, Token: srv.AddBot("alpha")})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	listenCtx, stop := context.WithCancel(ctx)
	gameCtx, abandon := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- kriegspielorg.Listen(listenCtx, kriegspielorg.ListenConfig{Client: client, Username: "alpha",
			Variants: []string{"wild16"}, JoinOpen: true, MaxGames: 3, PollInterval: 2 * time.Millisecond,
			Play:        kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			GameContext: gameCtx, Logger: slog.New(slog.NewTextHandler(&logs, nil)),
			NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) { return kriegspiel.NewRandomPlayer(1), nil }})
	}()
	cnt.waitFor(t, "POST /game/join/", http.StatusForbidden) // the human's game
	cnt.waitFor(t, "POST /game/join/", http.StatusOK)        // a bot's
	cnt.waitFor(t, "POST /game/join/", http.StatusConflict)  // the next: the cooldown
	// Many polls later (each 2 ms), the lobby has been left alone.
	time.Sleep(300 * time.Millisecond)
	joins := cnt.count("POST /game/join/")
	stop()
	abandon()
	if err := <-done; err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if joins != 3 {
		t.Errorf("%d joins, want 3 (the human's game once, a bot's, one refused for the cooldown)\n%s", joins, logs.String())
	}
	if n := cnt.count("POST /bots/profile"); n != 1 {
		t.Errorf("%d calls of /bots/profile, want 1", n)
	}
	if l := logs.String(); !strings.Contains(l, "msg=profile username=alpha") || !strings.Contains(l, "rating=1200") {
		t.Errorf("the profile is not shown:\n%s", l)
	}
}

// TestListenWaitsOutACreateRefusal: a create refused with 409 and a
// Retry-After is asked again only after that wait (here 1 s, not the 1 h
// of RefusalWait), not at every poll.
func TestListenWaitsOutACreateRefusal(t *testing.T) {
	srv := ksserver.New(ksserver.Config{RegistrationKey: key})
	refuse := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/game/create" {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"error": {"code": "BOT_ALREADY_HAS_OPEN_GAME", "message": "one open game", "details": {}}}`))
			return
		}
		srv.ServeHTTP(w, r)
	})
	cnt := newCounter(refuse)
	ts := httptest.NewServer(cnt)
	defer ts.Close()
	client, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: ts.URL, Token: srv.AddBot("alpha")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	done := make(chan error, 1)
	go func() {
		done <- kriegspielorg.Listen(ctx, kriegspielorg.ListenConfig{Client: client, Username: "alpha",
			Variants: []string{"wild16"}, Create: true, PollInterval: 2 * time.Millisecond, RefusalWait: time.Hour,
			NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) { return kriegspiel.NewRandomPlayer(1), nil }})
	}()
	cnt.waitFor(t, "POST /game/create", http.StatusConflict)
	first := time.Now()
	cnt.waitFor(t, "POST /game/create", http.StatusConflict)
	if waited := time.Since(first); waited < 900*time.Millisecond {
		t.Errorf("the create was asked again after %s, want the Retry-After's 1 s", waited)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatalf("Listen: %v", err)
	}
	if n := cnt.count("POST /game/create"); n > 3 {
		t.Errorf("%d creates", n)
	}
}
