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

// TestScoreModels: on the committed records, both models score the same
// positions, against every kind of opponent and all together, with
// probabilities in (0, 1] and the log-loss that goes with them; the greedy
// model predicts the truth better than the uniform one (in mean probability
// and in log-loss), as docs/invisible.md reports.
func TestScoreModels(t *testing.T) {
	scores, err := ScoreModels(context.Background(), []string{"../../testdata/invisible/games.tar.gz"})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]map[string]ModelScore{}
	for _, s := range scores {
		if by[s.Opponent] == nil {
			by[s.Opponent] = map[string]ModelScore{}
		}
		by[s.Opponent][s.Model.String()] = s
		if s.Positions == 0 || s.MeanP <= 0 || s.MeanP > 1 || s.LogLoss < -math.Log2(s.MeanP)-1e-9 {
			t.Errorf("%+v", s)
		}
	}
	for _, opp := range []string{"all", "advisor", "random"} {
		u, g := by[opp]["uniform"], by[opp]["greedy"]
		if u.Positions == 0 || u.Positions != g.Positions {
			t.Errorf("%s: %d and %d positions", opp, u.Positions, g.Positions)
		}
	}
	if u, g := by["all"]["uniform"], by["all"]["greedy"]; g.MeanP <= u.MeanP || g.LogLoss >= u.LogLoss {
		t.Errorf("greedy %+v against uniform %+v", g, u)
	}
	var buf bytes.Buffer
	WriteModels(&buf, scores)
	if !strings.Contains(buf.String(), "| all | greedy | ") {
		t.Errorf("the table:\n%s", buf.String())
	}
}
