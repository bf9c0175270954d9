package embedded

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

func search(t *testing.T, fen string, lim Limits) Result {
	t.Helper()
	r, err := New().Search(context.Background(), chess.MustParseFEN(fen), lim)
	if err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return r
}

func TestCaptureKingAtRoot(t *testing.T) {
	// White's rook on a1 sees the black king on a8.
	r := search(t, "k7/8/8/8/8/8/8/R3K3 w - - 0 1", Limits{})
	if r.Score != Win || r.Best.String() != "a1a8" || CaptureDistance(r.Score) != 1 {
		t.Fatalf("got %+v (best %v), want Win by a1a8", r, r.Best)
	}
}

func TestOwnKingMissing(t *testing.T) {
	r := search(t, "8/8/8/8/8/8/8/R3K3 b - - 0 1", Limits{})
	if r.Score != -Win {
		t.Fatalf("score %d, want %d", r.Score, -Win)
	}
}

func TestKingLeftEnPriseLoses(t *testing.T) {
	// Black to move is "in check" by the rook; every move but a king step
	// off the a-file (or a block) loses the king. Black has such moves.
	r := search(t, "k7/8/8/8/8/8/8/R3K3 b - - 0 1", Limits{Depth: 2})
	if CaptureDistance(r.Score) != 0 {
		t.Fatalf("score %d: black can step aside, want an ordinary score", r.Score)
	}
	if r.Best.From != chess.A8 || r.Best.To.File() == 0 {
		t.Fatalf("best %v, want the king off the a-file", r.Best)
	}
}

func TestForcedKingCapture(t *testing.T) {
	// Back-rank mate in one for White (Re1-e8): after it Black cannot stop
	// the king capture, so White captures on its 2nd move.
	r := search(t, "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", Limits{Depth: 3})
	if got := CaptureDistance(r.Score); got != 2 {
		t.Fatalf("score %d (distance %d, best %v), want distance 2", r.Score, got, r.Best)
	}
	if r.Best.String() != "e1e8" {
		t.Fatalf("best %v, want e1e8", r.Best)
	}
}

func TestWinsHangingQueen(t *testing.T) {
	r := search(t, "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", Limits{Depth: 2})
	if r.Best.String() != "d2d5" || r.Score < 500 {
		t.Fatalf("got %v %d, want d2d5 winning a queen", r.Best, r.Score)
	}
}

func TestCaptureDistance(t *testing.T) {
	for _, c := range []struct{ score, want int }{
		{Win, 1}, {Win - 2, 2}, {Win - 4, 3}, {-(Win - 1), -1}, {-(Win - 3), -2}, {150, 0}, {-150, 0},
	} {
		if got := CaptureDistance(c.score); got != c.want {
			t.Errorf("CaptureDistance(%d) = %d, want %d", c.score, got, c.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	fen := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	a := search(t, fen, Limits{Depth: 3})
	b := search(t, fen, Limits{Depth: 3})
	if a != b {
		t.Fatalf("two searches differ: %+v vs %+v", a, b)
	}
}

func TestNodeLimit(t *testing.T) {
	fen := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	r := search(t, fen, Limits{Nodes: 2000})
	if r.Depth < 1 {
		t.Fatalf("depth %d, want at least 1", r.Depth)
	}
	full := search(t, fen, Limits{Depth: r.Depth + 1})
	if full.Nodes <= 2000 {
		t.Skipf("depth %d needs only %d nodes", r.Depth+1, full.Nodes)
	}
	// The node limit stops the search soon after it is reached.
	if r.Nodes > 2000+2048 {
		t.Fatalf("searched %d nodes with a limit of 2000", r.Nodes)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Search(ctx, chess.StartBoard(), Limits{Depth: 3})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	// The deadline and the margin grow by the time the process waited for
	// a CPU (package stall), which a starved machine adds to any search
	// (a plain 50 ms deadline can pass before the search starts).
	ctx, cancel = stall.WithWorkTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	probe := stall.Start()
	start := time.Now()
	r, err := New().Search(ctx, chess.StartBoard(), Limits{Depth: 30})
	if err != nil {
		t.Fatal(err)
	}
	if el, stalled := time.Since(start), probe.Stop(); el > time.Second+stall.Allowance(stalled) {
		t.Fatalf("search took %v after a 50ms deadline, having waited only %v for a CPU", el, stalled)
	}
	if r.Depth < 1 || r.Depth >= 30 {
		t.Fatalf("depth %d", r.Depth)
	}
}

func TestEvaluateSymmetric(t *testing.T) {
	w := chess.MustParseFEN("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	// The same position with colours swapped and the board mirrored.
	b := chess.MustParseFEN("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4")
	if Evaluate(&w) != Evaluate(&b) {
		t.Fatalf("mirror evaluations differ: %d vs %d", Evaluate(&w), Evaluate(&b))
	}
	s := chess.StartBoard()
	if Evaluate(&s) != tempo {
		t.Fatalf("start position scores %d, want the tempo %d", Evaluate(&s), tempo)
	}
}

func BenchmarkSearchDefault(b *testing.B) {
	fens := []string{
		chess.StartFEN,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r3k2r/pp1n1ppp/2p1pn2/q7/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQkq - 2 9",
		"6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
	}
	boards := make([]chess.Board, len(fens))
	for i, f := range fens {
		boards[i] = chess.MustParseFEN(f)
	}
	e := New()
	ctx := context.Background()
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := e.Search(ctx, boards[i%len(boards)], Limits{})
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.Nodes
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/eval")
}
