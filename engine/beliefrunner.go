package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/sampler"
)

// BeliefFactory makes a belief by sampler name with the options the player
// chose for it (seed, logger, memory budget, pool size). sampler.New is
// one; Options.NewBelief takes another.
type BeliefFactory func(name string, opts sampler.Options) (sampler.Sampler, error)

// beliefRunner keeps a player's belief up to date without ever making a
// callback wait for it past its budget. It owns the belief and everything
// that runs on it in the background:
//
//   - the observations of the game (history) and those the belief has not
//     applied yet (pending), applied in order, each on its own goroutine
//     under the runner's background context, so that a budget that runs out
//     leaves the update going on (through the opponent's thinking time)
//     rather than the callback waiting;
//   - the work in flight on the belief: that update, or a decision the
//     player stopped waiting for (hold); the next flush waits for it before
//     anything else touches the belief;
//   - failover: a belief that keeps missing its deadlines is replaced by a
//     cheaper one (fallbackSamplers) fed the same history, and the old one is
//     closed in the background (retired), which close waits for;
//   - the stand-in, a small belief fed every observation at once, whose
//     boards the player's safe choices use while the belief is behind.
//
// It belongs to one player and is used on its callbacks' goroutine only.
type beliefRunner struct {
	sampler string // the first belief's sampler name (Config.Sampler)
	budget  int    // Config.MemoryMB: the memory budget asked for (0: from the clock)
	pool    int    // Config.Pool
	seed    int64
	factory BeliefFactory
	log     *slog.Logger
	// memoryMB is the exact belief's memory budget, set when it is made.
	memoryMB int

	belief  sampler.Sampler
	standIn *standIn
	pending []pendingObservation
	// history holds every observation of the game, so that a belief that
	// falls behind can be replaced by a cheaper one fed the same game.
	history []pendingObservation
	// inflight is the work at the head of pending while it runs in the
	// background (or a decision still running, see hold); bg is the
	// context of the updates, cancelled by close.
	inflight *inflight
	bg       context.Context
	stopBG   context.CancelFunc
	// retired has an entry per belief that failover is closing in the
	// background, whose done is closed once it is closed; close waits for
	// them.
	retired    []*retiredBelief
	lateStreak int // consecutive belief updates that missed their deadline
	closed     bool

	counts beliefCounts
}

// beliefCounts is what a beliefRunner counted over the game (PlayerStats
// has the meaning of each).
type beliefCounts struct {
	late, held, failovers int
	peakMB                int
}

// pendingObservation is a belief update not applied yet.
type pendingObservation struct {
	name  string
	apply func(ctx context.Context, s sampler.Sampler) error
}

// inflight is work on the belief running in the background: a belief
// update, or a decision answered without it (decide).
type inflight struct {
	name     string
	done     chan error
	decision bool
}

// retiredBelief is a belief failover is closing in the background: done is
// closed once it is, and peak (its boards' peak memory) is set before.
type retiredBelief struct {
	done chan struct{}
	peak int64
}

// failoverStreak is how many belief updates in a row may miss their
// deadline (about a turn's worth of callbacks) before the belief is replaced.
const failoverStreak = 5

// fallbackSamplers returns the beliefs a player falls back to, in order,
// when its belief cannot keep up with the clock: both replay a game in
// milliseconds (a pool of boards, or boards drawn from the latest
// observations).
func fallbackSamplers() []string { return []string{"hybrid", "los"} }

// closeWait bounds how long close waits for background work on beliefs: an
// update still running, and beliefs abandoned by failover being closed.
var closeWait = 5 * time.Second

// newBeliefRunner returns a runner whose belief, made at the first ensure,
// is the sampler name with the memory budget memoryMB (0: from the clock)
// and pool size pool, made by factory (nil: sampler.New). It logs to log
// until begin.
func newBeliefRunner(name string, memoryMB, pool int, seed int64, factory BeliefFactory, log *slog.Logger) *beliefRunner {
	if factory == nil {
		factory = sampler.New
	}
	r := &beliefRunner{sampler: name, budget: memoryMB, pool: pool, seed: seed, factory: factory, log: log}
	r.bg, r.stopBG = context.WithCancel(context.Background())
	return r
}

// begin starts the game: the runner logs to log from now on, and the
// stand-in starts (it takes the observations from here).
func (r *beliefRunner) begin(log *slog.Logger) {
	r.log = log
	r.standIn = newStandIn(r.seed, log)
}

// current returns the belief, or nil before ensure made it.
func (r *beliefRunner) current() sampler.Sampler { return r.belief }

// enqueue records an observation and queues it for the belief; the
// stand-in applies it at once.
func (r *beliefRunner) enqueue(name string, apply func(context.Context, sampler.Sampler) error) {
	o := pendingObservation{name, apply}
	r.history = append(r.history, o)
	r.pending = append(r.pending, o)
	r.standIn.observe(name, apply)
}

// ensure makes the configured belief, sized for a clock that started at
// about left, unless it exists or the runner is closed.
func (r *beliefRunner) ensure(left time.Duration) {
	if r.belief != nil || r.closed {
		return
	}
	r.memoryMB = r.budget
	if r.memoryMB <= 0 {
		r.memoryMB = memoryFor(left)
	}
	b, err := r.newBelief(r.sampler)
	if err != nil { // the name was checked by NewBlindfish
		r.log.Error("cannot make the belief", "sampler", r.sampler, "err", err)
		return
	}
	r.belief = b
	r.log.Debug("belief made", "sampler", b.Name(), "memory MB", r.memoryMB)
}

// newBelief makes a belief by sampler name with the runner's options (its
// callers log the error with the name).
func (r *beliefRunner) newBelief(name string) (sampler.Sampler, error) {
	return r.factory(name, r.samplerOptions())
}

// samplerOptions are the options every belief of the runner is made with.
func (r *beliefRunner) samplerOptions() sampler.Options {
	opts := sampler.Options{Seed: uint64(r.seed), Logger: r.log, PoolSize: r.pool}
	if r.memoryMB > 0 {
		opts.MemoryBudget = int64(r.memoryMB) << 20
		// Replay at most a sixteenth of the budget's boards per update (16
		// times that while the live set is empty): about a second at most.
		opts.MaxReplay = max(r.memoryMB<<20/70/16, 1<<14)
	}
	return opts
}

// flush applies the queued belief updates in order within budget and
// reports whether the belief is up to date.
//
// Each update runs on its own goroutine under the runner's background
// context, not the caller's: when the budget runs out the callback returns
// at once (a belief that is slow to notice a deadline cannot flag us), while
// the update goes on in the background, through the opponent's thinking
// time, and the next flush waits for it before anything else touches the
// belief. Nothing queries the belief while an update is in flight.
func (r *beliefRunner) flush(ctx context.Context, budget time.Duration) bool {
	if r.belief == nil {
		return false
	}
	timer := time.NewTimer(max(budget, 0))
	defer timer.Stop()
	for len(r.pending) > 0 || r.inflight != nil {
		if r.inflight == nil {
			r.start(r.pending[0])
		}
		select {
		case err := <-r.inflight.done:
			if r.inflight.decision {
				// A decision answered without it has finished: the belief
				// is free for the updates.
				r.inflight = nil
				continue
			}
			if err != nil {
				// The belief rejected it (it recovers by itself from bad
				// observations), or the game is being closed; repeating it
				// gains nothing.
				r.log.Error("belief update failed; dropped", "update", r.inflight.name, "err", err)
			}
			r.inflight = nil
			r.pending = r.pending[1:]
		case <-timer.C:
			r.late("budget spent")
			return false
		case <-ctx.Done():
			r.late(context.Cause(ctx).Error())
			return false
		}
	}
	r.lateStreak = 0
	return true
}

// start runs observation o on the belief in the background as the work in
// flight.
func (r *beliefRunner) start(o pendingObservation) {
	b := r.belief
	f := &inflight{name: o.name, done: make(chan error, 1)}
	go func() {
		defer func() {
			if v := recover(); v != nil {
				f.done <- fmt.Errorf("engine: belief update panicked: %v", v)
			}
		}()
		f.done <- o.apply(r.bg, b)
	}()
	r.inflight = f
}

// hold records a decision the player stopped waiting for, still running on
// the belief (and the player's random source and scorer): done receives
// once it has returned, and the next flush waits for it first.
func (r *beliefRunner) hold(name string, done chan error) {
	r.inflight = &inflight{name: name, done: done, decision: true}
}

// late records an update that is still running when the wait for it ended
// (why: its budget was spent, or the callback's context error), and
// replaces the belief when that keeps happening. A decision still running
// is the slow machine's doing, not the belief's: it is only counted. Both
// are routine under load, counted in the game-end line (late updates, held
// updates, failovers) rather than logged above Debug each turn.
func (r *beliefRunner) late(why string) {
	if r.inflight.decision {
		r.counts.held++
		r.log.Debug("an earlier decision is still running; the belief waits for it", "decision", r.inflight.name,
			"queued", len(r.pending), "why", why)
		return
	}
	r.counts.late++
	r.lateStreak++
	r.log.Debug("belief update not done in time; it goes on in the background", "update", r.inflight.name,
		"queued", len(r.pending), "streak", r.lateStreak, "why", why)
	if r.lateStreak >= failoverStreak {
		r.failover()
	}
}

// failover replaces a belief that keeps missing its deadlines (an exact set
// grown past what the clock allows) by the next cheaper one, fed the whole
// game again; the old one is closed in the background (closing waits for its
// expansion). Without it such a belief queues updates until the clock runs out.
func (r *beliefRunner) failover() {
	chain := fallbackSamplers()
	next := chain[0]
	if i := slices.Index(chain, r.belief.Name()); i >= 0 {
		if i+1 == len(chain) {
			return // nothing cheaper left
		}
		next = chain[i+1]
	}
	b, err := r.newBelief(next)
	if err != nil {
		r.log.Error("cannot make the fallback belief", "sampler", next, "err", err)
		return
	}
	old, busy := r.belief, r.inflight
	retired := &retiredBelief{done: make(chan struct{})}
	r.retired = append(r.retired, retired)
	go func() {
		defer close(retired.done)
		if busy != nil {
			<-busy.done // an observation must not run concurrently with Close
		}
		retired.peak = old.Stats().PeakBytes
		if err := old.Close(); err != nil {
			r.log.Warn("closing the abandoned belief", "err", err)
		}
	}()
	r.inflight = nil
	r.log.Debug("belief cannot keep up with the clock; replaced", "from", old.Name(), "to", next, "observations", len(r.history))
	r.belief = b
	r.pending = slices.Clone(r.history)
	r.lateStreak = 0
	r.counts.failovers++
}

// standInBoards returns up to n boards of the stand-in: boards consistent
// with every observation so far, for a safe choice while the belief is
// behind (none when the stand-in is retired or the game has not begun).
func (r *beliefRunner) standInBoards(n int) []sampler.Weighted {
	return r.standIn.boards(n)
}

// isClosed reports whether close was called.
func (r *beliefRunner) isClosed() bool { return r.closed }

// close stops the background work and releases the stand-in, the belief and
// every belief abandoned by failover. It waits, within closeWait in all,
// for an update still running (cancelled: it returns promptly) and for the
// abandoned beliefs to close, so that their memory and spill files do not
// outlive the player; a wedged one is left to finish alone rather than hang
// the caller. It records the beliefs' peak memory (counts.peakMB).
func (r *beliefRunner) close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	r.stopBG()
	wait, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	var errs []error
	if err := r.standIn.close(); err != nil {
		errs = append(errs, fmt.Errorf("engine: closing the stand-in belief: %w", err))
	}
	if r.inflight != nil {
		// An update still running must end before its belief is closed.
		select {
		case <-r.inflight.done:
		case <-wait.Done():
			r.log.Warn("a belief update did not stop; the belief is left open", "update", r.inflight.name)
			r.belief = nil
		}
		r.inflight = nil
	}
	if r.belief != nil {
		r.counts.peakMB = max(r.counts.peakMB, int(r.belief.Stats().PeakBytes>>20))
		if err := r.belief.Close(); err != nil {
			errs = append(errs, fmt.Errorf("engine: closing the belief: %w", err))
		}
	}
	for _, b := range r.retired {
		select {
		case <-b.done:
			r.counts.peakMB = max(r.counts.peakMB, int(b.peak>>20))
		case <-wait.Done():
			r.log.Warn("an abandoned belief did not close in time; it closes in the background")
		}
	}
	r.retired = nil
	return errors.Join(errs...)
}
