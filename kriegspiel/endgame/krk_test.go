package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// TestKRKTable checks the distance-to-mate table against facts of the
// ending: the longest win is 16 moves, a mated king is at 0, a king that
// can take the rook or is stalemated is not won, and a mate in one is 1.
func TestKRKTable(t *testing.T) {
	sq := func(s string) chess.Square {
		return chess.MakeSquare(int(s[0]-'a'), int(s[1]-'1'))
	}
	longest := 0
	tb := krk()
	for _, v := range tb {
		if v != krkDraw {
			longest = max(longest, int(v))
		}
	}
	if longest != 16 {
		t.Errorf("longest win %d moves, want 16", longest)
	}
	for _, c := range []struct {
		k, r, e string
		want    int
	}{
		{"a6", "h8", "a8", 0},       // mated on the edge
		{"c8", "h7", "a8", krkDraw}, // stalemated in the corner
		{"c2", "b2", "a1", krkDraw}, // the king takes the rook
		{"c7", "h1", "a8", 1},       // Ka7 is forced, and Ra1 mates
		{"b6", "h1", "b8", 2},       // Ka8 Rh8 mates, but Kc8 runs
	} {
		if got := krkMoves(sq(c.k), sq(c.r), sq(c.e)); got != c.want {
			t.Errorf("K%s R%s, king %s to move: %d moves, want %d", c.k, c.r, c.e, got, c.want)
		}
	}
}

// TestRookEndingMates plays out generated KRK positions that the general
// score drew by the fifty-move rule — the random king in a belief the
// rook's cross kept at forty squares, the adversarial one circled by our
// king — and checks that the two-phase rook play mates each of them.
func TestRookEndingMates(t *testing.T) {
	rules := kriegspiel.Wild16().WithChessDraws()
	for _, c := range []struct {
		defender string
		games    []int // indices into the positions generated from seed 7
	}{
		{"random", []int{1, 9, 14, 18}},
		{"adversarial", []int{11, 12, 14}},
	} {
		rng := rand.New(rand.NewPCG(7, 1))
		var fens []string
		for range 20 {
			fens = append(fens, randomPosition(rng, chess.Rook))
		}
		for _, i := range c.games {
			var d defender = adversary{rand.New(rand.NewPCG(7, uint64(i)))}
			if c.defender == "random" {
				d = randomDefender{rand.New(rand.NewPCG(7, uint64(i)))}
			}
			p := play(rules, fens[i], d, 7+uint64(i), 60)
			if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.err != nil {
				t.Errorf("%s vs the %s king: %s after %d moves (belief lost %v, err %v)",
					fens[i], c.defender, p.end, p.moves, p.missed, p.err)
			}
		}
	}
}

// TestSweepFormation checks the wide phase's formation: a rook on an edge
// with every square beyond its line is a wall, our king in front of it is
// in formation, and with no wall the rook's lines from an edge count.
func TestSweepFormation(t *testing.T) {
	above := func(rank int) chess.Bitboard { // the squares above rank
		var bb chess.Bitboard
		for s := chess.MakeSquare(0, rank+1); s < 64; s++ {
			bb |= s.Bit()
		}
		return bb
	}
	for _, c := range []struct {
		name   string
		k, r   string
		set    chess.Bitboard
		d      int
		walled bool
	}{
		{"in front of the rook on the first rank", "e2", "e1", above(1), 0, true},
		{"a step ahead, the rook to come up", "e3", "e1", above(2), 1, true},
		{"a wall on the a-file", "b4", "a4", above(-1) &^ fileA(), 0, true},
		{"a square behind the wall: the king is in front of the rook's landing", "e2", "e1", above(1) | sq("h1").Bit(), 0, false},
		{"the rook in the middle: three lines to the first rank, a king step", "e2", "d4", above(-1), 2*3 + 1, false},
	} {
		d, walled := formation(sq(c.k), sq(c.r), c.set)
		if d != c.d || walled != c.walled {
			t.Errorf("%s: K%s R%s: formation %d, walled %v; want %d, %v", c.name, c.k, c.r, d, walled, c.d, c.walled)
		}
	}
}

func fileA() chess.Bitboard {
	var bb chess.Bitboard
	for r := range 8 {
		bb |= chess.MakeSquare(0, r).Bit()
	}
	return bb
}

// TestRookEndingSweeps plays out generated KRK positions (the benchmark's,
// seed 1) that the herding by the squares' rectangle drew by the fifty-move
// rule against the random king — the rook beside our king in the middle of
// the board, the belief at forty squares for fifty moves — and checks that
// the sweep mates each of them.
func TestRookEndingSweeps(t *testing.T) {
	rules := kriegspiel.Wild16().WithChessDraws()
	rng := rand.New(rand.NewPCG(1, 1))
	var fens []string
	for range 90 {
		fens = append(fens, randomPosition(rng, chess.Rook))
	}
	for _, i := range []int{47, 57, 58, 67, 71, 89} {
		d := randomDefender{rand.New(rand.NewPCG(1, uint64(i)))}
		p := play(rules, fens[i], d, 1+uint64(i), 60)
		if p.end != kriegspiel.CheckmateWhiteWins || p.missed || p.err != nil {
			t.Errorf("%s (game %d): %s after %d moves (belief lost %v, err %v)", fens[i], i, p.end, p.moves, p.missed, p.err)
		}
	}
}
