package uci

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/proctest"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// newStockfish returns a client for Stockfish with generous timeouts: a
// loaded machine starts it and has it answer "stop" slowly, and the tests
// that use it check behaviour, not speed.
func newStockfish(t *testing.T) *Client {
	t.Helper()
	c, err := NewClient(Config{
		Path:           stockfishtest.Path(t),
		Options:        []Option{{Name: "Threads", Value: "1"}, {Name: "Hash", Value: "16"}},
		CommandTimeout: stall.StartTimeout,
		StopGrace:      10 * time.Second,
		Logger:         quietLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// crashFEN makes Stockfish 15.1 crash: the side to move can capture the
// enemy king (Qh5xe8 through the open diagonal).
const crashFEN = "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1"

func TestStockfish(t *testing.T) {
	before := runtime.NumGoroutine()
	c := newStockfish(t)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*stall.StartTimeout)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if id := c.ID(); len(id.Name) < 9 || id.Name[:9] != "Stockfish" {
		t.Errorf("ID = %+v", id)
	}
	if _, ok := c.Options()["multipv"]; !ok {
		t.Errorf("no MultiPV option declared: %v", c.Options())
	}
	if err := c.NewGame(ctx); err != nil {
		t.Fatal(err)
	}
	const middlegame = "r1bq1rk1/p1pnbppp/1p2pn2/3p4/3P4/P1N1PN2/1PP1BPPP/R1BQ1RK1 w - - 0 9"

	res, err := c.Search(ctx, Position{FEN: middlegame}, Limits{Depth: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !res.HasMove() || res.Depth < 8 || res.Score().Kind != ScoreCP || len(res.Lines[0].PV) == 0 || res.Nodes == 0 {
		t.Errorf("depth 8: %+v", res)
	}

	res, err = c.Search(ctx, Position{FEN: middlegame}, Limits{Depth: 6, MultiPV: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Lines) != 3 {
		t.Fatalf("multipv 3: %d lines", len(res.Lines))
	}
	seen := map[string]bool{}
	for _, l := range res.Lines {
		seen[l.PV[0]] = true
	}
	if len(seen) != 3 || res.Lines[0].PV[0] != res.BestMove {
		t.Errorf("multipv 3 lines: %+v, best %s", res.Lines, res.BestMove)
	}

	res, err = c.Search(ctx, Position{Moves: []string{"e2e4", "e7e5"}}, Limits{Depth: 6, SearchMoves: []string{"a2a3"}})
	if err != nil || res.BestMove != "a2a3" || len(res.Lines) != 1 {
		t.Errorf("searchmoves: %+v, %v", res, err)
	}

	res, err = c.Search(ctx, Position{FEN: middlegame}, Limits{Nodes: 1000})
	if err != nil || !res.HasMove() {
		t.Errorf("nodes 1000: %+v, %v", res, err)
	}
	// movetime is the engine's own clock: it must end the search without a
	// stop, well before the StopGrace a stop would take.
	probe := stall.Start(c.Pid())
	start := time.Now()
	res, err = c.Search(ctx, Position{FEN: middlegame}, Limits{MoveTime: 50 * time.Millisecond})
	took, stalled := time.Since(start), probe.Stop()
	if err != nil || !res.HasMove() || res.Stopped || took > time.Second+stall.Allowance(stalled) {
		t.Errorf("movetime 50ms: %+v, %v after %v (%v waiting for a CPU)", res, err, took, stalled)
	}

	// Mate in one for White: the score says so.
	res, err = c.Search(ctx, Position{FEN: "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"}, Limits{Depth: 6})
	if err != nil || res.BestMove != "a1a8" || res.Score() != (Score{Kind: ScoreMate, Value: 1}) {
		t.Errorf("mate in 1: %+v, %v", res, err)
	}
	// Checkmated and stalemated sides get "bestmove (none)".
	res, err = c.Search(ctx, Position{FEN: "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"}, Limits{Depth: 6})
	if err != nil || res.BestMove != NoMove || res.Score() != (Score{Kind: ScoreMate, Value: 0}) {
		t.Errorf("mated: %+v, %v", res, err)
	}
	res, err = c.Search(ctx, Position{FEN: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"}, Limits{Depth: 6})
	if err != nil || res.BestMove != NoMove || res.Score() != (Score{Kind: ScoreCP, Value: 0}) {
		t.Errorf("stalemate: %+v, %v", res, err)
	}

	// A deadline ends a deep search gracefully; the engine is kept. Without
	// the deadline a depth-60 search runs until the test's context ends.
	pid := c.Pid()
	sctx, scancel := context.WithTimeout(ctx, 150*time.Millisecond)
	probe = stall.Start(pid)
	res, err = c.Search(sctx, Position{FEN: middlegame}, Limits{Depth: 60})
	dl, _ := sctx.Deadline()
	late, stalled := time.Since(dl), probe.Stop()
	scancel()
	if !errors.Is(err, ErrTimeout) || !res.Stopped || !res.HasMove() || c.Pid() != pid {
		t.Errorf("deadline: %+v, %v, pid %d (was %d)", res, err, c.Pid(), pid)
	}
	// A few ms late on an idle machine; the margin is for the engine's
	// answer to "stop" and the client's return, which a loaded machine
	// delays by about the time they waited for a CPU.
	t.Logf("deadline search returned %v after its deadline; the test and Stockfish waited %v for a CPU", late, stalled)
	if late > 500*time.Millisecond+stall.Allowance(stalled) {
		t.Errorf("deadline search returned %v after its deadline, having waited only %v for a CPU", late, stalled)
	}
	t.Logf("stopped at depth %d after %v", res.Depth, res.Elapsed)

	if st := c.Stats(); st.Starts != 1 || st.Kills != 0 {
		t.Errorf("stats = %+v", st)
	}
	c.Close()
	proctest.RequireReaped(t, pid)
	checkClean(t, before)
}

// TestStockfishCrashRecovery feeds Stockfish a position that crashes it
// and checks that the client reports the crash and recovers.
func TestStockfishCrashRecovery(t *testing.T) {
	before := runtime.NumGoroutine()
	c := newStockfish(t)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*stall.StartTimeout)
	defer cancel()
	crashed := false
	for try := 0; try < 5 && !crashed; try++ {
		if err := c.Start(ctx); err != nil {
			t.Fatal(err)
		}
		pid := c.Pid()
		_, err := c.Search(ctx, Position{FEN: crashFEN}, Limits{Depth: 8})
		if err == nil {
			continue // it survives about one time in three
		}
		if !errors.Is(err, ErrEngineDied) {
			t.Fatalf("crash: %v, want ErrEngineDied", err)
		}
		t.Logf("crash reported as: %v", err)
		crashed = true
		proctest.RequireReaped(t, pid)
	}
	if !crashed {
		t.Skip("Stockfish did not crash on the king-capture position in 5 tries")
	}
	res, err := c.Search(ctx, Position{}, Limits{Depth: 6})
	if err != nil || !res.HasMove() {
		t.Fatalf("after crash: %+v, %v", res, err)
	}
	if st := c.Stats(); st.Kills == 0 || st.Starts < 2 {
		t.Errorf("stats = %+v", st)
	}
	c.Close()
	checkClean(t, before)
}
