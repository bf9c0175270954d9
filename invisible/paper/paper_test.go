package paper

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"
)

// TestWilson: the interval's known values and its bounds.
func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{{50, 100, 40.38, 59.62}, {0, 10, 0, 27.75}, {10, 10, 72.25, 100}, {0, 0, 0, 100}} {
		lo, hi := Wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 0.01 || math.Abs(hi-tc.hi) > 0.01 {
			t.Errorf("Wilson(%d, %d) = %.2f..%.2f, want %.2f..%.2f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

// TestTable1Small plays the round robin at one decisive game a pairing and
// checks the table's layout: 28 pairings, every off-diagonal cell with the
// paper's figure beside it.
func TestTable1Small(t *testing.T) {
	ps, err := Table1(context.Background(), Options{Decisive: 1, MaxGames: 4, Jobs: 2, Seed: 7, Bot: "advisor"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 28 {
		t.Fatalf("%d pairings", len(ps))
	}
	var buf bytes.Buffer
	WriteTable1(&buf, ps)
	out := buf.String()
	for _, want := range []string{"| 1B | – | ", "(61.0)", "(98.2)", "| N.I. | ", "of 28 pairings on the paper's side of 50 %"} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

// TestTable2AndFigure3Small: the other two, at a few games a cell.
func TestTable2AndFigure3Small(t *testing.T) {
	cells, err := Table2(context.Background(), Options{Games: 2, Jobs: 2, Seed: 3, Bot: "advisor"})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 12 {
		t.Fatalf("%d cells, want 12", len(cells))
	}
	var buf bytes.Buffer
	WriteTable2(&buf, cells)
	if !strings.Contains(buf.String(), "(82.7)") || !strings.Contains(buf.String(), "| 50 | ") {
		t.Errorf("table 2:\n%s", buf.String())
	}
	pts, n, err := Figure3(context.Background(), Options{Games: 6, Jobs: 2, Seed: 3, Bot: "advisor"})
	if err != nil || n != 6 {
		t.Fatal(n, err)
	}
	buf.Reset()
	if err := WriteFigure3SVG(&buf, pts); err != nil || !strings.HasPrefix(buf.String(), "<svg") || strings.Count(buf.String(), "<circle") != 2*len(pts)+2 {
		t.Errorf("figure 3's SVG (%d points): %v", len(pts), err)
	}
}
