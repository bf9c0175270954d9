package chess_test

import (
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chess/chesstest"
	refchess "github.com/corentings/chess/v2"
)

// perft counts the leaf nodes of the legal-move tree of the given depth.
func perft(b *chess.Board, depth int, buf [][]chess.Move) int {
	moves := chess.AppendLegalMoves(b, buf[0][:0])
	buf[0] = moves
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		c := *b
		c.Apply(m)
		n += perft(&c, depth-1, buf[1:])
	}
	return n
}

func runPerft(fen string, depth int) int {
	b := chess.MustParseFEN(fen)
	buf := make([][]chess.Move, depth)
	for i := range buf {
		buf[i] = make([]chess.Move, 0, 256)
	}
	return perft(&b, depth, buf)
}

// TestPerftCountsMatchKnownValues counts the legal-move trees of the perft
// positions and compares them with the published numbers. In -short mode it
// skips the counts above 100 000.
func TestPerftCountsMatchKnownValues(t *testing.T) {
	start := time.Now()
	nodes := 0
	for _, p := range chesstest.Perft() {
		for d, want := range p.Counts {
			if want == 0 || (testing.Short() && want > 100000) {
				continue
			}
			if got := runPerft(p.FEN, d+1); got != want {
				t.Errorf("%s depth %d: %d, want %d", p.Name, d+1, got, want)
			}
			nodes += want
		}
	}
	el := time.Since(start)
	t.Logf("%d leaf nodes in %v (%.1f M/s)", nodes, el.Round(time.Millisecond), float64(nodes)/el.Seconds()/1e6)
}

// legalByPlaying is the slow, obviously correct legal-move filter: each of
// rbc's pseudo-legal options is played, and kept when the mover's king is
// not attacked afterwards; castling may not start in or cross an attacked
// square.
func legalByPlaying(b *chess.Board) []chess.Move {
	us, them := b.Turn(), b.Turn().Other()
	var out []chess.Move
	for _, m := range b.AppendOptions(nil) {
		if m.IsNull() {
			continue
		}
		if b.PieceAt(m.From).Type() == chess.King && (m.To-m.From == 2 || m.From-m.To == 2) {
			if b.Attacked(m.From, them) || b.Attacked((m.From+m.To)/2, them) {
				continue
			}
		}
		c := *b
		c.Apply(m)
		if c.Attacked(c.KingSquare(us), them) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// TestLegalMovesEqualSlowFilterAndOracle compares, at every node of a tree
// below each perft position, the generator's moves with the play-and-look
// filter over rbc's pseudo-legal moves, and (nearer the root) with an
// independent chess library; and checks Checkers, IsCheckmate and
// IsStalemate against the definitions.
func TestLegalMovesEqualSlowFilterAndOracle(t *testing.T) {
	nodes := 0
	const depth = 2
	chesstest.WalkLegal(depth, func(b *chess.Board, d int) {
		nodes++
		got := moveStrings(chess.LegalMoves(b))
		if want := moveStrings(legalByPlaying(b)); !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves differ\n ours %v\n slow %v", b.FEN(), got, want)
		}
		if d >= depth-1 { // the oracle is slow: the root and its children
			var pos refchess.Position
			if err := pos.UnmarshalText([]byte(b.FEN())); err != nil {
				t.Fatalf("oracle cannot read %q: %v", b.FEN(), err)
			}
			var want []string
			for _, m := range pos.ValidMoves() {
				want = append(want, m.String())
			}
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: legal moves differ\n ours   %v\n oracle %v", b.FEN(), got, want)
			}
		}
		inCheck := b.Attacked(b.KingSquare(b.Turn()), b.Turn().Other())
		if chess.InCheck(b) != inCheck {
			t.Fatalf("%s: InCheck %v, want %v", b.FEN(), chess.InCheck(b), inCheck)
		}
		if chess.IsCheckmate(b) != (inCheck && len(got) == 0) || chess.IsStalemate(b) != (!inCheck && len(got) == 0) {
			t.Fatalf("%s: mate/stalemate wrong", b.FEN())
		}
		for _, m := range chess.LegalMoves(b) {
			if !chess.IsLegal(b, m) {
				t.Fatalf("%s: IsLegal(%s) is false", b.FEN(), m)
			}
		}
	})
	t.Logf("%d positions compared", nodes)
}

// TestIsLegalRejectsNonMoves checks the moves IsLegal must refuse: null,
// off the board, from an empty or enemy square, a bare promotion.
func TestIsLegalRejectsNonMoves(t *testing.T) {
	b := chess.MustParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	for _, m := range []chess.Move{
		{},
		{From: -1, To: chess.E2},
		{From: chess.E1, To: 64},
		{From: chess.A1, To: chess.A2},
		{From: chess.E8, To: chess.E7},
		{From: chess.B7, To: chess.B8},
		{From: chess.B7, To: chess.B8, Promotion: chess.King},
	} {
		if chess.IsLegal(&b, m) {
			t.Errorf("IsLegal(%v) = true", m)
		}
	}
	if !chess.IsLegal(&b, chess.Move{From: chess.B7, To: chess.B8, Promotion: chess.Knight}) {
		t.Error("b7b8n is not legal")
	}
}

// BenchmarkLegalMoves measures the generator on Kiwipete.
func BenchmarkLegalMoves(b *testing.B) {
	pos := chess.MustParseFEN(chesstest.Perft()[1].FEN)
	buf := make([]chess.Move, 0, 256)
	for b.Loop() {
		buf = chess.AppendLegalMoves(&pos, buf[:0])
	}
}

// moveStrings returns the moves' UCI names, sorted.
func moveStrings(ms []chess.Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	slices.Sort(out)
	return out
}
