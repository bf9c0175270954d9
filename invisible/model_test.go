package invisible

import (
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestModelWeights: the uniform model weighs every move alike; the greedy
// one puts a capture of the queen above a quiet move, a check above a
// quiet move, a move onto a square a pawn guards below one, and never
// gives a move weight 0.
func TestModelWeights(t *testing.T) {
	// White's knight on e4: c3 takes the queen, f6 checks the king on g8
	// (the e5 pawn shuts the queen's diagonal), c5 is guarded by the b6
	// pawn, g5 is quiet.
	b := chess.MustParseFEN("6k1/8/1p6/4p3/4N3/2q5/8/7K w - - 0 1")
	moves := []chess.Move{mv(t, "e4c3"), mv(t, "e4f6"), mv(t, "e4c5"), mv(t, "e4g5")}
	u := Uniform.weights(&b, moves, nil)
	for _, w := range u {
		if w != u[0] {
			t.Fatalf("uniform weights %v", u)
		}
	}
	g := Greedy.weights(&b, moves, nil)
	take, check, guarded, quiet := g[0], g[1], g[2], g[3]
	if !(take > check && check > quiet && quiet > guarded && guarded > 0) {
		t.Errorf("greedy weights: take %v, check %v, guarded %v, quiet %v", take, check, guarded, quiet)
	}
}

// TestParseModel: the names round-trip, and a wrong one says what it wants.
func TestParseModel(t *testing.T) {
	for _, m := range Models() {
		if got, err := ParseModel(m.String()); err != nil || got != m {
			t.Errorf("%v: %v %v", m, got, err)
		}
	}
	if _, err := ParseModel("clever"); err == nil {
		t.Error("clever: no error")
	}
}
