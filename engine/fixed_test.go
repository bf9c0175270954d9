package engine

import (
	"context"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// fixedBelief is a hand-built belief: a fixed list of boards with weights.
// It answers queries only; observations are ignored.
type fixedBelief struct {
	boards  []chess.Board
	weights []float64
}

func newFixed(t *testing.T, fens ...string) *fixedBelief {
	t.Helper()
	f := &fixedBelief{}
	for _, fen := range fens {
		b, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		f.boards = append(f.boards, b)
		f.weights = append(f.weights, 1/float64(len(fens)))
	}
	return f
}

func (f *fixedBelief) Name() string { return "fixed" }
func (f *fixedBelief) HandleGameStart(context.Context, chess.Color, chess.Board) error {
	return nil
}
func (f *fixedBelief) HandleOpponentMoveResult(context.Context, bool, chess.Square) error {
	return nil
}
func (f *fixedBelief) HandleSenseResult(context.Context, []rbc.SquarePiece) error { return nil }
func (f *fixedBelief) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}
func (f *fixedBelief) Sample(_ context.Context, n int, _ *rand.Rand) ([]sampler.Weighted, error) {
	var out []sampler.Weighted
	for i, b := range f.boards {
		if i == n {
			break
		}
		out = append(out, sampler.Weighted{Board: b, Weight: f.weights[i]})
	}
	return out, nil
}
func (f *fixedBelief) ForEach(ctx context.Context, fn func(int, []chess.Board, []float64) error) error {
	return fn(0, f.boards, f.weights)
}
func (f *fixedBelief) Workers() int { return 1 }
func (f *fixedBelief) Size() sampler.Size {
	return sampler.Size{Boards: len(f.boards), Exact: true}
}
func (f *fixedBelief) Entropy() float64 { return math.Log2(float64(len(f.boards))) }
func (f *fixedBelief) Contains(b *chess.Board) bool {
	for i := range f.boards {
		if f.boards[i].Key() == b.Key() {
			return true
		}
	}
	return false
}
func (f *fixedBelief) Stats() sampler.BeliefStats { return sampler.BeliefStats{} }
func (f *fixedBelief) Close() error               { return nil }

// testTurn is a Normal-mode decision on belief f with the embedded evaluator.
func testTurn(t *testing.T, f *fixedBelief, cfg Config) *TurnView {
	t.Helper()
	color := f.boards[0].Turn()
	scorer := evaluator.NewMoveScorer(evaluator.NewEmbedded(), evaluator.DefaultMoveTerms(), 1<<12)
	return &TurnView{
		Number:       1,
		Color:        color,
		Belief:       f,
		SenseActions: allSquares(),
		MoveActions:  f.boards[0].MoveActions(),
		Rand:         NewRand(1),
		Scoring:      &Scoring{scorer: scorer, lim: evaluator.Limits{Depth: cfg.EmbeddedDepth}, workers: 2, rate: &rateMeter{}},
		Budget:       Budget{Time: 10e9, Mode: Normal},
		Config:       &cfg,
		Log:          slog.New(slog.DiscardHandler),
		Captured:     chess.NoSquare,
	}
}

func allSquares() []chess.Square {
	s := make([]chess.Square, 64)
	for i := range s {
		s[i] = chess.Square(i)
	}
	return s
}

func sq(t *testing.T, name string) chess.Square {
	t.Helper()
	s, err := chess.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mv(t *testing.T, uci string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
