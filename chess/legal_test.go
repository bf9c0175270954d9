package chess

import (
	"slices"
	"testing"
	"time"

	refchess "github.com/corentings/chess/v2"
)

// perft counts the leaf nodes of the legal-move tree of the given depth.
func perft(b *Board, depth int, buf [][]Move) int {
	moves := AppendLegalMoves(b, buf[0][:0])
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
	b := MustParseFEN(fen)
	buf := make([][]Move, depth)
	for i := range buf {
		buf[i] = make([]Move, 0, 256)
	}
	return perft(&b, depth, buf)
}

// perftSuite holds the standard perft positions (chessprogramming.org's
// "Perft Results" page) and the special-case suite that goes with them
// (Martin Sedlak's tests of en passant, castling, promotion and stalemate
// corners), with their published node counts by depth from 1; a 0 skips a depth.
var perftSuite = []struct {
	name   string
	fen    string
	counts []int
}{
	{"start", StartFEN, []int{20, 400, 8902, 197281, 4865609}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{48, 2039, 97862, 4085603}},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int{14, 191, 2812, 43238, 674624}},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int{6, 264, 9467, 422333}},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int{6, 264, 9467, 422333}},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int{44, 1486, 62379, 2103487}},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int{46, 2079, 89890, 3894594}},
	{"illegal-ep-1", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", []int{0, 0, 0, 0, 0, 1134888}},
	{"illegal-ep-2", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", []int{0, 0, 0, 0, 0, 1015133}},
	{"ep-gives-check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", []int{0, 0, 0, 0, 0, 1440467}},
	{"short-castle-check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", []int{0, 0, 0, 0, 0, 661072}},
	{"long-castle-check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", []int{0, 0, 0, 0, 0, 803711}},
	{"castle-rights", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", []int{0, 0, 0, 1274206}},
	{"castle-prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", []int{0, 0, 0, 1720476}},
	{"promote-out-of-check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", []int{0, 0, 0, 0, 0, 3821001}},
	{"discovered-check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", []int{0, 0, 0, 0, 1004658}},
	{"promote-to-check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", []int{0, 0, 0, 0, 0, 217342}},
	{"underpromote-to-check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 92683}},
	{"self-stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 2217}},
	{"stalemate-checkmate-1", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", []int{0, 0, 0, 0, 0, 0, 567584}},
	{"stalemate-checkmate-2", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", []int{0, 0, 0, 23527}},
}

// TestPerftCountsMatchKnownValues counts the legal-move trees of the perft
// positions and compares them with the published numbers. In -short mode it
// skips the counts above 100 000.
func TestPerftCountsMatchKnownValues(t *testing.T) {
	start := time.Now()
	nodes := 0
	for _, p := range perftSuite {
		for d, want := range p.counts {
			if want == 0 || (testing.Short() && want > 100000) {
				continue
			}
			if got := runPerft(p.fen, d+1); got != want {
				t.Errorf("%s depth %d: %d, want %d", p.name, d+1, got, want)
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
func legalByPlaying(b *Board) []Move {
	us, them := b.Turn(), b.Turn().Other()
	var out []Move
	for _, m := range b.AppendOptions(nil) {
		if m.IsNull() {
			continue
		}
		if b.PieceAt(m.From).Type() == King && (m.To-m.From == 2 || m.From-m.To == 2) {
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
	walkPerft(depth, func(b *Board, d int) {
		nodes++
		got := moveStrings(LegalMoves(b))
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
		if InCheck(b) != inCheck {
			t.Fatalf("%s: InCheck %v, want %v", b.FEN(), InCheck(b), inCheck)
		}
		if IsCheckmate(b) != (inCheck && len(got) == 0) || IsStalemate(b) != (!inCheck && len(got) == 0) {
			t.Fatalf("%s: mate/stalemate wrong", b.FEN())
		}
		for _, m := range LegalMoves(b) {
			if !IsLegal(b, m) {
				t.Fatalf("%s: IsLegal(%s) is false", b.FEN(), m)
			}
		}
	})
	t.Logf("%d positions compared", nodes)
}

// TestIsLegalRejectsNonMoves checks the moves IsLegal must refuse: null,
// off the board, from an empty or enemy square, a bare promotion.
func TestIsLegalRejectsNonMoves(t *testing.T) {
	b := MustParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	for _, m := range []Move{
		{},
		{From: -1, To: E2},
		{From: E1, To: 64},
		{From: A1, To: A2},
		{From: E8, To: E7},
		{From: B7, To: B8},
		{From: B7, To: B8, Promotion: King},
	} {
		if IsLegal(&b, m) {
			t.Errorf("IsLegal(%v) = true", m)
		}
	}
	if !IsLegal(&b, Move{From: B7, To: B8, Promotion: Knight}) {
		t.Error("b7b8n is not legal")
	}
}

// BenchmarkLegalMoves measures the generator on Kiwipete.
func BenchmarkLegalMoves(b *testing.B) {
	pos := MustParseFEN(perftSuite[1].fen)
	buf := make([]Move, 0, 256)
	for b.Loop() {
		buf = AppendLegalMoves(&pos, buf[:0])
	}
}

// walkPerft calls visit on every board of the perft suite's trees down to
// depth plies, each tree in preorder, with the plies left below the board.
func walkPerft(depth int, visit func(b *Board, left int)) {
	var walk func(b Board, d int)
	walk = func(b Board, d int) {
		visit(&b, d)
		if d == 0 {
			return
		}
		for _, m := range LegalMoves(&b) {
			c := b
			c.Apply(m)
			walk(c, d-1)
		}
	}
	for _, p := range perftSuite {
		walk(MustParseFEN(p.fen), depth)
	}
}
