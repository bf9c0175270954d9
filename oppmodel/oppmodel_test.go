package oppmodel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestHangingValue: an undefended piece we attack counts whole, a defended
// one counts its value less our cheapest attacker's, and the piece that has
// just captured ours is left out.
func TestHangingValue(t *testing.T) {
	cases := []struct {
		name, fen string
		skip      chess.Square
		want      float64
	}{
		{"undefended knight attacked by the queen", "4k3/8/8/4n3/3Q4/8/8/4K3 w - - 0 1", chess.NoSquare, 320},
		{"knight defended by a pawn, attacked by the queen", "4k3/8/5p2/4n3/3Q4/8/8/4K3 w - - 0 1", chess.NoSquare, 0},
		{"defended rook attacked by a pawn", "4k3/8/2p5/3r4/4P3/8/8/4K3 w - - 0 1", chess.NoSquare, 400},
		{"undefended rook attacked by a pawn", "4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1", chess.NoSquare, 500},
		{"nothing attacked", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", chess.NoSquare, 0},
		{"the capturing knight is left out", "4k3/8/8/4n3/3Q4/8/8/4K3 w - - 0 1", chess.E5, 0},
		{"an undefended piece next to our king", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", chess.NoSquare, 320},
		{"a defended piece next to our king", "4k3/8/8/8/8/2b5/3n4/4K3 w - - 0 1", chess.NoSquare, 0},
		{"the enemy king in reach counts as the cap", "8/8/8/8/8/2k5/1Q6/4K3 w - - 0 1", chess.NoSquare, HangCap},
	}
	for _, c := range cases {
		b := chess.MustParseFEN(c.fen)
		if got := HangingValue(&b, chess.White, c.skip); got != c.want {
			t.Errorf("%s: hanging value %v, want %v", c.name, got, c.want)
		}
	}
}

// TestPriorityKeepsInProportion: of boards of weights 1 and 4 whose
// priorities are at least a threshold well above both, those of weight 4
// are kept four times as often, and the kept boards' Stands add up to how
// many boards there were.
func TestPriorityKeepsInProportion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, tau = 200_000, 40.0
	kept := [2]int{}
	stands := 0.0
	for i := range n {
		w := 1.0
		if i%2 == 1 {
			w = 4
		}
		if p := Priority(rng.Uint64(), w); p >= tau {
			kept[i%2]++
			stands += Stands(w, tau)
		}
	}
	// Expected: n/2 · w/τ kept of each, 2,500 and 10,000.
	if r := float64(kept[1]) / float64(kept[0]); r < 3.6 || r > 4.4 {
		t.Errorf("kept %d of weight 1 and %d of weight 4: ratio %.2f, want about 4", kept[0], kept[1], r)
	}
	if math.Abs(stands-n)/n > 0.05 {
		t.Errorf("the kept boards stand for %.0f, want about %d", stands, n)
	}
	// A weight past the threshold always keeps its board.
	for range 1000 {
		if Priority(rng.Uint64(), tau) < tau {
			t.Fatal("a board of weight τ was dropped")
		}
	}
}

// TestStaticWeight: a board on which the opponent bears on our king weighs
// more than a quiet one, a check more still, one on which it left a piece en
// prise less, and the piece that has just captured is exempt; under the near
// factor, a piece nearer our king weighs e^Near a king step more.
func TestStaticWeight(t *testing.T) {
	s := Default(chess.White, chess.NoSquare)
	quiet := chess.MustParseFEN("4k3/8/8/3n4/8/8/8/4K3 w - - 0 1")
	near := chess.MustParseFEN("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1")   // the knight on d3 attacks f2, in our king's zone
	hangs := chess.MustParseFEN("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1") // our rook takes the loose knight
	if w := s.Weight(&quiet); w != 1 {
		t.Errorf("quiet board: weight %v, want 1", w)
	}
	if wq, wn := s.Weight(&quiet), s.Weight(&near); wn <= wq {
		t.Errorf("knight near our king: weight %v, not above the quiet board's %v", wn, wq)
	}
	if w, want := s.Weight(&hangs), math.Exp(-320.0/DefaultHang); math.Abs(w-want) > 1e-12 {
		t.Errorf("loose knight: weight %v, want %v", w, want)
	}
	if w := Default(chess.White, chess.D5).Weight(&hangs); w != 1 {
		t.Errorf("the knight that just captured on d5: weight %v, want 1", w)
	}
	far := chess.MustParseFEN("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1") // the knight on b8 is 7 king steps from e1, on d3 2
	if w, want := Kriegspiel(chess.White).Weight(&near)/Kriegspiel(chess.White).Weight(&far), math.Exp(5*KriegspielNear); math.Abs(w-want) > 1e-9 {
		t.Errorf("near factor: the knight on d3 weighs %v times the one on b8, want %v", w, want)
	}
	if (Static{Us: chess.White}).Weight(&hangs) != 1 || !(Static{Us: chess.White}).Off() {
		t.Error("a prior of zero strengths should weigh every board 1")
	}
}
