package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// starvedEval is an evaluator on a machine that gives it almost no CPU:
// every evaluation takes delay longer, and the delay does not notice the
// context (a starved engine reads "stop" late). It keeps the embedded
// evaluator's name, so the player plans with the embedded depths.
type starvedEval struct {
	evaluator.Evaluator
	delay time.Duration
}

func (e starvedEval) Evaluate(ctx context.Context, b chess.Board, lim evaluator.Limits) (evaluator.Score, error) {
	time.Sleep(e.delay)
	return e.Evaluator.Evaluate(ctx, b, lim)
}

// starvedBelief is a belief on a starved machine: every observation takes
// update longer and every query (Sample, ForEach) query longer, without
// looking at the context meanwhile, as work that gets no CPU cannot.
type starvedBelief struct {
	sampler.Sampler
	update, query time.Duration
}

func (s starvedBelief) HandleGameStart(ctx context.Context, c chess.Color, b chess.Board) error {
	time.Sleep(s.update)
	return s.Sampler.HandleGameStart(ctx, c, b)
}

func (s starvedBelief) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) error {
	time.Sleep(s.update)
	return s.Sampler.HandleOpponentMoveResult(ctx, captured, sq)
}

func (s starvedBelief) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	time.Sleep(s.update)
	return s.Sampler.HandleSenseResult(ctx, result)
}

func (s starvedBelief) HandleMoveResult(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	time.Sleep(s.update)
	return s.Sampler.HandleMoveResult(ctx, req, taken, captured, sq)
}

func (s starvedBelief) Sample(ctx context.Context, n int, rng *rand.Rand) ([]sampler.Weighted, error) {
	time.Sleep(s.query)
	return s.Sampler.Sample(ctx, n, rng)
}

func (s starvedBelief) ForEach(ctx context.Context, fn func(int, []chess.Board, []float64) error) error {
	time.Sleep(s.query)
	return s.Sampler.ForEach(ctx, fn)
}

// TestStarvedPlayerNeverFlags starves the player on purpose: every step of
// its work takes far longer than it plans for (an evaluation 100 ms, a
// belief update 20 ms, a look at the belief 600 ms, none of it heeding a
// deadline), as on a machine that gives the process almost no CPU, and it
// plays whole games at 10+1 (up to 20 moves) against the baselines under
// the real clock. It may play badly; it must never lose on time (nor
// resign, nor make an illegal request). The slowness is injected (sleeps,
// which need no CPU), so the test does not depend on how busy the machine
// running it is: the player's own work is small next to the sleeps and the
// increment. A player without the hard deadlines and the slowness it learns
// loses both games on time.
func TestStarvedPlayerNeverFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	const (
		evalDelay   = 100 * time.Millisecond
		updateDelay = 20 * time.Millisecond
		queryDelay  = 600 * time.Millisecond
	)
	spec := Params{"samples": "24", "voisamples": "12", "sensesamples": "300"}
	for i, tc := range []struct {
		name    string
		opp     func(seed int64) rbc.Player
		asWhite bool
	}{
		{"attacker", func(s int64) rbc.Player { return baseline.NewAttacker(NewRand(s)) }, true},
		{"attacker", func(s int64) rbc.Player { return baseline.NewAttacker(NewRand(s)) }, false},
		{"random", func(s int64) rbc.Player { return baseline.NewRandom(NewRand(s)) }, true},
		{"random", func(s int64) rbc.Player { return baseline.NewRandom(NewRand(s)) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := game{
				opp: tc.opp(int64(i)), asWhite: tc.asWhite, seed: int64(i), spec: spec,
				clock: 10 * time.Second, inc: time.Second, turnLimit: 20,
				eval:      starvedEval{evaluator.NewEmbedded(), evalDelay},
				newBelief: wrapping(func(s sampler.Sampler) sampler.Sampler { return starvedBelief{s, updateDelay, queryDelay} }),
			}
			res, s := g.play(t)
			if o := res.History.Outcome; o.Reason == rbc.Timeout || o.Reason == rbc.IllegalAction || o.Reason == rbc.Resign {
				t.Errorf("starved game ended badly: %v", o)
			}
			if s.Fallbacks == 0 {
				t.Error("no decision fell back: the player was not starved, and the test shows nothing")
			}
		})
	}
}

// stubborn is a strategy that does not answer until released, whatever its
// context says: a decision whose work gets no CPU.
type stubborn struct{ release chan struct{} }

func (s stubborn) ChooseSense(context.Context, *TurnView) (chess.Square, error) {
	<-s.release
	return chess.NoSquare, nil
}

func (s stubborn) ChooseMove(context.Context, *TurnView) (chess.Move, error) {
	<-s.release
	return chess.Move{}, nil
}

// within runs f and fails the test if it has not returned in d: a bound far
// beyond any budget here, so that a callback that waits for its strategy
// fails the test instead of hanging it.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return in %v: it waited for its strategy", what, d)
	}
}

// TestDecisionsAnswerWithoutTheirStrategy: a strategy that never answers
// (it ignores its deadline) cannot hold a decision past its hard deadline:
// the sense is a random inner window, the move the static choice on the
// boards the sense kept (here the king capture on every one of them), and
// the strategy finishes in the background, where the next callback waits
// for it before the belief is touched again.
func TestDecisionsAnswerWithoutTheirStrategy(t *testing.T) {
	f := newFixed(t, knightBoards...)
	p := testPlayer(t, f, DefaultConfig())
	s := stubborn{release: make(chan struct{})}
	p.sense, p.move = s, s
	ctx := context.Background()
	actions := f.boards[0].MoveActions()
	var sq chess.Square
	within(t, 10*time.Second, "ChooseSense", func() {
		var err error
		if sq, err = p.ChooseSense(ctx, allSquares(), actions, 2*time.Second); err != nil {
			t.Error(err)
		}
	})
	if !slices.Contains(innerSquares(allSquares()), sq) {
		t.Errorf("sense %v, want an inner window", sq)
	}
	if p.beliefs.inflight == nil || !p.beliefs.inflight.decision || p.Stats().Cutoffs != 1 {
		t.Fatalf("in flight %+v, cut-offs %d: want the sense decision left running", p.beliefs.inflight, p.Stats().Cutoffs)
	}
	// The next callback waits for the decision (within its budget) before
	// the belief hears the sense result; once released, it is applied.
	close(s.release)
	within(t, 10*time.Second, "HandleSenseResult", func() {
		if err := p.HandleSenseResult(ctx, nil); err != nil {
			t.Error(err)
		}
	})

	// A move decision cut off answers from the boards the sense kept.
	s = stubborn{release: make(chan struct{})}
	defer close(s.release)
	p.move = s
	open, err := chess.ParseFEN("4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	p.notes.carry = []sampler.Weighted{{Board: open, Weight: 1}}
	want := mv(t, "e2e8")
	var m chess.Move
	within(t, 10*time.Second, "ChooseMove", func() {
		var err error
		if m, err = p.ChooseMove(ctx, open.MoveActions(), 2*time.Second); err != nil {
			t.Error(err)
		}
	})
	if m != want {
		t.Errorf("move %v, want the safe move %v", m, want)
	}
	if p.Stats().Cutoffs != 2 {
		t.Errorf("cut-offs %d, want 2", p.Stats().Cutoffs)
	}
}
