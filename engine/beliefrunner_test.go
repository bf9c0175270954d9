package engine

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/stall"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// wrapping returns the belief factory that wraps every belief sampler.New
// makes: the tests' way to slow a belief down (Options.NewBelief).
func wrapping(wrap func(sampler.Sampler) sampler.Sampler) BeliefFactory {
	return func(name string, opts sampler.Options) (sampler.Sampler, error) {
		s, err := sampler.New(name, opts)
		if err != nil {
			return nil, err
		}
		return wrap(s), nil
	}
}

// loggedBelief is a belief that records the observations applied to it, in
// order, by kind ("start", "notice", "sense", "move"). Its capture notices
// wait for their context to end when stuck (an exact set grown past the
// clock), and its sense results wait for gate when gate is not nil (a long
// update that does not look at its context).
type loggedBelief struct {
	*fixedBelief
	name  string
	stuck bool
	gate  chan struct{}

	mu   sync.Mutex
	seen []string
}

func (b *loggedBelief) Name() string { return b.name }

func (b *loggedBelief) note(kind string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seen = append(b.seen, kind)
}

// applied returns the observations applied so far.
func (b *loggedBelief) applied() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.seen)
}

func (b *loggedBelief) HandleGameStart(context.Context, chess.Color, chess.Board) error {
	b.note("start")
	return nil
}

func (b *loggedBelief) HandleOpponentMoveResult(ctx context.Context, _ bool, _ chess.Square) error {
	if b.stuck {
		<-ctx.Done()
		return ctx.Err()
	}
	b.note("notice")
	return nil
}

func (b *loggedBelief) HandleSenseResult(context.Context, []rbc.SquarePiece) error {
	if b.gate != nil {
		<-b.gate
	}
	b.note("sense")
	return nil
}

func (b *loggedBelief) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	b.note("move")
	return nil
}

// loggedBeliefs is a belief factory of loggedBeliefs that keeps every belief
// it made; shape, if set, adjusts each before it is handed out.
type loggedBeliefs struct {
	shape func(*loggedBelief)
	made  []*loggedBelief
}

func (f *loggedBeliefs) make(name string, _ sampler.Options) (sampler.Sampler, error) {
	b := &loggedBelief{fixedBelief: &fixedBelief{}, name: name}
	if f.shape != nil {
		f.shape(b)
	}
	f.made = append(f.made, b)
	return b, nil
}

// Observations for the runner's tests, applied as the player applies them.
var (
	obsStart = pendingObservation{"game start", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleGameStart(ctx, chess.White, chess.StartBoard())
	}}
	obsNotice = pendingObservation{"capture notice", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleOpponentMoveResult(ctx, false, chess.NoSquare)
	}}
	obsSense = pendingObservation{"sense result", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleSenseResult(ctx, nil)
	}}
	obsMove = pendingObservation{"move result", func(ctx context.Context, s sampler.Sampler) error {
		m := chess.Move{From: chess.E2, To: chess.E4}
		return s.HandleMoveResult(ctx, m, m, false, chess.NoSquare)
	}}
	obsRejected = pendingObservation{"rejected", func(context.Context, sampler.Sampler) error {
		return errors.New("an impossible observation")
	}}
)

// testRunner returns a runner of the "exact" belief made by f, closed when
// the test ends.
func testRunner(t *testing.T, f BeliefFactory) *beliefRunner {
	t.Helper()
	r := newBeliefRunner("exact", 64, 0, 1, f, slog.New(slog.DiscardHandler))
	t.Cleanup(func() {
		if err := r.close(); err != nil {
			t.Error(err)
		}
	})
	return r
}

func (r *beliefRunner) enqueueAll(obs ...pendingObservation) {
	for _, o := range obs {
		r.enqueue(o.name, o.apply)
	}
}

// TestBeliefRunnerFlush: the runner applies the observations to its belief
// in the order they came, each once; an update that outlasts its budget
// goes on in the background and the next flush waits for it before the
// next one; an update the belief rejects is dropped; a decision the player
// stopped waiting for holds the belief back without counting as a late
// update.
func TestBeliefRunnerFlush(t *testing.T) {
	for _, tc := range []struct {
		name string
		// run drives the runner (its belief b is made) and returns whether
		// the last flush was up to date.
		run                 func(t *testing.T, r *beliefRunner, b *loggedBelief) bool
		noBelief            bool // no ensure: nothing to apply to
		want                []string
		late, held, pending int
	}{
		{
			name: "in order",
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				r.enqueueAll(obsStart, obsNotice, obsSense, obsMove)
				return r.flush(context.Background(), time.Minute)
			},
			want: []string{"start", "notice", "sense", "move"},
		},
		{
			name:     "before the belief is made",
			noBelief: true,
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				r.enqueueAll(obsStart, obsNotice)
				return r.flush(context.Background(), time.Minute)
			},
			pending: 2,
		},
		{
			name: "a slow update goes on in the background",
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				b.gate = make(chan struct{})
				r.enqueueAll(obsStart, obsSense, obsMove)
				if r.flush(context.Background(), 20*time.Millisecond) {
					t.Fatal("up to date with the sense result held")
				}
				if got := b.applied(); !slices.Equal(got, []string{"start"}) || r.inflight == nil || len(r.pending) != 2 {
					t.Fatalf("applied %v, in flight %v, pending %d: want the start, the sense in flight", got, r.inflight != nil, len(r.pending))
				}
				close(b.gate)
				return r.flush(context.Background(), time.Minute)
			},
			want: []string{"start", "sense", "move"},
			late: 1,
		},
		{
			name: "a cancelled callback leaves the update running",
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				b.gate = make(chan struct{})
				r.enqueueAll(obsSense, obsMove)
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				if r.flush(ctx, time.Minute) {
					t.Fatal("up to date with the sense result held")
				}
				close(b.gate)
				return r.flush(context.Background(), time.Minute)
			},
			want: []string{"sense", "move"},
			late: 1,
		},
		{
			name: "a rejected update is dropped",
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				r.enqueueAll(obsStart, obsRejected, obsNotice)
				return r.flush(context.Background(), time.Minute)
			},
			want: []string{"start", "notice"},
		},
		{
			name: "a decision still running holds the updates",
			run: func(t *testing.T, r *beliefRunner, b *loggedBelief) bool {
				done := make(chan error, 1)
				r.hold("sense decision", done)
				r.enqueueAll(obsSense)
				if r.flush(context.Background(), 20*time.Millisecond) || len(b.applied()) != 0 {
					t.Fatalf("the belief was updated while a decision ran on it: %v", b.applied())
				}
				done <- nil
				return r.flush(context.Background(), time.Minute)
			},
			want: []string{"sense"},
			held: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &loggedBeliefs{}
			r := testRunner(t, f.make)
			var b *loggedBelief
			if !tc.noBelief {
				r.ensure(time.Minute)
				b = f.made[0]
			}
			upToDate := tc.run(t, r, b)
			if upToDate != !tc.noBelief {
				t.Errorf("up to date %v, want %v", upToDate, !tc.noBelief)
			}
			if b != nil {
				if got := b.applied(); !slices.Equal(got, tc.want) {
					t.Errorf("applied %v, want %v", got, tc.want)
				}
			}
			if len(r.pending) != tc.pending || r.counts.late != tc.late || r.counts.held != tc.held {
				t.Errorf("pending %d, late %d, held %d: want %d, %d, %d", len(r.pending), r.counts.late, r.counts.held,
					tc.pending, tc.late, tc.held)
			}
		})
	}
}

// TestBeliefRunnerFailsOverWithTheSameHistory: a belief whose updates miss
// failoverStreak deadlines in a row is replaced by the next cheaper one,
// which is fed the whole game again, in order; the cheapest one has
// nothing to fall back to and stays.
func TestBeliefRunnerFailsOverWithTheSameHistory(t *testing.T) {
	for _, tc := range []struct {
		first, next string // next: "" for no failover
	}{
		{"exact", "hybrid"},
		{"particle", "hybrid"},
		{"hybrid", "los"},
		{"los", ""},
	} {
		t.Run(tc.first, func(t *testing.T) {
			f := &loggedBeliefs{shape: func(b *loggedBelief) { b.stuck = b.name == tc.first }}
			r := testRunner(t, f.make)
			r.sampler = tc.first
			r.ensure(time.Minute)
			r.enqueueAll(obsStart, obsNotice, obsSense, obsMove)
			for range failoverStreak {
				if r.flush(context.Background(), 5*time.Millisecond) {
					t.Fatal("a stuck belief was up to date")
				}
			}
			if tc.next == "" {
				if r.counts.failovers != 0 || r.current() != f.made[0] || len(f.made) != 1 {
					t.Fatalf("failovers %d, belief %s: want no failover", r.counts.failovers, r.current().Name())
				}
				return
			}
			if r.counts.failovers != 1 || r.current().Name() != tc.next || len(r.retired) != 1 {
				t.Fatalf("failovers %d, belief %s, retired %d: want 1, %s, 1", r.counts.failovers, r.current().Name(), len(r.retired), tc.next)
			}
			if !r.flush(context.Background(), time.Minute) {
				t.Fatal("the fallback belief is not up to date")
			}
			want := []string{"start", "notice", "sense", "move"}
			if got := f.made[1].applied(); !slices.Equal(got, want) {
				t.Errorf("the fallback belief applied %v, want the game's history %v", got, want)
			}
			if got := f.made[0].applied(); !slices.Equal(got, want[:1]) {
				t.Errorf("the stuck belief applied %v, want only the start", got)
			}
		})
	}
}

// slowClose is a stuck belief whose Close takes a while (an exact set
// waiting for its expansion and freeing its spill files), or until release
// is closed when release is not nil.
type slowClose struct {
	stuckBelief
	delay   time.Duration
	release chan struct{}
	closed  atomic.Bool
}

func (s *slowClose) Close() error {
	time.Sleep(s.delay)
	if s.release != nil {
		<-s.release
	}
	s.closed.Store(true)
	return s.Sampler.Close()
}

// TestBeliefRunnerCloseWaitsForRetiredBeliefs: a belief replaced by
// failover is closed in the background, and close returns only once it is
// closed (its memory and spill files do not outlive the player), but no
// later than its bound (closeWait) when it never finishes closing.
func TestBeliefRunnerCloseWaitsForRetiredBeliefs(t *testing.T) {
	for _, tc := range []struct {
		name       string
		b          *slowClose
		wait       time.Duration // closeWait
		wantClosed bool
	}{
		{"waits for it", &slowClose{delay: 300 * time.Millisecond}, closeWait, true},
		{"bounds the wait", &slowClose{release: make(chan struct{})}, 200 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(w time.Duration) { closeWait = w }(closeWait)
			closeWait = tc.wait
			if tc.b.release != nil {
				defer close(tc.b.release)
			}
			first := true
			r := newBeliefRunner("exact", 64, 0, 1, func(name string, opts sampler.Options) (sampler.Sampler, error) {
				s, err := sampler.New(name, opts)
				if err != nil || !first {
					return s, err
				}
				first = false
				tc.b.stuckBelief = stuckBelief{s}
				return tc.b, nil
			}, slog.New(slog.DiscardHandler))
			r.ensure(time.Minute)
			r.enqueueAll(obsStart, obsNotice)
			for range failoverStreak {
				r.flush(context.Background(), 5*time.Millisecond)
			}
			if r.counts.failovers != 1 || r.current() == tc.b {
				t.Fatalf("failovers %d, belief %s: want the stuck belief replaced", r.counts.failovers, r.current().Name())
			}
			probe := stall.Start()
			t0 := time.Now()
			if err := r.close(); err != nil {
				t.Fatal(err)
			}
			if took, stalled := time.Since(t0), probe.Stop(); !tc.wantClosed && took > 2*time.Second+stall.Allowance(stalled) {
				t.Fatalf("close took %v with a bound of %v, having waited only %v for a CPU", took, closeWait, stalled)
			}
			if got := tc.b.closed.Load(); got != tc.wantClosed {
				t.Fatalf("the abandoned belief closed: %v, want %v", got, tc.wantClosed)
			}
		})
	}
}

// TestBeliefRunnerStandInWhileBehind: while the belief is behind (its start
// still running), the stand-in has boards consistent with every observation
// so far; before the game begins it has none.
func TestBeliefRunnerStandInWhileBehind(t *testing.T) {
	for _, tc := range []struct {
		name  string
		begin bool
		want  bool // boards, each the start board
	}{
		{"behind", true, true},
		{"not begun", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := testRunner(t, wrapping(func(s sampler.Sampler) sampler.Sampler { return stalledBelief{s} }))
			r.sampler = "hybrid"
			if tc.begin {
				r.begin(slog.New(slog.DiscardHandler))
			}
			r.enqueueAll(obsStart)
			r.ensure(time.Minute)
			if r.flush(context.Background(), 20*time.Millisecond) {
				t.Fatal("the stalled belief is up to date")
			}
			ws := r.standInBoards(safeMoveBoards)
			if !tc.want {
				if len(ws) != 0 {
					t.Errorf("%d stand-in boards before the game began", len(ws))
				}
				return
			}
			start := chess.StartBoard()
			if len(ws) == 0 {
				t.Fatal("no stand-in boards while the belief is behind")
			}
			for _, w := range ws {
				if w.Board.Key() != start.Key() {
					t.Fatalf("stand-in board %v, want the start board", w.Board.FEN())
				}
			}
		})
	}
}
