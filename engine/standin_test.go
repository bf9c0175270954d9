package engine

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// stalledBelief is a belief whose every update waits for the game to end,
// as an exact set far behind the clock (or a process given no CPU) behaves:
// every decision must answer without it.
type stalledBelief struct{ sampler.Sampler }

func (stalledBelief) HandleGameStart(ctx context.Context, _ chess.Color, _ chess.Board) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestSafeMoveSeesTheCheckWithoutTheBelief replays the loss that made the
// stand-in: the opponent's queen captures our rook next to our king while
// the belief is behind the clock. Before the stand-in, the move decision
// fell back on a pass and the king was captured; now the safe move sees
// the queen on the stand-in's boards and takes it (or at least leaves no
// capture of our king on the true board).
func TestSafeMoveSeesTheCheckWithoutTheBelief(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Eval = evaluator.KindEmbedded
	p, err := NewBlindfish(cfg, Options{Seed: 5, Evaluator: evaluator.NewEmbedded(), Logger: slog.New(slog.DiscardHandler),
		NewBelief: wrapping(func(s sampler.Sampler) sampler.Sampler { return stalledBelief{s} })})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	truth := chess.MustParseFEN("4q1k1/5ppp/8/8/8/5N2/5PPP/4R1K1 w - - 0 1")
	if err := p.HandleGameStart(ctx, chess.White, truth, "test"); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleOpponentMoveResult(ctx, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleSenseResult(ctx, nil); err != nil {
		t.Fatal(err)
	}
	ours := mustMove(t, "h2h3")
	if taken, capture := rbc.Play(&truth, ours); taken != ours || capture != chess.NoSquare {
		t.Fatalf("h2h3 on the true board: %v %v", taken, capture)
	}
	if err := p.HandleMoveResult(ctx, ours, ours, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	if _, capture := rbc.Play(&truth, mustMove(t, "e8e1")); capture != chess.E1 {
		t.Fatalf("Qxe1 on the true board captured on %v", capture)
	}
	if err := p.HandleOpponentMoveResult(ctx, true, chess.E1); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleSenseResult(ctx, nil); err != nil { // a passed sense
		t.Fatal(err)
	}
	actions := truth.MoveActions()
	mv, err := p.ChooseMove(ctx, actions, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if p.Stats().Fallbacks == 0 {
		t.Fatal("the stalled belief answered: the test no longer exercises the fallback")
	}
	if mv.IsNull() || !slices.Contains(actions, mv) {
		t.Fatalf("the fallback move is %v, want a move that meets the check", mv)
	}
	after := truth
	rbc.Play(&after, mv)
	if after.KingCapturable() {
		t.Errorf("after %v the queen can capture our king: %v", mv, after.FEN())
	}
}

func mustMove(t *testing.T, uci string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkStandIn feeds the stand-in a whole recorded game (trout against
// trout, both sides) and reports the cost of one observation: what every
// callback pays on its own goroutine before it answers.
func BenchmarkStandIn(b *testing.B) {
	h, err := record.LoadHistoryFile("../testdata/histories/trout_bot-trout_bot-6-000.json")
	if err != nil {
		b.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	var observations int
	for b.Loop() {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			start, turns, err := sampler.Observations(h, c)
			if err != nil {
				b.Fatal(err)
			}
			s := newStandIn(1, log)
			s.observe("game start", func(ctx context.Context, bel sampler.Sampler) error {
				return bel.HandleGameStart(ctx, c, start)
			})
			for i := range turns {
				tr := &turns[i]
				s.observe("notice", tr.Notice)
				s.observe("sense", func(ctx context.Context, bel sampler.Sampler) error { return tr.SenseWith(ctx, bel, tr.Sense) })
				observations += 2
				if tr.HasMove {
					s.observe("move", tr.Move)
					observations++
				}
			}
			if s.broken {
				b.Fatal("the stand-in failed on a recorded game")
			}
			s.close()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(observations), "µs/observation")
}
