package evaluator

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/proctest"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// poolCrashFEN makes Stockfish 15.1 crash (most of the time): the side to
// move can capture the enemy king.
const poolCrashFEN = "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1"

func newStockfishPool(t *testing.T, size int) *Pool {
	t.Helper()
	path := stockfishtest.Path(t)
	// The engines' start is bounded by their CommandTimeout, which a
	// starved machine extends (uci.Config); this guards a hang only.
	ctx, cancel := context.WithTimeout(context.Background(), 2*stall.StartTimeout)
	defer cancel()
	p, err := NewPool(ctx, PoolConfig{Path: path, Size: size, RestartBackoff: 10 * time.Millisecond, Logger: poolTestLogger()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPoolStockfishBatch(t *testing.T) {
	before := runtime.NumGoroutine()
	p := newStockfishPool(t, 2)
	defer p.Close()
	// A guard against a hang: the batch's searches are bounded by the
	// pool's own MaxSearchTime, and a starved machine may take minutes.
	ctx, cancel := context.WithTimeout(context.Background(), stall.StartTimeout)
	defer cancel()
	jobs := make([]Job, len(poolBenchFENs))
	for i, fen := range poolBenchFENs {
		jobs[i] = Job{FEN: fen, Limits: uci.Limits{Depth: 8}}
	}
	start := time.Now()
	res := p.SearchBatch(ctx, jobs)
	t.Logf("%d positions at depth 8 on 2 engines in %v", len(jobs), time.Since(start))
	for i, r := range res {
		if r.Status != JobDone || !r.HasMove() || r.Depth < 8 || r.Score().Kind == uci.ScoreNone || r.Lines[0].PV[0] != r.BestMove {
			t.Errorf("position %d (%s): %+v", i, poolBenchFENs[i], r)
		}
	}

	// A deadline far shorter than the work: the batch returns on time, the
	// running searches are stopped, nothing is killed.
	for i := range jobs {
		jobs[i].Limits.Depth = 40
	}
	const budget = 300 * time.Millisecond
	dctx, dcancel := context.WithTimeout(ctx, budget)
	probe := stall.Start(p.Pids()...)
	start = time.Now()
	res = p.SearchBatch(dctx, jobs)
	elapsed, stalled := time.Since(start), probe.Stop()
	dcancel()
	// A few ms late at most on an idle machine; see lateSlack.
	if elapsed > budget+lateSlack+stall.Allowance(stalled) {
		t.Errorf("deadline batch returned after %v (the machine withheld %v)", elapsed, stalled)
	}
	counts := map[JobStatus]int{}
	for i, r := range res {
		counts[r.Status]++
		if r.Status == JobFailed || r.Status == JobDone {
			t.Errorf("deadline job %d: %+v", i, r)
		}
	}
	t.Logf("deadline batch: returned after %v; %v", elapsed, counts)
	waitStats(t, p, func(s PoolStats) bool { return s.Stopped+s.Unfinished >= int64(len(jobs)) })
	if st := p.Stats(); st.Kills != 0 || st.Restarts != 0 {
		t.Errorf("stats = %+v", st)
	}
	p.Close()
	poolCheckClean(t, before)
}

// TestPoolStockfishCrash puts positions that crash Stockfish among normal
// ones and checks that only those jobs fail and the pool recovers.
func TestPoolStockfishCrash(t *testing.T) {
	before := runtime.NumGoroutine()
	p := newStockfishPool(t, 2)
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), stall.StartTimeout) // a guard against a hang
	defer cancel()
	var jobs []Job
	for i := 0; i < 6; i++ {
		jobs = append(jobs, Job{FEN: poolBenchFENs[i], Limits: uci.Limits{Depth: 6}}, Job{FEN: poolCrashFEN, Limits: uci.Limits{Depth: 6}})
	}
	res := p.SearchBatch(ctx, jobs)
	crashes := 0
	for i, r := range res {
		switch {
		case jobs[i].FEN == poolCrashFEN && r.Status == JobFailed && errors.Is(r.Err, uci.ErrEngineDied):
			crashes++
		case jobs[i].FEN == poolCrashFEN && r.Status == JobDone:
			// Stockfish survives this position now and then.
		case r.Status != JobDone:
			t.Errorf("job %d: %+v", i, r)
		}
	}
	if crashes == 0 {
		t.Skip("Stockfish never crashed on the king-capture position")
	}
	st := p.Stats()
	t.Logf("%d crashes; stats %+v", crashes, st)
	if st.Crashes != int64(crashes) || st.Kills != int64(crashes) {
		t.Errorf("stats = %+v", st)
	}
	waitStats(t, p, func(s PoolStats) bool { return s.Restarts == int64(crashes) })
	waitEngines(t, p, 2)
	for i, r := range p.SearchBatch(ctx, jobs[:1]) {
		if r.Status != JobDone {
			t.Errorf("after crashes, job %d: %+v", i, r)
		}
	}
	p.Close()
	proctest.RequireNoChildren(t)
	poolCheckClean(t, before)
}
