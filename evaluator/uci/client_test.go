package uci

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/fakeengine"
	"github.com/blindfish-rbc/blindfish/evaluator/internal/proctest"
	"github.com/blindfish-rbc/blindfish/internal/peakmem"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// quietLogger drops logs unless -v is set.
func quietLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// fakeConfig configures a client for the fake engine (this test binary) in
// the given mode.
func fakeConfig(t *testing.T, mode string, extraEnv ...string) Config {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Config{
		Path:    exe,
		Env:     append([]string{fakeengine.EnvMode + "=" + mode}, extraEnv...),
		Options: []Option{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "16"}},
		// Room for a busy machine: a restarted fake engine (this test
		// binary) has taken over 2 s to say uciok beside two games.
		CommandTimeout: 10 * time.Second,
		StopGrace:      500 * time.Millisecond, // room for loaded CI machines
		QuitGrace:      200 * time.Millisecond,
		Logger:         quietLogger(),
	}
}

// checkClean asserts that no goroutines leaked and no child process is left.
func checkClean(t *testing.T, goroutinesBefore int) {
	t.Helper()
	proctest.RequireNoChildren(t)
	proctest.RequireGoroutines(t, goroutinesBefore)
}

func newFake(t *testing.T, mode string, extraEnv ...string) *Client {
	t.Helper()
	c, err := NewClient(fakeConfig(t, mode, extraEnv...))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClientProtocol(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := newFake(t, fakeengine.ModeNormal)

	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if id := c.ID(); id.Name != "Blindfish Fake" || id.Author != "Blindfish tests" {
		t.Errorf("ID = %+v", id)
	}
	if spec, ok := c.Options()["debug log file"]; !ok || spec.Type != "string" || spec.Default != "" {
		t.Errorf("Options()[debug log file] = %+v, %v", spec, ok)
	}
	if err := c.SetOption(ctx, "hash", "32"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetOption(ctx, "No Such Option", "1"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("SetOption(unknown) = %v, want ErrInvalidArgument", err)
	}
	if err := c.SetOption(ctx, "Clear Hash", ""); err != nil {
		t.Fatal(err)
	}
	if err := c.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.IsReady(ctx); err != nil {
		t.Fatal(err)
	}

	res, err := c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "e2e4" || res.Ponder != "e7e5" || res.Depth != 5 || len(res.Lines) != 1 || res.Stopped {
		t.Errorf("depth 5 result = %+v", res)
	}
	if s := res.Score(); s.Kind != ScoreCP || s.Value != 20 {
		t.Errorf("score = %v", s)
	}

	res, err = c.Search(ctx, Position{FEN: uciStart, Moves: []string{"e2e4"}}, Limits{Depth: 2, MultiPV: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 3 || res.Lines[2].PV[0] != "g1f3" || res.Lines[2].MultiPV != 3 {
		t.Errorf("multipv result = %+v", res)
	}

	res, err = c.Search(ctx, Position{}, Limits{Nodes: 2000, SearchMoves: []string{"g1f3", "b1c3"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "g1f3" || len(res.Lines) != 1 {
		t.Errorf("searchmoves result = %+v (MultiPV must be back to 1)", res)
	}

	res, err = c.Search(ctx, Position{FEN: fakeengine.MatedFEN}, Limits{Depth: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.HasMove() || res.BestMove != NoMove || res.Score() != (Score{Kind: ScoreMate}) {
		t.Errorf("mated result = %+v", res)
	}

	if _, err := c.Search(ctx, Position{FEN: "bad\nquit"}, Limits{Depth: 1}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bad FEN: %v", err)
	}
	if st := c.Stats(); st.Starts != 1 || st.Kills != 0 {
		t.Errorf("stats = %+v, want 1 start and no kill", st)
	}
	pid := c.Pid()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	proctest.RequireReaped(t, pid)
	if _, err := c.Search(ctx, Position{}, Limits{Depth: 1}); !errors.Is(err, ErrClosed) {
		t.Errorf("Search after Close = %v, want ErrClosed", err)
	}
	checkClean(t, before)
}

const uciStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// TestClientRecovers drives one client through every failure the fake
// engine can produce and checks that it is killed, reaped, and replaced.
func TestClientRecovers(t *testing.T) {
	// This process's peak memory is well above an engine's (see the peak
	// check at the end): an engine's must be its own.
	ballast := make([]byte, 64<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	defer runtime.KeepAlive(ballast)
	before := runtime.NumGoroutine()
	c := newFake(t, fakeengine.ModeNormal)
	defer c.Close()

	ok := func(step string) {
		t.Helper()
		// A guard against a hang, not a speed test: a restart on a busy
		// machine (CI beside two games) has taken over 5 s.
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 3})
		if err != nil || res.BestMove != "e2e4" {
			t.Fatalf("%s: search after recovery = %+v, %v", step, res, err)
		}
	}
	ok("first")
	for _, tc := range []struct {
		name    string
		depth   int
		timeout time.Duration
		want    error
	}{
		{"hang", fakeengine.DepthHang, 150 * time.Millisecond, ErrTimeout},
		{"die", fakeengine.DepthDie, 5 * time.Second, ErrEngineDied},
		{"garbage", fakeengine.DepthGarbage, 5 * time.Second, ErrProtocol},
	} {
		pid := c.Pid()
		ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
		start := time.Now()
		_, err := c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: tc.depth})
		cancel()
		if !errors.Is(err, tc.want) {
			t.Fatalf("%s: err = %v, want %v", tc.name, err, tc.want)
		}
		if tc.want == ErrTimeout {
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s: %v does not wrap context.DeadlineExceeded", tc.name, err)
			}
			// Deadline + StopGrace + kill, with margin for the race
			// detector and a busy machine: what it rules out is a search
			// that waits for the hung engine, not a slow one (1.19 s
			// against a bound of 1.15 s was seen at load 9).
			if d := time.Since(start); d > tc.timeout+c.cfg.StopGrace+10*time.Second {
				t.Errorf("%s: returned after %v", tc.name, d)
			}
		}
		t.Logf("%s: %v", tc.name, err)
		if c.Running() {
			t.Errorf("%s: engine still attached after failure", tc.name)
		}
		proctest.RequireReaped(t, pid)
		ok(tc.name)
		if c.Pid() == pid {
			t.Errorf("%s: engine was not replaced", tc.name)
		}
	}

	// A long search cut by the deadline is stopped gracefully: partial
	// result, timeout error, same engine.
	pid := c.Pid()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	res, err := c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthLong})
	cancel()
	if !errors.Is(err, ErrTimeout) || !res.Stopped || res.BestMove != "e2e4" {
		t.Fatalf("long search: %+v, %v; want a stopped result and ErrTimeout", res, err)
	}
	if c.Pid() != pid {
		t.Errorf("graceful stop replaced the engine")
	}
	// Cancellation (not a deadline) is stopped the same way.
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	res, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthLong})
	if !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) || !res.Stopped {
		t.Fatalf("canceled search: %+v, %v", res, err)
	}
	ok("after stops")
	// A context that is already done never reaches the engine.
	_, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 3})
	if !errors.Is(err, ErrCanceled) || c.Pid() != pid {
		t.Fatalf("search with canceled context: %v (pid %d, was %d)", err, c.Pid(), pid)
	}

	st := c.Stats()
	if st.Starts != 4 || st.Kills != 3 {
		t.Errorf("stats = %+v, want 4 starts and 3 kills", st)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	proctest.RequireReaped(t, pid)
	checkClean(t, before)
	// The engines' peak memory was read from each before it was stopped:
	// the fake engine's own (a small Go program), not this process's.
	if runtime.GOOS == "linux" {
		self, _ := peakmem.Process(os.Getpid())
		if peak := c.Stats().PeakRSS; peak <= 0 || peak < st.PeakRSS || peak >= self {
			t.Errorf("engines' peak %d bytes (while running %d), this process's %d", peak, st.PeakRSS, self)
		}
	}
}

// slowDelay is how long the slow fake engine takes over each answer.
const slowDelay = 150 * time.Millisecond

// untilNotStarved runs call, a call whose deadline falls before the slow
// engine's answer, and returns its error. A call can only see its deadline
// if it runs between the deadline and the answer: when call succeeded and
// this process waited for a CPU at least margin meanwhile (the answer was
// already there when it ran again, and a line that has come is read first),
// the try says nothing of the deadline and call is run again, up to 20
// times. If every try was starved so, it says so in the log and returns
// nil; a success without such a wait is returned for the caller to fail.
// When retry is false, call runs once.
func untilNotStarved(t *testing.T, retry bool, margin time.Duration, call func() error) error {
	t.Helper()
	const tries = 20
	for try := 1; ; try++ {
		probe := stall.Start()
		err := call()
		stalled := probe.Stop()
		if !retry || err != nil || stalled < margin {
			if err == nil && retry {
				return fmt.Errorf("the call succeeded after its deadline, the process having waited only %v for a CPU", stalled)
			}
			return err
		}
		if try == tries {
			t.Logf("each of %d tries came after its deadline with the process starved (%v the last): the deadline is not checked", tries, stalled)
			return nil
		}
		t.Logf("try %d came after its deadline, the process having waited %v for a CPU: again", try, stalled)
	}
}

// TestClientModes checks engines that misbehave from the start.
func TestClientModes(t *testing.T) {
	before := runtime.NumGoroutine()
	tests := []struct {
		mode    string
		env     []string
		call    string
		timeout time.Duration
		want    error
	}{
		{mode: fakeengine.ModeSilent, call: "start", want: ErrTimeout},
		{mode: fakeengine.ModeExit, call: "start", want: ErrEngineDied},
		{mode: fakeengine.ModeHang, call: "search", timeout: 150 * time.Millisecond, want: ErrTimeout},
		{mode: fakeengine.ModeDie, call: "search", timeout: 5 * time.Second, want: ErrEngineDied},
		{mode: fakeengine.ModeGarbage, call: "search", timeout: 5 * time.Second, want: ErrProtocol},
		// Slow: every answer takes 150 ms; the search is stopped in time.
		{mode: fakeengine.ModeSlow, env: []string{fakeengine.EnvDelay + "=" + slowDelay.String()}, call: "search", timeout: 50 * time.Millisecond, want: ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			cfg := fakeConfig(t, tt.mode, tt.env...)
			if tt.mode == fakeengine.ModeSilent {
				cfg.CommandTimeout = 300 * time.Millisecond
			}
			c, err := NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for round := 0; round < 2; round++ { // the failure repeats after each restart
				if tt.call == "start" {
					probe := stall.Start()
					start := time.Now()
					err = c.Start(context.Background())
					// The bound proves the configured 300 ms was kept, not
					// the default 10 s: the client also waits for what the
					// engine waited for a CPU, which this probe cannot read
					// (the engine is killed), and a starved race pass spent
					// 2 s beyond the probe's count starting and killing it.
					if d, stalled := time.Since(start), probe.Stop(); d > cfg.CommandTimeout+5*time.Second+stall.Allowance(stalled) {
						t.Errorf("Start took %v, having waited only %v for a CPU", d, stalled)
					}
				} else {
					if err := c.Start(context.Background()); err != nil {
						t.Fatal(err)
					}
					var res Result
					err = untilNotStarved(t, tt.mode == fakeengine.ModeSlow, slowDelay-tt.timeout, func() error {
						ctx, cancel := context.WithTimeout(context.Background(), tt.timeout)
						defer cancel()
						res, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 3})
						return err
					})
					if tt.mode == fakeengine.ModeSlow && errors.Is(err, ErrTimeout) && (!res.Stopped || c.Pid() == 0) {
						t.Errorf("slow engine: result %+v, pid %d; want a stopped result and a kept engine", res, c.Pid())
					}
				}
				if err == nil && tt.mode == fakeengine.ModeSlow {
					continue // every try starved: untilNotStarved said so
				}
				if !errors.Is(err, tt.want) {
					t.Fatalf("round %d: err = %v, want %v", round, err, tt.want)
				}
				t.Logf("round %d: %v", round, err)
			}
			if tt.mode == fakeengine.ModeSlow {
				// An answer slower than the command timeout kills the engine.
				c2, err := NewClient(fakeConfig(t, tt.mode, tt.env...))
				if err != nil {
					t.Fatal(err)
				}
				defer c2.Close()
				if err := c2.Start(context.Background()); err != nil {
					t.Fatal(err)
				}
				pid := c2.Pid()
				err = untilNotStarved(t, true, slowDelay-50*time.Millisecond, func() error {
					ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
					defer cancel()
					return c2.IsReady(ctx)
				})
				if err == nil {
					return // every try starved: untilNotStarved said so
				}
				if !errors.Is(err, ErrTimeout) || c2.Running() {
					t.Fatalf("slow isready: %v, running %v", err, c2.Running())
				}
				proctest.RequireReaped(t, pid)
			}
		})
	}
	checkClean(t, before)
}

func TestClientCloseInterruptsSearch(t *testing.T) {
	before := runtime.NumGoroutine()
	c := newFake(t, fakeengine.ModeNormal)
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	errc := make(chan error, 1)
	go func() {
		// No deadline at all: only Close can end this.
		_, err := c.Search(context.Background(), Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthHang})
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	probe := stall.Start(pid)
	start := time.Now()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Errorf("interrupted search: %v, want ErrClosed", err)
	}
	// Close must end the hung search itself, within its grace periods (a
	// few hundred milliseconds), not wait as long as a command may take.
	// The bound lies halfway between the two, so that a loaded machine,
	// which delays the process in ways a Probe does not count (starting
	// and reaping a process, page faults), cannot fail it; the command
	// timeout is what a Close that waited would have taken.
	if d, stalled := time.Since(start), probe.Stop(); d > c.cfg.CommandTimeout/2+stall.Allowance(stalled) {
		t.Errorf("Close took %v (%v of it waiting for a CPU): it waited for the hung search instead of ending it", d, stalled)
	}
	proctest.RequireReaped(t, pid)
	checkClean(t, before)
}

func TestClientConcurrentCalls(t *testing.T) {
	before := runtime.NumGoroutine()
	c := newFake(t, fakeengine.ModeNormal)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for j := 0; j < 10; j++ {
				res, err := c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 2, MultiPV: 1 + (i+j)%3})
				if err != nil || len(res.Lines) != 1+(i+j)%3 {
					t.Errorf("search: %+v, %v", res, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if st := c.Stats(); st.Starts != 1 {
		t.Errorf("stats = %+v", st)
	}
	c.Close()
	checkClean(t, before)
}

func TestClientStartErrors(t *testing.T) {
	before := runtime.NumGoroutine()
	if _, err := NewClient(Config{}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("empty path: %v", err)
	}
	c, err := NewClient(Config{Path: "/nonexistent/stockfish", Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); !errors.Is(err, ErrStart) {
		t.Errorf("missing binary: %v, want ErrStart", err)
	}
	c.Close()
	// An option the engine does not declare is a configuration error.
	cfg := fakeConfig(t, fakeengine.ModeNormal)
	cfg.Options = append(cfg.Options, Option{Name: "Bogus", Value: "1"})
	c, err = NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("undeclared option: %v, want ErrInvalidArgument", err)
	}
	c.Close()
	checkClean(t, before)
}

// TestClientDrainsALateStop checks Config.DrainGrace: an engine that
// answers "stop" after StopGrace is kept (the search still returns at
// StopGrace, without a result), and one that does not answer within
// DrainGrace is killed as before; without DrainGrace the late engine is
// killed at StopGrace.
func TestClientDrainsALateStop(t *testing.T) {
	before := runtime.NumGoroutine()
	// The bestmove comes 3 s after "stop", far past StopGrace (100 ms)
	// even when this goroutine is scheduled late on a busy machine.
	cfg := fakeConfig(t, fakeengine.ModeNormal, fakeengine.EnvDelay+"=3s")
	cfg.StopGrace = 100 * time.Millisecond
	cfg.DrainGrace = 30 * time.Second
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	long := func(ctx context.Context) (Result, error) {
		return c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthLateStop})
	}
	wait := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.WaitIdle(ctx); err != nil {
			t.Fatalf("WaitIdle: %v", err)
		}
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	start, probe := time.Now(), stall.Start(pid)
	res, err := long(ctx)
	cancel()
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || res.BestMove != "" || res.Stopped {
		t.Fatalf("late stop: %+v, %v; want no result and ErrTimeout", res, err)
	}
	if d, stalled := time.Since(start), probe.Stop(); d >= 3*time.Second+stall.Allowance(stalled) {
		t.Errorf("the search waited for the late bestmove (%v, %v of it waiting for a CPU)", d, stalled)
	}
	wait()
	if st := c.Stats(); st.Kills != 0 || st.Drained != 1 || c.Pid() != pid || c.Draining() {
		t.Fatalf("after the drain: stats %+v, pid %d (was %d), draining %v; want the engine kept", st, c.Pid(), pid, c.Draining())
	}
	// The kept engine searches again.
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	res, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: 3})
	cancel()
	if err != nil || res.BestMove != "e2e4" || c.Pid() != pid {
		t.Fatalf("search after the drain: %+v, %v (pid %d, was %d)", res, err, c.Pid(), pid)
	}

	// An engine that never answers is killed once DrainGrace has passed.
	c.cfg.DrainGrace = 200 * time.Millisecond
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthHang})
	cancel()
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("hung search: %v", err)
	}
	wait()
	if st := c.Stats(); st.Kills != 1 || c.Running() {
		t.Fatalf("after the hung drain: stats %+v, running %v; want the engine killed", st, c.Running())
	}
	proctest.RequireReaped(t, pid)

	// Without DrainGrace a late engine is killed at StopGrace.
	c.cfg.DrainGrace = 0
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err = long(ctx)
	cancel()
	if !errors.Is(err, ErrTimeout) || c.Draining() || c.Running() || c.Stats().Kills != 2 {
		t.Fatalf("late stop without a drain: %v, draining %v, running %v, stats %+v; want a kill", err, c.Draining(), c.Running(), c.Stats())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	checkClean(t, before)
}

// TestClientCloseEndsADrain checks that Close does not wait DrainGrace for
// an engine that answers "stop" late: it kills it.
func TestClientCloseEndsADrain(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := fakeConfig(t, fakeengine.ModeNormal, fakeengine.EnvDelay+"=20s")
	cfg.StopGrace = 50 * time.Millisecond
	cfg.DrainGrace = time.Minute
	c, err := NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	_, err = c.Search(ctx, Position{FEN: uciStart}, Limits{Depth: fakeengine.DepthLateStop})
	cancel()
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("late stop: %v", err)
	}
	start, probe := time.Now(), stall.Start(pid)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if d, stalled := time.Since(start), probe.Stop(); d > 15*time.Second+stall.Allowance(stalled) {
		t.Errorf("Close took %v (%v of it waiting for a CPU): it waited for the drain", d, stalled)
	}
	proctest.RequireReaped(t, pid)
	checkClean(t, before)
}
