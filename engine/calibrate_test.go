package engine

import (
	"context"
	"math"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestPriorCalibration: the belief's shares go to Expected, the true board's
// class to Observed, and the implied temperature inverts the prior's factor.
func TestPriorCalibration(t *testing.T) {
	const (
		loose    = "4k3/8/8/4n3/3Q4/8/8/4K3 w - - 0 1" // the knight hangs to the queen
		defended = "4k3/8/5p2/4n3/3Q4/8/8/4K3 w - - 0 1"
	)
	f := newFixed(t, loose, defended, defended, defended)
	c := NewPriorCalibration()
	truth := f.boards[1]
	for range 3 {
		if err := c.Observe(context.Background(), f, &truth, chess.White, chess.NoSquare); err != nil {
			t.Fatal(err)
		}
	}
	truth = f.boards[0]
	if err := c.Observe(context.Background(), f, &truth, chess.White, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	none, minor := c.Hang[0], c.Hang[2]
	if c.Turns != 4 || none.Expected != 3 || minor.Expected != 1 || none.Observed != 3 || minor.Observed != 1 {
		t.Fatalf("counts: %+v", c.Hang)
	}
	// Calibrated: the true board is loose as often as the belief says.
	if r := minor.Ratio() / none.Ratio(); r != 1 {
		t.Errorf("relative ratio %v, want 1", r)
	}
	if !math.IsNaN(c.ImpliedHang(2)) {
		t.Errorf("implied hang %v for a ratio of 1, want NaN", c.ImpliedHang(2))
	}
	// Half as often as the belief says: exp(−320/T) = 1/2.
	c.Hang[2].Observed = 0.5
	if got, want := c.ImpliedHang(2), 320/math.Ln2; math.Abs(got-want) > 1e-9 {
		t.Errorf("implied hang %v, want %v", got, want)
	}
	// A king left en prise is a class of its own, apart from the queen.
	for fen, want := range map[string]string{
		"4k3/8/8/8/8/8/8/4R1K1 w - - 0 1": "king",
		"q3k3/8/8/8/8/8/8/R3K3 w - - 0 1": "queen",
	} {
		b := newFixed(t, fen).boards[0]
		if k := hangClass(&b, chess.White, chess.NoSquare); hangNames[k] != want {
			t.Errorf("hang class of %s: %q, want %q", fen, hangNames[k], want)
		}
	}
	// No black piece bears on the zone of the king on e1.
	if z := c.Zone[0]; z.Expected != 4 || z.Observed != 4 {
		t.Errorf("zone class 0: %+v", z)
	}
}

// TestPressureClass: what the opponent could win from us at once, with our
// king attacked left to the threat feature.
func TestPressureClass(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		want      int
	}{
		{"our queen attacked by a knight", "4k3/8/8/8/4n3/8/3Q4/4K3 w - - 0 1", 4},
		{"our rook attacked by a pawn, defended", "4k3/8/8/3p4/4R3/4R3/8/4K3 w - - 0 1", 3},
		{"our knight attacked by a rook, defended by a pawn", "4k3/8/8/8/r3N3/5P2/8/4K3 w - - 0 1", 0},
		{"nothing attacked", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
		{"our king and queen forked", "4k3/8/8/8/3Q4/5n2/8/4K3 w - - 0 1", 0},
		{"the same queen, no check", "4k3/8/8/8/3Q4/5n2/8/K7 w - - 0 1", 4},
	} {
		b := mustFEN(t, tc.fen)
		if got := pressureClass(&b, chess.White); got != tc.want {
			t.Errorf("%s: class %d, want %d", tc.name, got, tc.want)
		}
	}
}
