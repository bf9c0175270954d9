package evaluator

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

func TestEmbeddedEvaluator(t *testing.T) {
	ev := NewEmbedded()
	ctx := context.Background()
	for _, c := range []struct {
		fen  string
		lim  Limits
		want func(Score) bool
		what string
	}{
		{"k7/8/8/8/8/8/8/R3K3 w - - 0 1", Limits{}, func(s Score) bool { return s.Terminal == CanCaptureKing && s.Mate == 1 }, "king capturable"},
		{"6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", Limits{Depth: 3}, func(s Score) bool { return s.Mate == 2 && s.Source == FromEmbedded }, "mate in one = capture in 2"},
		{"4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", Limits{Depth: 2}, func(s Score) bool { return s.Mate == -1 }, "mated: king falls next move"},
		{"k7/8/8/8/8/8/8/K3K3 w - - 0 1", Limits{Depth: 2}, func(s Score) bool { return s.Rule == RuleExtraKings && s.Source == FromEmbedded }, "two kings"},
		{chess.StartFEN, Limits{Nodes: 500}, func(s Score) bool { return s.Depth >= 1 && s.Mate == 0 }, "node limit"},
		{chess.StartFEN, Limits{MoveTime: 20 * time.Millisecond}, func(s Score) bool { return s.Depth >= 1 }, "time limit"},
	} {
		s, err := ev.Evaluate(ctx, chess.MustParseFEN(c.fen), c.lim)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if !c.want(s) {
			t.Errorf("%s: got %+v", c.what, s)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ev.Evaluate(cctx, chess.StartBoard(), Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: %v", err)
	}
}

func TestScoreValueOrder(t *testing.T) {
	// Value orders outcomes: won > wins sooner > wins later > any cp > loses later > loses sooner > lost.
	order := []Score{
		{Terminal: EnemyKingMissing},
		{Mate: 1, Terminal: CanCaptureKing},
		{Mate: 3},
		{CP: 99999},
		{CP: 0},
		{CP: -99999},
		{Mate: -3},
		{Mate: -1, Terminal: Mated},
		{Terminal: OwnKingMissing},
	}
	for i := 1; i < len(order); i++ {
		if order[i-1].Value() <= order[i].Value() {
			t.Errorf("%v (%d) should be above %v (%d)", order[i-1], order[i-1].Value(), order[i], order[i].Value())
		}
	}
}

// BenchmarkEmbeddedRecorded measures the embedded evaluator at its default
// depth on positions from recorded games (the boards it meets in play).
func BenchmarkEmbeddedRecorded(b *testing.B) {
	var boards []chess.Board
	for i, fen := range recordedFENs(b) {
		if i%5 == 0 {
			boards = append(boards, chess.MustParseFEN(fen))
		}
	}
	ev := NewEmbedded()
	ctx := context.Background()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			if _, err := ev.Evaluate(ctx, boards[i%len(boards)], Limits{}); err != nil {
				b.Error(err)
				return
			}
			i += 7
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
}
