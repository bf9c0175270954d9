package chess

import (
	"slices"
	"testing"

	refchess "github.com/corentings/chess/v2"
)

// Perft cross-checks. RBC moves restricted to the chess-legal ones must be
// exactly the legal moves of chess, which an independent library computes.

// legalChessMoves filters the options to the moves chess allows: the mover's
// king may not be attacked afterwards, and castling may not start in, pass
// through or end in check.
func legalChessMoves(b *Board) []Move {
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

func perft(b *Board, depth int) int {
	moves := legalChessMoves(b)
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		c := *b
		c.Apply(m)
		n += perft(&c, depth-1)
	}
	return n
}

var perftSuite = []struct {
	name   string
	fen    string
	counts []int // by depth, from 1
}{
	{"start", StartFEN, []int{20, 400, 8902, 197281, 4865609}},
	{"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", []int{48, 2039, 97862, 4085603}},
	{"position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", []int{14, 191, 2812, 43238, 674624}},
	{"position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", []int{6, 264, 9467, 422333}},
	{"position4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", []int{6, 264, 9467}},
	{"position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", []int{44, 1486, 62379, 2103487}},
	{"position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", []int{46, 2079, 89890, 3894594}},
}

// TestPerftCountsMatchKnownValues counts legal move paths on the standard
// perft positions and compares them with the published numbers.
func TestPerftCountsMatchKnownValues(t *testing.T) {
	for _, p := range perftSuite {
		b := MustParseFEN(p.fen)
		for d, want := range p.counts {
			if testing.Short() && want > 100000 {
				continue
			}
			if got := perft(&b, d+1); got != want {
				t.Errorf("%s depth %d: %d, want %d", p.name, d+1, got, want)
			}
		}
	}
}

// TestLegalMovesEqualOracleLibrary compares, at every node of a shallow tree
// below each perft position, our chess-legal moves with the legal moves of an
// independent chess library, move by move.
func TestLegalMovesEqualOracleLibrary(t *testing.T) {
	nodes := 0
	var walk func(fen string, depth int)
	walk = func(fen string, depth int) {
		b := MustParseFEN(fen)
		var pos refchess.Position
		if err := pos.UnmarshalText([]byte(fen)); err != nil {
			t.Fatalf("oracle cannot read %q: %v", fen, err)
		}
		var want []string
		for _, m := range pos.ValidMoves() {
			want = append(want, m.String())
		}
		var got []string
		for _, m := range legalChessMoves(&b) {
			got = append(got, m.String())
		}
		slices.Sort(got)
		slices.Sort(want)
		nodes++
		if !slices.Equal(got, want) {
			t.Fatalf("%s: legal moves differ\n ours   %v\n oracle %v", fen, got, want)
		}
		if depth == 0 {
			return
		}
		for _, m := range legalChessMoves(&b) {
			c := b
			c.Apply(m)
			walk(c.FEN(), depth-1)
		}
	}
	for _, p := range perftSuite {
		walk(p.fen, 2)
	}
	t.Logf("%d positions compared", nodes)
}
