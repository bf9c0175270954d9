package rbcclient_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/syncbuf"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient/rbcclienttest"
	"github.com/blindfish-rbc/blindfish/rbc"
)

const (
	user     = "tester"
	password = "hunter2-Secret"
)

// syncBuffer is a log sink safe for concurrent writers.
type syncBuffer = syncbuf.Buffer

// rig is a loopback server and a client of it.
type rig struct {
	srv    *rbcclienttest.Server
	http   *httptest.Server
	client *rbcclient.Client
	logs   *syncBuffer
	log    *slog.Logger
}

func newRig(t *testing.T, f rbcclienttest.Faults, mutate func(*rbcclienttest.Config)) *rig {
	t.Helper()
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = 60*time.Second, time.Second
	opts.TurnLimit = 80
	opts.Logger = slog.New(slog.DiscardHandler)
	cfg := rbcclienttest.Config{
		Users:  map[string]string{user: password},
		Game:   opts,
		Faults: f,
		Bots:   map[string]func() rbc.Player{"randbot": func() rbc.Player { return randbot.New(99) }},
	}
	if mutate != nil {
		mutate(&cfg)
	}
	srv := rbcclienttest.New(cfg)
	hs := httptest.NewServer(srv)
	logs := &syncBuffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := rbcclient.NewClient(rbcclient.Config{
		URL: hs.URL, Username: user, Password: password, Logger: log,
		RetryInterval: 10 * time.Millisecond, RetryFor: 20 * time.Second, AttemptTimeout: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{srv: srv, http: hs, client: c, logs: logs, log: log}
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
		if strings.Contains(logs.String(), password) || strings.Contains(logs.String(), basicToken()) {
			t.Errorf("the credentials appear in the logs")
		}
	})
	return r
}

func basicToken() string { return base64.StdEncoding.EncodeToString([]byte(user + ":" + password)) }

func (r *rig) listenConfig(games int) rbcclient.ListenConfig {
	seed := uint64(0)
	var mu sync.Mutex
	return rbcclient.ListenConfig{
		Client: r.client,
		NewPlayer: func() (rbc.Player, error) {
			mu.Lock()
			defer mu.Unlock()
			seed++
			return randbot.New(seed), nil
		},
		MaxGames:     3,
		StopAfter:    games,
		PollInterval: 20 * time.Millisecond,
		Play:         rbcclient.PlayOptions{PollInterval: 5 * time.Millisecond},
		Logger:       r.log,
	}
}

// invite makes the server's bots invite the user to n games, colours alternating.
func (r *rig) invite(n int) {
	for i := range n {
		color := chess.White
		if i%2 == 1 {
			color = chess.Black
		}
		r.srv.Invite(user, color, fmt.Sprintf("randbot%d", i), randbot.New(uint64(100+i)))
	}
}

// checkGames asserts that every game on the server ended by the rules,
// with no error-resignation and every invitation finished.
func (r *rig) checkGames(t *testing.T, n int) {
	t.Helper()
	games := r.srv.Games()
	if len(games) != n {
		t.Fatalf("%d games on the server, want %d", len(games), n)
	}
	for _, g := range games {
		switch {
		case !g.Over:
			t.Errorf("game %d is not over", g.ID)
		case g.ErrorResigned:
			t.Errorf("game %d was error-resigned: %v", g.ID, g.Outcome)
		case g.Outcome.Reason != rbc.KingCapture && g.Outcome.Reason != rbc.MoveLimit && g.Outcome.Reason != rbc.TurnLimit:
			t.Errorf("game %d ended by %v", g.ID, g.Outcome)
		case !g.Finished:
			t.Errorf("game %d's invitation was not finished", g.ID)
		}
	}
}

func TestListenPlaysGamesUnderEveryFault(t *testing.T) {
	// Each case names the fault kind it must have injected ("" for none).
	cases := []struct {
		name, kind string
		f          rbcclienttest.Faults
	}{
		{"none", "", rbcclienttest.Faults{}},
		{"5xx-bursts", "5xx", rbcclienttest.Faults{Burst5xx: 0.04, BurstLength: 4}},
		{"slow", "slow", rbcclienttest.Faults{Slow: 0.05, SlowDelay: 40 * time.Millisecond}},
		{"drop", "drop", rbcclienttest.Faults{Drop: 0.05}},
		{"drop-after", "drop-after", rbcclienttest.Faults{DropAfter: 0.08}},
		{"malformed", "malformed", rbcclienttest.Faults{Malformed: 0.05}},
		{"all", "", rbcclienttest.Faults{Burst5xx: 0.02, Slow: 0.03, SlowDelay: 30 * time.Millisecond, Drop: 0.03, DropAfter: 0.03, Malformed: 0.03}},
	}
	for _, tc := range cases {
		name, f := tc.name, tc.f
		t.Run(name, func(t *testing.T) {
			f.Seed = uint64(len(name))
			r := newRig(t, f, nil)
			games := 3
			if testing.Short() {
				games = 2
			}
			r.invite(games)
			var mu sync.Mutex
			var results []*rbcclient.Result
			cfg := r.listenConfig(games)
			cfg.OnGame = func(inv int, res *rbcclient.Result, err error) {
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Errorf("invitation %d: %v", inv, err)
				}
				results = append(results, res)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			if err := rbcclient.Listen(ctx, cfg); err != nil {
				t.Fatal(err)
			}
			r.checkGames(t, games)
			mu.Lock()
			defer mu.Unlock()
			for _, res := range results {
				if res == nil || res.History == nil || len(res.HistoryJSON) == 0 {
					t.Errorf("a game without its record: %+v", res)
					continue
				}
				if res.History.Outcome != res.Outcome {
					t.Errorf("game %d: record says %v, outcome %v", res.GameID, res.History.Outcome, res.Outcome)
				}
			}
			counts := r.srv.FaultCounts()
			if tc.kind != "" && counts[tc.kind] == 0 {
				t.Errorf("no %s fault was injected: %v", tc.kind, counts)
			}
			t.Logf("faults injected: %v", counts)
		})
	}
}

func TestListenRankedAndGracefulShutdown(t *testing.T) {
	// Every answer is slowed a little so that the games are surely still
	// running when the shutdown request comes, however fast the machine.
	r := newRig(t, rbcclienttest.Faults{Slow: 1, SlowDelay: 10 * time.Millisecond}, func(c *rbcclienttest.Config) {
		c.Game.TurnLimit = 40
	})
	r.invite(2)
	cfg := r.listenConfig(0)
	cfg.Ranked = true
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once sync.Once
	cfg.Play.Logger = slog.New(slog.NewTextHandler(&notify{fn: func(s string) {
		if strings.Contains(s, "game start") {
			once.Do(func() { close(started) })
		}
	}}, nil))
	var mu sync.Mutex
	var endedAt []time.Time
	cfg.OnGame = func(inv int, res *rbcclient.Result, err error) {
		if err != nil {
			t.Errorf("invitation %d: %v", inv, err)
		}
		mu.Lock()
		endedAt = append(endedAt, time.Now())
		mu.Unlock()
	}
	done := make(chan error, 1)
	go func() { done <- rbcclient.Listen(ctx, cfg) }()
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("no game started")
	}
	if u := r.srv.User(user); !u.Ranked || u.Version != 1 || u.MaxGames != 3 {
		t.Errorf("while listening: %+v, want ranked, version 1, max_games 3", u)
	}
	time.Sleep(50 * time.Millisecond) // let the poll take the second invitation
	cancelledAt := time.Now()
	cancel() // as SIGINT does
	late := r.srv.Invite(user, chess.White, "late", randbot.New(5))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("Listen did not return after shutdown")
	}
	if u := r.srv.User(user); u.Ranked {
		t.Error("still ranked after shutdown")
	}
	mu.Lock()
	if len(endedAt) == 0 || !endedAt[len(endedAt)-1].After(cancelledAt) {
		t.Errorf("no game was still running at the shutdown request (ended at %v, cancelled at %v)", endedAt, cancelledAt)
	}
	mu.Unlock()
	for _, g := range r.srv.Games() {
		if g.Invitation == late {
			if g.Finished || g.Over {
				t.Errorf("the invitation sent after the shutdown request was played")
			}
			continue
		}
		if !g.Over && g.Finished {
			t.Errorf("game %d was finished but is not over", g.ID)
		}
		if g.Finished && (g.ErrorResigned || g.Outcome.Reason == rbc.Resign || g.Outcome.Reason == rbc.Timeout) {
			t.Errorf("game %d was cut short: %v", g.ID, g.Outcome)
		}
	}
	var finished int
	for _, g := range r.srv.Games() {
		if g.Finished {
			finished++
		}
	}
	if finished == 0 {
		t.Error("no game was played to its end after the shutdown request")
	}
}

// notify is a writer that calls fn with each write.
type notify struct{ fn func(string) }

func (n *notify) Write(p []byte) (int, error) {
	n.fn(string(p))
	return len(p), nil
}

func TestListenVersionCheck(t *testing.T) {
	r := newRig(t, rbcclienttest.Faults{}, func(c *rbcclienttest.Config) { c.Version = "1.7.0" })
	cfg := r.listenConfig(1)
	err := rbcclient.Listen(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), "1.7.0") {
		t.Fatalf("Listen on a 1.7.0 server: %v", err)
	}
	r.invite(1)
	cfg.AnyVersion = true
	if err := rbcclient.Listen(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	r.checkGames(t, 1)
	if !strings.Contains(r.logs.String(), "version differs") {
		t.Error("no warning about the version")
	}
}

func TestCredentialsNeverInErrorsOrLogs(t *testing.T) {
	r := newRig(t, rbcclienttest.Faults{EchoAuthOn401: true}, func(c *rbcclienttest.Config) {
		c.Users = map[string]string{user: "another-password"}
	})
	err := rbcclient.Listen(context.Background(), r.listenConfig(1))
	if err == nil {
		t.Fatal("Listen with a wrong password succeeded")
	}
	var se *rbcclient.StatusError
	if !errors.As(err, &se) || se.Code != 401 {
		t.Fatalf("want a 401 StatusError, got %v", err)
	}
	for _, secret := range []string{password, basicToken()} {
		if strings.Contains(err.Error(), secret) {
			t.Fatalf("the error shows a credential: %v", err)
		}
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("the echoed credentials were not redacted: %v", err)
	}
	// (newRig's cleanup checks the logs.)
}

// failingPlayer fails its first ChooseMove.
type failingPlayer struct{ *randbot.Player }

func (failingPlayer) ChooseMove(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
	return chess.Move{}, errors.New("out of memory (simulated)")
}

func TestFailingPlayerIsErrorResigned(t *testing.T) {
	r := newRig(t, rbcclienttest.Faults{}, nil)
	r.invite(1)
	cfg := r.listenConfig(1)
	cfg.NewPlayer = func() (rbc.Player, error) { return failingPlayer{randbot.New(1)}, nil }
	var gameErr error
	cfg.OnGame = func(inv int, res *rbcclient.Result, err error) { gameErr = err }
	if err := rbcclient.Listen(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	if gameErr == nil || !strings.Contains(gameErr.Error(), "out of memory") {
		t.Fatalf("game error: %v", gameErr)
	}
	// The loopback server's referee ends the game on its own goroutine
	// after the resignation is posted, so Listen can return first: wait
	// for the game to be over (a hang shows as the last state seen).
	var g rbcclienttest.GameInfo
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		g = r.srv.Games()[0]
		if g.Over || time.Now().After(deadline) {
			break
		}
	}
	if !g.ErrorResigned || !g.Finished || !g.Over || !g.Outcome.HasWinner || g.Outcome.Winner == g.Color {
		t.Fatalf("game after the player failed: %+v", g)
	}
}

func TestClientCalls(t *testing.T) {
	r := newRig(t, rbcclienttest.Faults{}, nil)
	ctx := context.Background()
	users, err := r.client.Users(ctx)
	if err != nil || len(users) != 2 {
		t.Fatalf("users %v, %v", users, err)
	}
	// Invite a server bot and play the game by hand with PlayGame.
	id, err := r.client.Invite(ctx, "randbot", false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rbcclient.PlayGame(ctx, r.client.Game(id), randbot.New(3), rbcclient.PlayOptions{PollInterval: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Color != chess.Black || res.Opponent != "randbot" || res.Turns == 0 || res.History == nil {
		t.Fatalf("result %+v", res)
	}
	if _, err := r.client.Invite(ctx, "nobody", true); err == nil {
		t.Error("inviting an unknown user succeeded")
	}
	if _, err := r.client.Accept(ctx, 999); err == nil {
		t.Error("accepting a missing invitation succeeded")
	}
}
