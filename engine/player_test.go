package engine

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/internal/stall"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// testPlayer is a player mid-game on a hand-built belief, as White.
func testPlayer(t *testing.T, belief sampler.Sampler, cfg Config) *Player {
	t.Helper()
	e := evaluator.NewEmbedded()
	p, err := NewBlindfish(cfg, Options{Seed: 1, Evaluator: e, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	p.beliefs.belief, p.eng.eval = belief, e
	p.eng.scorer = evaluator.NewMoveScorer(e, evaluator.DefaultMoveTerms(), 1<<12)
	p.turn = 5
	return p
}

// panicky is a strategy that panics, as a bug would.
type panicky struct{}

func (panicky) ChooseSense(context.Context, *TurnView) (chess.Square, error) { panic("sense bug") }
func (panicky) ChooseMove(context.Context, *TurnView) (chess.Move, error)    { panic("move bug") }

// TestPlayerSurvivesPanics: a panicking strategy costs a fallback choice,
// never the game, and the choice is still a legal action.
func TestPlayerSurvivesPanics(t *testing.T) {
	f := newFixed(t, knightBoards...)
	p := testPlayer(t, f, DefaultConfig())
	p.sense, p.move = panicky{}, panicky{}
	ctx := context.Background()
	actions := f.boards[0].MoveActions()
	s, err := p.ChooseSense(ctx, allSquares(), actions, time.Minute)
	if err != nil || !s.Valid() {
		t.Errorf("sense after a panic: %v %v", s, err)
	}
	m, err := p.ChooseMove(ctx, actions, time.Minute)
	if err != nil || (!m.IsNull() && !slices.Contains(actions, m)) {
		t.Errorf("move after a panic: %v %v", m, err)
	}
	if p.Stats().Panics != 2 {
		t.Errorf("panics counted: %d", p.Stats().Panics)
	}
}

// illegal is a move strategy that answers with a move that is not offered.
type illegal struct{}

func (illegal) ChooseMove(context.Context, *TurnView) (chess.Move, error) {
	return chess.Move{From: chess.A1, To: chess.H8}, nil
}

// TestPlayerNeverRequestsAnIllegalMove: a strategy's move outside the move
// actions becomes the safe move, here (no boards kept, no stand-in) a pass.
func TestPlayerNeverRequestsAnIllegalMove(t *testing.T) {
	f := newFixed(t, knightBoards...)
	p := testPlayer(t, f, DefaultConfig())
	p.move = illegal{}
	m, err := p.ChooseMove(context.Background(), f.boards[0].MoveActions(), time.Minute)
	if err != nil || !m.IsNull() {
		t.Errorf("got %v %v, want a pass", m, err)
	}
}

// TestPlayerPassesTheSenseWhenTheBoardIsKnown: with one board in an exact
// belief there is nothing to learn.
func TestPlayerPassesTheSenseWhenTheBoardIsKnown(t *testing.T) {
	f := newFixed(t, knightBoards[0])
	p := testPlayer(t, f, DefaultConfig())
	s, err := p.ChooseSense(context.Background(), allSquares(), f.boards[0].MoveActions(), time.Minute)
	if err != nil || s != chess.NoSquare {
		t.Errorf("got %v %v, want a pass", s, err)
	}
}

// TestPlayerRespectsItsBudget: with 3 s on the clock, a decision returns
// within its budget (plus a little) even with a large sample to score. The
// margin grows by the time the process waited for a CPU meanwhile (package
// stall): on a starved machine the hard deadline's timer and the answer
// come late by that much. A pass is a fallback (no boards to play the
// static move on): it is allowed only where the process waited for a CPU
// and the move was cut off, fell back, or found the clock low (a starved
// sense can leave the move a fraction of the 3 s).
func TestPlayerRespectsItsBudget(t *testing.T) {
	f := newFixed(t, knightBoards...)
	cfg := DefaultConfig()
	cfg.EmbeddedDepth = 6 // slow enough that the deadline matters
	p := testPlayer(t, f, cfg)
	// timed runs a decision and checks that it took at most 500 ms plus the
	// stall allowance, and returns how long it took and how long the
	// process waited for a CPU.
	timed := func(what string, decide func()) (took, stalled time.Duration) {
		t.Helper()
		probe := stall.Start()
		start := time.Now()
		decide()
		took, stalled = time.Since(start), probe.Stop()
		t.Logf("the %s took %v, %v waiting for a CPU", what, took, stalled)
		if took > 500*time.Millisecond+stall.Allowance(stalled) {
			t.Errorf("the %s took %v on a 3 s clock, having waited only %v for a CPU", what, took, stalled)
		}
		return took, stalled
	}
	var s chess.Square
	var err error
	took, senseStalled := timed("sense", func() {
		s, err = p.ChooseSense(context.Background(), allSquares(), f.boards[0].MoveActions(), 3*time.Second)
	})
	if err != nil || !s.Valid() {
		t.Errorf("sense %v %v", s, err)
	}
	var m chess.Move
	fallbacks := p.Stats().Fallbacks
	_, moveStalled := timed("move", func() {
		m, err = p.ChooseMove(context.Background(), f.boards[0].MoveActions(), 3*time.Second-took)
	})
	fellBack := p.Stats().Fallbacks > fallbacks || p.notes.mode != Normal
	stalled := senseStalled + moveStalled
	if err != nil || m.IsNull() && (!fellBack || stalled < 50*time.Millisecond) {
		t.Errorf("move %v %v (fell back or low clock %v, mode %v, %v waiting for a CPU)", m, err, fellBack, p.notes.mode, stalled)
	}
}

// slowBelief is a belief whose first sense update takes 300 ms and ignores
// its context, as a belief busy in a long computation does.
type slowBelief struct {
	*fixedBelief
	calls atomic.Int32 // written by the update's goroutine
}

func (s *slowBelief) HandleSenseResult(context.Context, []rbc.SquarePiece) error {
	if s.calls.Add(1) == 1 {
		time.Sleep(300 * time.Millisecond)
	}
	return nil
}

// TestPlayerOutrunsASlowBeliefUpdate: a handler returns within its budget even
// when the belief ignores the deadline; the update goes on in the
// background, and the next decision waits for it and proceeds normally: no
// fallback, the update not run again. (Which move it plays depends on how
// many boards the engine scored in time: on a loaded machine the static
// scores may pass, so the move itself is not asserted.)
func TestPlayerOutrunsASlowBeliefUpdate(t *testing.T) {
	sb := &slowBelief{fixedBelief: newFixed(t, knightBoards...)}
	p := testPlayer(t, sb, DefaultConfig())
	// The turn is planned on a 30 s clock, so that the move has the budget
	// of an ordinary turn (a 3 s clock left it 52 ms, which a loaded machine
	// overran); the handler is bounded by its 50 ms context.
	p.clock.StartSense(30 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	probe := stall.Start()
	start := time.Now()
	if err := p.HandleSenseResult(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if took, stalled := time.Since(start), probe.Stop(); took > 150*time.Millisecond+stall.Allowance(stalled) {
		t.Errorf("the handler took %v, having waited only %v for a CPU", took, stalled)
	}
	if len(p.beliefs.pending) != 1 || p.beliefs.inflight == nil || p.Stats().LateUpdates != 1 {
		t.Fatalf("pending %d, in flight %v, late %d", len(p.beliefs.pending), p.beliefs.inflight != nil, p.Stats().LateUpdates)
	}
	// The update finishes in the background: wait for its answer to be
	// ready (not for a time, which a starved machine can outlast) so that
	// the move's wait for it is only the receive.
	done := p.beliefs.inflight.done
	for give := time.Now().Add(time.Minute); len(done) == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(give) {
			t.Fatal("the belief update did not finish in the background within a minute")
		}
	}
	actions := sb.boards[0].MoveActions()
	probe = stall.Start()
	m, err := p.ChooseMove(context.Background(), actions, 30*time.Second)
	stalled := probe.Stop()
	// A fallback is the right answer only if the move's budget ran out
	// before the flush read the finished update, which takes the machine
	// withholding the CPU.
	fellBack := p.Stats().Fallbacks != 0
	if err != nil || sb.calls.Load() != 1 || fellBack && stalled < 50*time.Millisecond ||
		!fellBack && (len(p.beliefs.pending) != 0 || p.beliefs.inflight != nil) ||
		!m.IsNull() && !slices.Contains(actions, m) {
		t.Errorf("move %v %v, pending %d, calls %d, fallbacks %d, %v waiting for a CPU",
			m, err, len(p.beliefs.pending), sb.calls.Load(), p.Stats().Fallbacks, stalled)
	}
}

// TestPlayerFullGameCallbacks runs the callbacks of a real game start with a
// real belief, to check the composition end to end (the embedded evaluator).
func TestPlayerFullGameCallbacks(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Eval = evaluator.KindEmbedded
	p, err := NewBlindfish(cfg, Options{Seed: 3, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	b := chess.StartBoard()
	if err := p.HandleGameStart(ctx, chess.White, b, "nobody"); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleOpponentMoveResult(ctx, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	s, err := p.ChooseSense(ctx, allSquares(), b.MoveActions(), 10*time.Second)
	if err != nil || s != chess.NoSquare {
		t.Errorf("first sense %v %v: White's first board is known", s, err)
	}
	if err := p.HandleSenseResult(ctx, nil); err != nil {
		t.Fatal(err)
	}
	m, err := p.ChooseMove(ctx, b.MoveActions(), 10*time.Second)
	if err != nil || !slices.Contains(b.MoveActions(), m) {
		t.Fatalf("first move %v %v", m, err)
	}
	taken, capture := rbc.Play(&b, m)
	if err := p.HandleMoveResult(ctx, m, taken, capture != chess.NoSquare, capture); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleGameEnd(ctx, rbc.Outcome{}, nil); err != nil && !errors.Is(err, context.Canceled) {
		t.Error(err)
	}
	if err := p.Close(); err != nil {
		t.Error(err)
	}
}

// TestConsistentWith keeps the boards that show the sense result.
func TestConsistentWith(t *testing.T) {
	f := newFixed(t, knightBoards...)
	ws, _ := f.Sample(context.Background(), 10, nil)
	res := rbc.Sense(&f.boards[1], sq(t, "g6"))
	got := consistentWith(ws, res)
	if len(got) != 1 || got[0].Board.Key() != f.boards[1].Key() {
		t.Errorf("kept %d boards", len(got))
	}
	if len(consistentWith(ws, nil)) != 3 {
		t.Error("a passed sense should keep every board")
	}
}

// stuckBelief is a belief whose capture notices never finish in time, as an
// exact set grown past the clock behaves.
type stuckBelief struct{ sampler.Sampler }

func (s stuckBelief) HandleOpponentMoveResult(ctx context.Context, _ bool, _ chess.Square) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestPlayerFailsOverToACheaperBelief: a belief that keeps missing its
// deadlines is replaced by a cheaper one fed the whole game, and the player
// decides normally again.
func TestPlayerFailsOverToACheaperBelief(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Eval = evaluator.KindEmbedded
	p, err := NewBlindfish(cfg, Options{Seed: 3, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	b := chess.StartBoard()
	if err := p.HandleGameStart(ctx, chess.White, b, "nobody"); err != nil {
		t.Fatal(err)
	}
	p.beliefs.ensure(time.Minute)
	p.beliefs.belief = stuckBelief{p.beliefs.belief}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := p.HandleOpponentMoveResult(short, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < failoverStreak && p.Stats().Failovers == 0; i++ {
		if _, err := p.ChooseSense(ctx, allSquares(), b.MoveActions(), 3*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if p.Stats().Failovers != 1 || p.beliefs.belief.Name() != "hybrid" {
		t.Fatalf("failovers %d, belief %s", p.Stats().Failovers, p.beliefs.belief.Name())
	}
	m, err := p.ChooseMove(ctx, b.MoveActions(), 3*time.Second)
	if err != nil || len(p.beliefs.pending) != 0 || !slices.Contains(b.MoveActions(), m) {
		t.Errorf("after the failover: move %v %v, pending %d", m, err, len(p.beliefs.pending))
	}
}
