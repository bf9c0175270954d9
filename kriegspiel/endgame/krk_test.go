package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/kriegspiel"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestKRKTable checks the distance-to-mate table against facts of the
// ending: the longest win is 16 moves, a mated king is at 0, a king that
// can take the rook or is stalemated is not won, and a mate in one is 1.
func TestKRKTable(t *testing.T) {
	sq := func(s string) rbc.Square {
		return rbc.MakeSquare(int(s[0]-'a'), int(s[1]-'1'))
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
			fens = append(fens, randomPosition(rng, rbc.Rook))
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
