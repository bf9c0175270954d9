package match

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestEloFromScores checks the Elo difference and its interval against
// values computed by hand.
func TestEloFromScores(t *testing.T) {
	// 75%: −400·log10(1/3) = 190.85.
	if e := EloDiff(0.75); !near(e, 190.85, 0.01) {
		t.Errorf("EloDiff(0.75) = %v", e)
	}
	if e := EloDiff(0.5); e != 0 {
		t.Errorf("EloDiff(0.5) = %v", e)
	}
	if !math.IsInf(EloDiff(1), 1) || !math.IsInf(EloDiff(0), -1) {
		t.Error("EloDiff at 0% and 100% is not infinite")
	}
	// Score inverts EloDiff.
	for _, elo := range []float64{-400, -10, 0, 10, 190.85, 800} {
		if got := EloDiff(Score(elo)); !near(got, elo, 1e-9) {
			t.Errorf("EloDiff(Score(%v)) = %v", elo, got)
		}
	}
	// Wilson, p = 0.5, n = 100: 0.5 ± 0.0962 (textbook value).
	lo, hi := Wilson(0.5, 100, Z95)
	if !near(lo, 0.4038, 1e-4) || !near(hi, 0.5962, 1e-4) {
		t.Errorf("Wilson(0.5, 100) = %v, %v", lo, hi)
	}
	// 50 wins, 50 losses: 0 with a symmetric interval of about ±67.
	e := EstimateElo(50, 0, 50)
	if e.Elo != 0 || !near(e.Lo, -e.Hi, 1e-9) || !near(e.Hi, 67.4, 0.5) {
		t.Errorf("50/0/50: %+v", e)
	}
	// 100 of 100: +inf, with the lower bound at the Wilson bound 0.96301 → +566.
	e = EstimateElo(100, 0, 0)
	if !math.IsInf(e.Elo, 1) || !math.IsInf(e.Hi, 1) || !near(e.Lo, 566, 1) {
		t.Errorf("100/0/0: %+v", e)
	}
	if got := e.Interval(); got != "+566..+inf" {
		t.Errorf("interval %q", got)
	}
	// Small samples too: 10 of 10 is +inf with a finite lower bound only.
	if got := EstimateElo(10, 0, 0).Interval(); got != "+166..+inf" {
		t.Errorf("10/0/0 interval %q", got)
	}
	if got := EstimateElo(0, 0, 10).Interval(); got != "-inf..-166" {
		t.Errorf("0/0/10 interval %q", got)
	}
	// Draws count half: 10 draws is 50%.
	if e := EstimateElo(0, 10, 0); e.Elo != 0 {
		t.Errorf("all draws: %+v", e)
	}
	if EstimateElo(0, 0, 0).Interval() != "-" {
		t.Error("no games: an interval")
	}
	if FormatElo(math.NaN()) != "-" || FormatElo(-0.4) != "0" || FormatElo(12.6) != "+13" || FormatElo(-12.6) != "-13" {
		t.Error("FormatElo")
	}
}
