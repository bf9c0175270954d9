package evaluator

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/fakeengine"
	"github.com/blindfish-rbc/blindfish/evaluator/internal/proctest"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// buildFakeEngine compiles the fake engine (package
// internal/fakeengine/cmd/fakeengine) into a temporary directory and returns
// its path. The pool tests do not re-execute their own test binary as the
// engine, as package uci's tests do, because this package's dependencies
// take seconds to initialise under the race detector.
func buildFakeEngine(t *testing.T) string {
	t.Helper()
	// "go test" puts its own toolchain first on the PATH of test binaries.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to build the fake engine: %v", err)
	}
	out := filepath.Join(t.TempDir(), "fakeengine")
	cmd := exec.Command(goBin, "build", "-o", out, "github.com/blindfish-rbc/blindfish/evaluator/internal/fakeengine/cmd/fakeengine")
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		cmd.Dir = filepath.Dir(file) // inside the module even when run from elsewhere
	}
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the fake engine: %v\n%s", err, msg)
	}
	return out
}

// poolTestLogger drops logs unless -v is set.
func poolTestLogger() *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// poolFakeConfig configures a pool of fake engines. CommandTimeout guards a
// hang (the engine's start and handshake included), not speed: a loaded
// machine starts even the fake engine slowly.
func poolFakeConfig(t *testing.T, size int, mode string, env ...string) PoolConfig {
	t.Helper()
	return PoolConfig{
		Path:           buildFakeEngine(t),
		Env:            append([]string{fakeengine.EnvMode + "=" + mode}, env...),
		Size:           size,
		CommandTimeout: stall.StartTimeout,
		StopGrace:      100 * time.Millisecond,
		RestartBackoff: 20 * time.Millisecond,
		Logger:         poolTestLogger(),
	}
}

func newFakePool(t *testing.T, cfg PoolConfig) *Pool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), stall.StartTimeout)
	defer cancel()
	p, err := NewPool(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// poolCheckClean asserts that every engine was reaped and no goroutine
// leaked.
func poolCheckClean(t *testing.T, goroutinesBefore int) {
	t.Helper()
	proctest.RequireNoChildren(t)
	proctest.RequireGoroutines(t, goroutinesBefore)
}

// waitStats waits until the pool's stats satisfy ok. It may wait for
// engines to restart, so it allows what a start may take.
func waitStats(t *testing.T, p *Pool, ok func(PoolStats) bool) {
	t.Helper()
	deadline := time.Now().Add(stall.StartTimeout)
	for !ok(p.Stats()) {
		if time.Now().After(deadline) {
			t.Fatalf("stats never settled: %+v", p.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitEngines waits until all n engines of p run again.
func waitEngines(t *testing.T, p *Pool, n int) {
	t.Helper()
	deadline := time.Now().Add(stall.StartTimeout)
	for len(p.Pids()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("only %d of %d engines running; stats %+v", len(p.Pids()), n, p.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

const poolStartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func TestPoolSearch(t *testing.T) {
	before := runtime.NumGoroutine()
	p := newFakePool(t, poolFakeConfig(t, 3, fakeengine.ModeNormal))
	if p.Size() != 3 || len(p.Pids()) != 3 {
		t.Fatalf("size %d, pids %v", p.Size(), p.Pids())
	}
	ctx, cancel := stall.WithTimeout(context.Background(), 5*time.Second, p.Pids()...)
	defer cancel()
	res, err := p.Search(ctx, uci.Position{FEN: poolStartFEN}, uci.Limits{Depth: 4, MultiPV: 2})
	if err != nil || res.BestMove != "e2e4" || len(res.Lines) != 2 || res.Depth != 4 {
		t.Fatalf("Search = %+v, %v", res, err)
	}
	// Concurrent callers beyond the pool size wait for a free engine.
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := p.Search(ctx, uci.Position{}, uci.Limits{Depth: 3, SearchMoves: []string{"g1f3"}})
			if err != nil || res.BestMove != "g1f3" {
				t.Errorf("concurrent Search = %+v, %v", res, err)
			}
		}()
	}
	wg.Wait()
	jobs := make([]Job, 40)
	for i := range jobs {
		jobs[i] = Job{FEN: poolStartFEN, Moves: []string{"e2e4"}, Limits: uci.Limits{Depth: 1 + i%5}}
	}
	for i, r := range p.SearchBatch(ctx, jobs) {
		if r.Status != JobDone || r.Err != nil || !r.Usable() || r.Depth != 1+i%5 || r.Engine < 0 {
			t.Errorf("job %d: %+v", i, r)
		}
	}
	if got := p.SearchBatch(ctx, nil); len(got) != 0 {
		t.Errorf("empty batch: %v", got)
	}
	st := p.Stats()
	if st.Searches != 53 || st.Done != 53 || st.Failed != 0 || st.Kills != 0 || st.Restarts != 0 {
		t.Errorf("stats = %+v", st)
	}
	p.Close()
	// Each engine's peak memory was read as it stopped; the pool adds them
	// up (three fake engines: small Go programs of a few MB each).
	if runtime.GOOS == "linux" {
		var one int64
		for _, e := range p.engines {
			one = max(one, e.client.Stats().PeakRSS)
		}
		if peak := p.EnginesPeakRSS(); one <= 0 || peak < 3*one/2 || peak > 3*one {
			t.Errorf("engines' peak %d bytes, the largest engine's %d", peak, one)
		}
	}
	if _, err := p.Search(ctx, uci.Position{}, uci.Limits{Depth: 1}); !errors.Is(err, ErrPoolClosed) {
		t.Errorf("Search after Close: %v", err)
	}
	for _, r := range p.SearchBatch(ctx, jobs[:2]) {
		if r.Status != JobFailed || !errors.Is(r.Err, ErrPoolClosed) {
			t.Errorf("batch after Close: %+v", r)
		}
	}
	poolCheckClean(t, before)
}

// TestPoolRecovers mixes every engine failure into batches and checks that
// the pool reports each one, restarts the engines, and carries on.
func TestPoolRecovers(t *testing.T) {
	before := runtime.NumGoroutine()
	p := newFakePool(t, poolFakeConfig(t, 2, fakeengine.ModeNormal))
	defer p.Close()
	normal := Job{FEN: poolStartFEN, Limits: uci.Limits{Depth: 3}}
	for round := 0; round < 3; round++ {
		oldPids := p.Pids()
		jobs := []Job{
			normal,
			{FEN: poolStartFEN, Limits: uci.Limits{Depth: fakeengine.DepthDie}},
			normal,
			{FEN: poolStartFEN, Limits: uci.Limits{Depth: fakeengine.DepthGarbage}},
			normal,
			{FEN: poolStartFEN, Limits: uci.Limits{Depth: fakeengine.DepthHang}},
			normal,
		}
		// The batch's deadline (which ends the hung job) is three seconds
		// of the time the engines and this process could run: on a starved
		// machine the normal jobs get the time it withheld. The probe
		// counts only the engines of the round's start, not the two that
		// restart within it (after the die and the garbage) and take the
		// later jobs: at a second, a race pass at nice 19 beside two busy
		// processes ran out of it before the jobs had run.
		ctx, cancel := stall.WithTimeout(context.Background(), 3*time.Second, oldPids...)
		start := time.Now()
		res := p.SearchBatch(ctx, jobs)
		cancel()
		t.Logf("round %d: the batch took %v", round, time.Since(start).Round(time.Millisecond))
		want := []struct {
			status JobStatus
			err    error
		}{
			{JobDone, nil}, {JobFailed, uci.ErrEngineDied}, {JobDone, nil}, {JobFailed, uci.ErrProtocol},
			{JobDone, nil}, {JobUnfinished, ErrUnfinished}, {JobDone, nil},
		}
		for i, w := range want {
			r := res[i]
			if r.Status != w.status || (w.err == nil) != (r.Err == nil) || (w.err != nil && !errors.Is(r.Err, w.err)) {
				t.Errorf("round %d job %d: status %v err %v; want %v %v", round, i, r.Status, r.Err, w.status, w.err)
			}
		}
		if !errors.Is(res[5].Err, uci.ErrTimeout) || !errors.Is(res[5].Err, context.DeadlineExceeded) {
			t.Errorf("hung job error %v does not wrap uci.ErrTimeout and context.DeadlineExceeded", res[5].Err)
		}
		// The hung engine is killed StopGrace after the deadline, after
		// SearchBatch returned; wait for all three kills and restarts.
		n := int64(3 * (round + 1))
		waitStats(t, p, func(s PoolStats) bool { return s.Kills == n && s.Restarts == n && s.Timeouts == int64(round+1) })
		waitEngines(t, p, 2)
		// Each engine the pool replaced was reaped. Which engines meet the
		// three failures depends on timing: on a starved machine an engine
		// restarted within the round may take a later failure, and one of
		// the round's first engines may meet none and run on.
		replaced := 0
		for _, pid := range oldPids {
			if !slices.Contains(p.Pids(), pid) {
				proctest.RequireReaped(t, pid)
				replaced++
			}
		}
		if replaced == 0 {
			t.Errorf("round %d: no engine of the round's start was replaced (pids %v, now %v)", round, oldPids, p.Pids())
		}
	}
	// The pool is healthy again.
	ctx, cancel := stall.WithTimeout(context.Background(), 5*time.Second, p.Pids()...)
	defer cancel()
	jobs := make([]Job, 20)
	for i := range jobs {
		jobs[i] = normal
	}
	for i, r := range p.SearchBatch(ctx, jobs) {
		if r.Status != JobDone {
			t.Errorf("after recovery, job %d: %+v", i, r)
		}
	}
	st := p.Stats()
	t.Logf("stats: %+v", st)
	if st.Crashes != 3 || st.ProtocolErrors != 3 || st.Timeouts != 3 || st.Kills != 9 || st.Restarts != 9 ||
		st.Done != 32 || st.Failed != 6 || st.Unfinished != 3 {
		t.Errorf("stats = %+v", st)
	}
	p.Close()
	poolCheckClean(t, before)
}

// lateSlack is the margin the timing checks allow on top of the designed
// lateness and of the time the process and its engines waited for a CPU
// (stall.Allowance). On an idle machine SearchBatch returns 1–5 ms
// after its deadline (see the test log); the rest of the margin is for the
// work the return itself needs, which a loaded machine gives little CPU.
// The check still proves the point: the jobs themselves would take 10 s or
// forever, and the statuses show that they were stopped.
const lateSlack = 250 * time.Millisecond

// TestPoolBatchDeadline checks that SearchBatch returns at its deadline with
// what has finished, stopped searches kept and the rest marked unfinished.
func TestPoolBatchDeadline(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := poolFakeConfig(t, 2, fakeengine.ModeNormal)
	// Generous grace periods, so that the stops are seen even on a loaded
	// machine under the race detector (SearchBatch returns as soon as the
	// stopped searches have answered; the searches would run 10 s).
	cfg.StopGrace = time.Second
	cfg.BatchGrace = 2 * time.Second
	p := newFakePool(t, cfg)
	defer p.Close()

	// runBatch runs jobs with the given budget and checks that SearchBatch
	// returned no later than grace after the deadline, plus lateSlack, plus
	// the time the process and its engines waited for a CPU meanwhile.
	runBatch := func(what string, jobs []Job, budget, grace time.Duration) []JobResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), budget)
		defer cancel()
		probe := stall.Start(p.Pids()...)
		res := p.SearchBatch(ctx, jobs)
		dl, _ := ctx.Deadline()
		late, stalled := time.Since(dl), probe.Stop()
		t.Logf("%s: returned %v after the deadline; the process and its engines waited %v for a CPU", what, late, stalled)
		if late > grace+lateSlack+stall.Allowance(stalled) {
			t.Errorf("%s: SearchBatch returned %v after its deadline (grace %v), having waited only %v for a CPU", what, late, grace, stalled)
		}
		return res
	}

	// Long (stoppable) searches: the two running ones are stopped and kept.
	jobs := make([]Job, 6)
	for i := range jobs {
		jobs[i] = Job{FEN: poolStartFEN, Limits: uci.Limits{Depth: fakeengine.DepthLong}}
	}
	// A second for both engines to be given their search before the
	// deadline: at nice 19 beside a load of 30, 200 ms was not enough.
	res := runBatch("long searches", jobs, time.Second, cfg.BatchGrace)
	stopped := 0
	for i, r := range res {
		switch r.Status {
		case JobStopped:
			stopped++
			if !r.Usable() || r.BestMove != "e2e4" || !errors.Is(r.Err, uci.ErrTimeout) || !r.Stopped {
				t.Errorf("stopped job %d: %+v", i, r)
			}
		case JobUnfinished:
			if !errors.Is(r.Err, ErrUnfinished) || !errors.Is(r.Err, context.DeadlineExceeded) || r.Usable() {
				t.Errorf("unfinished job %d: %+v", i, r)
			}
		default:
			t.Errorf("job %d: %+v", i, r)
		}
	}
	// One per engine, each engine handed its search before the deadline
	// (on a starved machine one may not be, and its job is unfinished).
	handed := p.Stats().Searches
	if handed < 1 || int64(stopped) != handed {
		t.Errorf("%d stopped jobs, %d searches handed to the 2 engines; want one stopped per search, at least one", stopped, handed)
	}
	if st := p.Stats(); st.Kills != 0 || st.Stopped != handed || st.Unfinished != int64(len(jobs))-handed {
		t.Errorf("graceful stops must keep the engines: %+v", st)
	}

	// From here on, the default grace: SearchBatch returns a few ms after
	// the deadline.
	p.cfg.BatchGrace = DefaultBatchGrace

	// Hung engines: the batch still returns on time; the engines that
	// took a search are killed (after StopGrace, in the background) and
	// replaced. On a starved machine an engine may be handed no search
	// before the 200 ms deadline, and is then kept: the batch is run again
	// (up to 10 times) until at least one was.
	pids := p.Pids()
	for i := range jobs {
		jobs[i].Limits.Depth = fakeengine.DepthHang
	}
	was := p.Stats()
	var hung int64
	for try := 1; hung == 0; try++ {
		if try > 10 {
			t.Fatalf("no engine was handed a search in 10 batches of 200 ms: %+v", p.Stats())
		}
		res = runBatch("hung engines", jobs, 200*time.Millisecond, DefaultBatchGrace)
		for i, r := range res {
			if r.Status != JobUnfinished {
				t.Errorf("hung job %d: %+v", i, r)
			}
		}
		hung = p.Stats().Searches - was.Searches
	}
	waitStats(t, p, func(s PoolStats) bool { return s.Kills == was.Kills+hung && s.Restarts == was.Restarts+hung })
	waitEngines(t, p, 2)
	replaced := 0
	for _, pid := range pids {
		if !slices.Contains(p.Pids(), pid) {
			proctest.RequireReaped(t, pid)
			replaced++
		}
	}
	if int64(replaced) != hung {
		t.Errorf("%d engines replaced, want the %d that took a hung search", replaced, hung)
	}

	// Stoppable searches again, default grace.
	for i := range jobs {
		jobs[i].Limits.Depth = fakeengine.DepthLong
	}
	res = runBatch("long searches, default grace", jobs, 100*time.Millisecond, DefaultBatchGrace)
	t.Logf("statuses of the running jobs: %v %v", res[0].Status, res[1].Status)

	p.Close()
	poolCheckClean(t, before)
}

// TestPoolMaxSearchTime checks the safety net for callers without a
// deadline.
func TestPoolMaxSearchTime(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := poolFakeConfig(t, 1, fakeengine.ModeNormal)
	cfg.MaxSearchTime = 100 * time.Millisecond
	p := newFakePool(t, cfg)
	_, err := p.Search(context.Background(), uci.Position{}, uci.Limits{Depth: fakeengine.DepthHang})
	if !errors.Is(err, uci.ErrTimeout) {
		t.Fatalf("hung search without deadline: %v", err)
	}
	res, err := p.Search(context.Background(), uci.Position{}, uci.Limits{Depth: 2})
	if err != nil || res.BestMove != "e2e4" {
		t.Fatalf("after MaxSearchTime: %+v, %v", res, err)
	}
	if st := p.Stats(); st.Failed != 1 || st.Timeouts != 1 || st.Restarts != 1 {
		t.Errorf("stats = %+v", st)
	}
	p.Close()
	poolCheckClean(t, before)
}

// TestPoolRestartBackoff makes restarts fail for a while and checks that
// the pool keeps trying and recovers.
func TestPoolRestartBackoff(t *testing.T) {
	before := runtime.NumGoroutine()
	flag := filepath.Join(t.TempDir(), "fail-starts")
	p := newFakePool(t, poolFakeConfig(t, 1, fakeengine.ModeNormal, fakeengine.EnvExitIfExists+"="+flag))
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := p.Search(context.Background(), uci.Position{}, uci.Limits{Depth: fakeengine.DepthDie})
	if !errors.Is(err, uci.ErrEngineDied) {
		t.Fatalf("die: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for p.Stats().RestartFailures < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("no restart failures: %+v", p.Stats())
		}
		time.Sleep(5 * time.Millisecond)
	}
	// While the only engine is down, a search waits and times out.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	_, err = p.Search(ctx, uci.Position{}, uci.Limits{Depth: 2})
	cancel()
	if !errors.Is(err, uci.ErrTimeout) {
		t.Errorf("search while the engine is down: %v", err)
	}
	os.Remove(flag)
	ctx, cancel = stall.WithTimeout(context.Background(), 5*time.Second, p.Pids()...)
	defer cancel()
	res, err := p.Search(ctx, uci.Position{}, uci.Limits{Depth: 2})
	if err != nil || res.BestMove != "e2e4" {
		t.Fatalf("after restarts succeed again: %+v, %v", res, err)
	}
	if st := p.Stats(); st.Restarts != 1 {
		t.Errorf("stats = %+v", st)
	}
	p.Close()
	poolCheckClean(t, before)
}

// TestPoolCloseInterrupts closes the pool under hung searches without
// deadlines and while an engine is being restarted.
func TestPoolCloseInterrupts(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := poolFakeConfig(t, 2, fakeengine.ModeNormal)
	cfg.MaxSearchTime = -1
	p := newFakePool(t, cfg)
	pids := p.Pids()
	done := make(chan []JobResult, 1)
	go func() {
		jobs := []Job{
			{Limits: uci.Limits{Depth: fakeengine.DepthHang}},
			{Limits: uci.Limits{Depth: fakeengine.DepthHang}},
			{Limits: uci.Limits{Depth: 1}},
		}
		done <- p.SearchBatch(context.Background(), jobs)
	}()
	time.Sleep(100 * time.Millisecond)
	probe := stall.Start(pids...)
	start := time.Now()
	p.Close()
	// The searches would never end by themselves: Close must end them
	// within its grace periods (milliseconds on an idle machine). The bound
	// is loose because a loaded machine delays killing and reaping the
	// engines in ways a Probe does not count (an engine that ended is no
	// longer probed); the wait for a CPU it did count comes on top.
	if d, stalled := time.Since(start), probe.Stop(); d > 10*time.Second+stall.Allowance(stalled) {
		t.Errorf("Close took %v (%v of it waiting for a CPU)", d, stalled)
	}
	for i, r := range <-done {
		if r.Status != JobFailed || (!errors.Is(r.Err, uci.ErrClosed) && !errors.Is(r.Err, ErrPoolClosed)) {
			t.Errorf("job %d after Close: %+v", i, r)
		}
	}
	for _, pid := range pids {
		proctest.RequireReaped(t, pid)
	}
	poolCheckClean(t, before)
}

func TestPoolStartFailure(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, mode := range []string{fakeengine.ModeExit, fakeengine.ModeSilent} {
		cfg := poolFakeConfig(t, 2, mode)
		cfg.CommandTimeout = 200 * time.Millisecond
		p, err := NewPool(context.Background(), cfg)
		if err == nil {
			p.Close()
			t.Fatalf("%s: NewPool succeeded", mode)
		}
		t.Logf("%s: %v", mode, err)
	}
	if _, err := NewPool(context.Background(), PoolConfig{}); !errors.Is(err, uci.ErrInvalidArgument) {
		t.Errorf("empty config: %v", err)
	}
	poolCheckClean(t, before)
}

// TestPoolKeepsAnEngineThatStopsLate checks the pool's DrainGrace: an
// engine that answers "stop" late is neither killed nor handed a search
// before it has answered; it comes back to the pool as it was.
func TestPoolKeepsAnEngineThatStopsLate(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := poolFakeConfig(t, 1, fakeengine.ModeNormal, fakeengine.EnvDelay+"=2s")
	cfg.DrainGrace = 30 * time.Second
	p := newFakePool(t, cfg)
	defer p.Close()
	pids := p.Pids()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	res, err := p.Search(ctx, uci.Position{FEN: poolStartFEN}, uci.Limits{Depth: fakeengine.DepthLateStop})
	cancel()
	if !errors.Is(err, uci.ErrTimeout) || res.BestMove != "" {
		t.Fatalf("late stop: %+v, %v; want no result and a timeout", res, err)
	}
	// The next search waits for the drain, then runs on the same engine.
	ctx, cancel = context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err = p.Search(ctx, uci.Position{FEN: poolStartFEN}, uci.Limits{Depth: 3})
	if err != nil || res.BestMove != "e2e4" {
		t.Fatalf("search after the late stop: %+v, %v", res, err)
	}
	st := p.Stats()
	if st.Drained != 1 || st.Kills != 0 || st.Restarts != 0 || !slices.Equal(p.Pids(), pids) {
		t.Errorf("stats %+v, pids %v (were %v); want the engine drained and kept", st, p.Pids(), pids)
	}
	p.Close()
	poolCheckClean(t, before)
}
