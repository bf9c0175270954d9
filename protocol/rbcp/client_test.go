package rbcp

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/rbc"

	"github.com/blindfish-rbc/blindfish/internal/stall"
)

func quickOptions(initial time.Duration) rbc.Options {
	o := rbc.DefaultOptions()
	o.InitialTime, o.Increment = initial, 0
	o.GameEndTimeout = 3 * time.Second
	o.Logger = slog.New(slog.DiscardHandler)
	return o
}

func newClient(t *testing.T, mode string, opts ...SetOption) *Client {
	t.Helper()
	cfg := engineConfig(t, mode)
	cfg.Options = opts
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// A game ends "normally" when no player failed.
func normalEnd(o rbc.Outcome) bool {
	switch o.Reason {
	case rbc.KingCapture, rbc.MoveLimit, rbc.TurnLimit:
		return true
	}
	return false
}

func TestClientPlaysWholeGamesBothColours(t *testing.T) {
	checkGoroutines(t)
	engine := newClient(t, "random", SetOption{Name: "seed", Value: "5"})
	for g := range 2 {
		local := randbot.New(uint64(g))
		white, black := rbc.Player(engine), rbc.Player(local)
		if g%2 == 1 {
			white, black = black, white
		}
		res, err := rbc.PlayLocalGame(context.Background(), white, black, quickOptions(30*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		o := res.History.Outcome
		if !normalEnd(o) {
			t.Fatalf("game %d: %v", g, o)
		}
		if err := local.OrderError(); err != nil {
			t.Fatalf("game %d: local player: %v", g, err)
		}
		if n := len(res.History.Turns[chess.White]); n < 2 {
			t.Fatalf("game %d: only %d turns", g, n)
		}
	}
	if got := engine.Name(); got != "Test Engine 1.0" {
		t.Errorf("engine name %q", got)
	}
}

func TestClientEngineVsEngine(t *testing.T) {
	checkGoroutines(t)
	a := newClient(t, "random", SetOption{Name: "seed", Value: "1"})
	b := newClient(t, "random", SetOption{Name: "seed", Value: "2"}, SetOption{Name: "style", Value: "wild"})
	res, err := rbc.PlayLocalGame(context.Background(), a, b, quickOptions(30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if !normalEnd(res.History.Outcome) {
		t.Fatalf("outcome %v", res.History.Outcome)
	}
}

// failureGame plays an engine in mode as White against a local random player
// and returns the outcome and how long the game took.
func failureGame(t *testing.T, mode string, initial time.Duration) (rbc.Outcome, time.Duration) {
	t.Helper()
	engine := newClient(t, mode)
	start := time.Now()
	res, err := rbc.PlayLocalGame(context.Background(), engine, randbot.New(1), quickOptions(initial))
	if err != nil {
		t.Fatal(err)
	}
	engine.Close()
	return res.History.Outcome, time.Since(start)
}

func TestClientStuckEngineLosesOnTime(t *testing.T) {
	checkGoroutines(t)
	o, took := failureGame(t, "stuck-move", 1500*time.Millisecond)
	if !o.HasWinner || o.Winner != chess.Black || o.Reason != rbc.Timeout {
		t.Fatalf("outcome %v, want black wins by TIMEOUT", o)
	}
	if took > 5*time.Second {
		t.Errorf("the stuck engine held the game for %v", took)
	}
}

func TestClientStuckFamilyIsKilled(t *testing.T) {
	// The engine's child holds its output open: only killing the whole
	// process group ends the game's reader.
	checkGoroutines(t)
	o, took := failureGame(t, "family-stuck", 1500*time.Millisecond)
	if o.Reason != rbc.Timeout || o.Winner != chess.Black {
		t.Fatalf("outcome %v", o)
	}
	if took > 6*time.Second {
		t.Errorf("took %v", took)
	}
}

func TestClientDeadEngineLosesByError(t *testing.T) {
	checkGoroutines(t)
	o, _ := failureGame(t, "die-move", 20*time.Second)
	if o.Winner != chess.Black || o.Reason != rbc.Resign ||
		!(strings.Contains(o.Detail, "closed its output") || strings.Contains(o.Detail, "exited")) {
		t.Fatalf("outcome %v", o)
	}
}

func TestClientGarbageLosesByError(t *testing.T) {
	checkGoroutines(t)
	o, _ := failureGame(t, "garbage-move", 20*time.Second)
	if o.Winner != chess.Black || o.Reason != rbc.Resign || !strings.Contains(o.Detail, "protocol violation") {
		t.Fatalf("outcome %v", o)
	}
}

func TestClientFloodingEngineLosesByError(t *testing.T) {
	checkGoroutines(t)
	o, took := failureGame(t, "flood-move", 20*time.Second)
	if o.Winner != chess.Black || o.Reason != rbc.Resign || !strings.Contains(o.Detail, "protocol violation") {
		t.Fatalf("outcome %v", o)
	}
	if took > 10*time.Second {
		t.Errorf("took %v", took)
	}
}

func TestClientMuteEngineFailsToStart(t *testing.T) {
	checkGoroutines(t)
	cfg := engineConfig(t, "mute")
	cfg.StartTimeout = 300 * time.Millisecond
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	start, probe := time.Now(), stall.Start()
	err = c.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "handshake") {
		t.Fatalf("Start: %v", err)
	}
	if d, stalled := time.Since(start), probe.Stop(); d > 3*time.Second+stall.Allowance(stalled) {
		t.Errorf("Start took %v (%v of it waiting for a CPU)", d, stalled)
	}
	c.Close()
}

func TestClientStartErrors(t *testing.T) {
	checkGoroutines(t)
	c, err := NewClient(ClientConfig{Command: []string{"/nonexistent/engine"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err == nil {
		t.Fatal("a missing program started")
	}
	bad := newClient(t, "random", SetOption{Name: "colour", Value: "blue"})
	err = bad.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "colour") {
		t.Fatalf("unknown option: %v", err)
	}
	if _, err := NewClient(ClientConfig{}); err == nil {
		t.Fatal("NewClient accepted an empty command")
	}
	// A callback without a running engine fails instead of hanging.
	if _, err := bad.ChooseMove(context.Background(), nil, time.Second); err == nil {
		t.Fatal("ChooseMove without an engine succeeded")
	}
}

func TestClientCloseDuringThinking(t *testing.T) {
	checkGoroutines(t)
	c := newClient(t, "stuck-move")
	ctx := context.Background()
	if err := c.HandleGameStart(ctx, chess.White, chess.StartBoard(), "x"); err != nil {
		t.Fatal(err)
	}
	if err := c.HandleOpponentMoveResult(ctx, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ChooseSense(ctx, nil, nil, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := c.HandleSenseResult(ctx, nil); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	var moveErr error
	go func() {
		defer wg.Done()
		_, moveErr = c.ChooseMove(ctx, []chess.Move{mv("e2e4")}, time.Minute)
	}()
	time.Sleep(100 * time.Millisecond)
	c.Close()
	wg.Wait()
	if moveErr == nil {
		t.Fatal("ChooseMove succeeded on a closed engine")
	}
}

// exitedProcess is a process whose engine has already exited and whose exit
// is recorded as the cause, with replies waiting unread: the order in which
// an engine that writes its last line and exits at once can be seen.
func exitedProcess(t *testing.T, replies ...Reply) *process {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	p := &process{
		log: slog.New(slog.DiscardHandler), stdin: w,
		replies: make(chan Reply, len(replies)), exited: make(chan struct{}), killed: make(chan struct{}),
	}
	for _, x := range replies {
		p.replies <- x
	}
	close(p.replies)
	close(p.exited)
	p.die(errors.New("rbcp: the engine exited (exit status 0)"))
	return p
}

// A whole line the engine wrote before it exited is the cause reported, not
// the exit, however the two were recorded.
func TestLineBeforeExitIsTheCause(t *testing.T) {
	opt := []SetOption{{Name: "seed", Value: "1"}}
	for _, tc := range []struct {
		name    string
		replies []Reply
		options []SetOption
		want    string
	}{
		{"refused", []Reply{Error{Text: "no network"}}, nil, "refused the handshake: no network"},
		{"version", []Reply{HelloOK{Version: Version + 1}}, nil, "speaks protocol version"},
		{"out of turn", []Reply{OK{}}, nil, "protocol violation in the handshake"},
		{"option rejected", []Reply{HelloOK{Version: Version}, Error{Text: "no such option"}}, opt, "rejected option seed"},
		{"option answer", []Reply{HelloOK{Version: Version}, ReadyOK{}}, opt, "want ok to setoption"},
		// A line that does not parse may be the cut-off output of a crash:
		// the exit recorded first is the cause.
		{"bad line", []Reply{HelloOK{Version: Version}, badLine{errors.New("unreadable")}}, opt, "the engine exited (exit status 0)"},
		{"readyok", []Reply{HelloOK{Version: Version}, OK{}}, nil, "want readyok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := exitedProcess(t, tc.replies...)
			_, err := p.handshake(context.Background(), tc.options, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("handshake: %v, want %q", err, tc.want)
			}
		})
	}
	// With no line waiting, the exit is the cause.
	p := exitedProcess(t)
	if _, err := p.handshake(context.Background(), nil, nil); err == nil || !strings.Contains(err.Error(), "exited") {
		t.Fatalf("handshake with no reply: %v", err)
	}
}
