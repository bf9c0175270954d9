package match

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// normalLLR is the normal approximation of the LLR for outcomes at per-game
// scores xs: N·(s1 − s0)·(2·mean − s0 − s1)/(2·var). It checks the exact
// GSPRT where the two should agree.
func normalLLR(s SPRT, counts []int, xs []float64) float64 {
	n, sum, sq := 0.0, 0.0, 0.0
	for j, c := range counts {
		n += float64(c)
		sum += float64(c) * xs[j]
		sq += float64(c) * xs[j] * xs[j]
	}
	mean := sum / n
	variance := sq/n - mean*mean
	s0, s1 := Score(s.Elo0), Score(s.Elo1)
	return n * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance)
}

var pentaScores = []float64{0, 0.25, 0.5, 0.75, 1}

func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{0, 10, 0.05, 0.05}.Bounds()
	// ln(0.05/0.95) = −ln 19 = −2.9444.
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v, want ±2.944", lo, hi)
	}
	// α = 0.05, β = 0.1: ln(0.1/0.95) = −2.2513, ln(0.9/0.05) = 2.8904.
	lo, hi = SPRT{0, 10, 0.05, 0.1}.Bounds()
	if !near(lo, -2.251292, 1e-6) || !near(hi, 2.890372, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	s := SPRT{0, 10, 0.05, 0.05}
	for llr, want := range map[float64]Verdict{0: Continue, 2.94: Continue, 2.945: Accept1, -2.945: Accept0, -2.9: Continue} {
		if got := s.Decide(llr); got != want {
			t.Errorf("Decide(%v) = %v, want %v", llr, got, want)
		}
	}
	if Accept1.String() != "H1 accepted" || Accept0.String() != "H0 accepted" || Continue.String() != "no verdict" {
		t.Error("verdict names")
	}
}

// TestLLRKnownValues: worked examples. For the balanced [5 20 50 20 5]
// (mean 0.5, per-pair variance 0.05) the normal approximation is, by hand,
// −100·0.014387²/0.1 = −0.207, and the exact LLR is close to it. For the
// strong [0 5 20 40 35] (mean 0.7625, variance 0.04672) the normal
// approximation is 100·0.014387·(1.525 − 1.014387)/(2·0.04672) = 7.86, but
// the exact LLR is far lower: LLR = N·∫ λ(s) ds from s0 to s1, and the λ of
// the maximum-likelihood step lies in (−1/(1−s), 1/s), so N pairs give at
// most N·ln(s1/s0) = N·ln(0.514387/0.5) = N·0.028365 (and at least
// −N·ln((1−s0)/(1−s1)) = −N·0.029205). With no 0–2 pair the strong penta
// reaches that cap, 100 · 0.028365 = 2.8365, just short of 2.944; twice the
// pairs cross.
func TestLLRKnownValues(t *testing.T) {
	s := SPRT{0, 10, 0.05, 0.05}
	balanced := Penta{5, 20, 50, 20, 5}
	if got := s.LLR(balanced); !near(got, -0.207, 0.01) || s.Verdict(balanced) != Continue {
		t.Errorf("balanced: LLR %v, want about -0.207", got)
	}
	strong := Penta{0, 5, 20, 40, 35}
	if got := s.LLR(strong); !near(got, 2.8365, 0.002) || s.Verdict(strong) != Continue {
		t.Errorf("strong: LLR %v (%v), want 2.8365, no verdict", got, s.Verdict(strong))
	}
	if got := s.LLR(Penta{0, 10, 40, 80, 70}); !near(got, 5.673, 0.005) || s.Decide(got) != Accept1 {
		t.Errorf("strong ×2: LLR %v, want 5.673 and H1", got)
	}
	weak := Penta{35, 40, 20, 5, 0}
	if got := s.LLR(weak); !near(got, -2.9205, 0.002) || s.Verdict(weak) != Continue {
		t.Errorf("weak: LLR %v, want -2.9205", got)
	}
	if s.Verdict(Penta{70, 80, 40, 10, 0}) != Accept0 {
		t.Errorf("weak ×2: LLR %v, want H0", s.LLR(Penta{70, 80, 40, 10, 0}))
	}
	// The example of the match docs.
	if got := s.LLR(Penta{3, 10, 20, 15, 9}); s.Decide(got) != Continue || got <= 0 {
		t.Errorf("[3 10 20 15 9]: LLR %v", got)
	}
	if s.LLR(Penta{}) != 0 || s.Verdict(Penta{}) != Continue {
		t.Error("no pairs: not LLR 0")
	}
}

// TestLLRBounded: N pairs give an LLR between −N·ln((1−s0)/(1−s1)) and
// N·ln(s1/s0) (see TestLLRKnownValues), so no short run of wins decides a
// test; the normal approximation, which takes the observed variance as known,
// would pass 0,10 after ten pairs, nine of them 2–0.
func TestLLRBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		s := SPRT{float64(r.IntN(41) - 20), 0, 0.05, 0.05}
		s.Elo1 = s.Elo0 + 1 + float64(r.IntN(100))
		s0, s1 := Score(s.Elo0), Score(s.Elo1)
		var p Penta
		for j := range p {
			p[j] = r.IntN(20) * r.IntN(2)
		}
		n := float64(p.Pairs()) + 5*regularization
		if l := s.LLR(p); l > n*math.Log(s1/s0) || l < -n*math.Log((1-s0)/(1-s1)) {
			t.Fatalf("%v %v: LLR %v outside %v..%v", s, p, l, -n*math.Log((1-s0)/(1-s1)), n*math.Log(s1/s0))
		}
	}
	s := SPRT{0, 10, 0.05, 0.05}
	if l := s.LLR(Penta{0, 0, 0, 1, 9}); l > 0.3 {
		t.Errorf("ten pairs: LLR %v", l)
	}
	if l := normalLLR(s, []int{0, 0, 0, 1, 9}, pentaScores); l < 2.944 {
		t.Errorf("the normal approximation is not as hasty as claimed: %v", l)
	}
}

// TestLLRClosedForm: with only 0–2 and 2–0 pairs (or only losses and wins)
// the maximum-likelihood distribution of mean s is (1−s, s) on the two
// extremes, so LLR = W·ln(s1/s0) + L·ln((1−s1)/(1−s0)), up to the tiny
// regularization of the empty outcomes.
func TestLLRClosedForm(t *testing.T) {
	s := SPRT{0, 100, 0.05, 0.05}
	s0, s1 := Score(0), Score(100)
	want := 60*math.Log(s1/s0) + 40*math.Log((1-s1)/(1-s0)) // 1.67
	if got := s.LLR(Penta{40, 0, 0, 0, 60}); !near(got, want, 0.01) {
		t.Errorf("penta: %v, want %v", got, want)
	}
	if got := s.LLRTrinomial(Trinomial{40, 0, 60}); !near(got, want, 0.01) {
		t.Errorf("trinomial: %v, want %v", got, want)
	}
	// One 2–0 pair: ln(s1/s0).
	s = SPRT{0, 10, 0.05, 0.05}
	if got, want := s.LLR(Penta{0, 0, 0, 0, 1}), math.Log(Score(10)/0.5); !near(got, want, 0.005) {
		t.Errorf("one pair: %v, want %v", got, want)
	}
}

// TestLLRTrinomialDirectMaximum checks the λ root search against a plain
// one-dimensional maximization: a trinomial of mean s is (1−s−d/2, d, s−d/2)
// for a draw share d, so each hypothesis's likelihood can be maximized over d
// directly (golden-section search on a concave function).
func TestLLRTrinomialDirectMaximum(t *testing.T) {
	logLik := func(c [3]float64, m float64) float64 {
		f := func(d float64) float64 {
			pl, pw := 1-m-d/2, m-d/2
			return c[0]*math.Log(pl) + c[1]*math.Log(d) + c[2]*math.Log(pw)
		}
		a, b := 0.0, 2*math.Min(m, 1-m)
		g := (math.Sqrt(5) - 1) / 2
		for range 300 {
			x1, x2 := b-g*(b-a), a+g*(b-a)
			if f(x1) < f(x2) {
				a = x1
			} else {
				b = x2
			}
		}
		return f((a + b) / 2)
	}
	for _, tc := range []struct {
		s SPRT
		t Trinomial
	}{
		{SPRT{0, 10, 0.05, 0.05}, Trinomial{30, 20, 50}},
		{SPRT{-20, 40, 0.05, 0.05}, Trinomial{12, 3, 9}},
		{SPRT{0, 200, 0.05, 0.05}, Trinomial{0, 4, 17}},
		{SPRT{0, 5, 0.05, 0.05}, Trinomial{400, 10, 380}},
	} {
		var c [3]float64
		for j, n := range tc.t {
			c[j] = math.Max(float64(n), regularization)
		}
		want := logLik(c, Score(tc.s.Elo1)) - logLik(c, Score(tc.s.Elo0))
		if got := tc.s.LLRTrinomial(tc.t); !near(got, want, 1e-6) {
			t.Errorf("%v %v: LLR %v, direct maximum %v", tc.s, tc.t, got, want)
		}
	}
}

// TestLLRNearNormalApproximation: in a close match with many pairs the
// exact LLR and the normal approximation agree.
func TestLLRNearNormalApproximation(t *testing.T) {
	s := SPRT{0, 10, 0.05, 0.05}
	for _, p := range []Penta{{30, 150, 300, 160, 35}, {60, 200, 330, 190, 50}, {10, 60, 120, 70, 12}} {
		exact, approx := s.LLR(p), normalLLR(s, p[:], pentaScores)
		if !near(exact, approx, 0.03*math.Abs(approx)+0.02) {
			t.Errorf("%v: exact %v, normal %v", p, exact, approx)
		}
	}
}

// TestLLRMonotone: a better result for one pair never lowers the LLR, an
// extra 2–0 pair raises it and an extra 0–2 pair lowers it, and reversing the
// counts of a symmetric test negates the LLR.
func TestLLRMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var p Penta
		for j := range p {
			p[j] = r.IntN(30)
		}
		s := SPRT{float64(r.IntN(41) - 20), 0, 0.05, 0.05}
		s.Elo1 = s.Elo0 + 1 + float64(r.IntN(60))
		base := s.LLR(p)
		for j := range 4 {
			if p[j] == 0 {
				continue
			}
			q := p
			q[j]--
			q[j+1]++
			if got := s.LLR(q); got < base-1e-9 {
				t.Fatalf("%v %v: moving a pair up from %d lowers the LLR %v → %v", s, p, j, base, got)
			}
		}
		up, down := p, p
		up[4]++
		down[0]++
		if s.LLR(up) <= base || s.LLR(down) >= base {
			t.Fatalf("%v %v: LLR %v, with a 2–0 pair %v, with a 0–2 pair %v", s, p, base, s.LLR(up), s.LLR(down))
		}
		sym := SPRT{-s.Elo1, s.Elo1, 0.05, 0.05}
		rev := Penta{p[4], p[3], p[2], p[1], p[0]}
		if a, b := sym.LLR(p), sym.LLR(rev); !near(a, -b, 1e-7*(1+math.Abs(a))) {
			t.Fatalf("%v: LLR %v, reversed %v", p, a, b)
		}
	}
}

// TestLLRLopsided: sweeps, where the normal approximation divides by a zero
// variance, give finite LLRs on the right side.
func TestLLRLopsided(t *testing.T) {
	s := SPRT{0, 10, 0.05, 0.05}
	win, loss := s.LLR(Penta{0, 0, 0, 0, 1000}), s.LLR(Penta{1000, 0, 0, 0, 0})
	if math.IsNaN(win) || math.IsInf(win, 0) || s.Decide(win) != Accept1 {
		t.Errorf("1000 won pairs: LLR %v", win)
	}
	if math.IsNaN(loss) || math.IsInf(loss, 0) || s.Decide(loss) != Accept0 {
		t.Errorf("1000 lost pairs: LLR %v", loss)
	}
	// Near the bounds of MaxElo too.
	s = SPRT{-MaxElo, MaxElo, 0.05, 0.05}
	for _, p := range []Penta{{0, 0, 0, 0, 5}, {5, 0, 0, 0, 0}, {0, 0, 7, 0, 0}, {1, 2, 3, 4, 5}} {
		if l := s.LLR(p); math.IsNaN(l) || math.IsInf(l, 0) {
			t.Errorf("%v %v: LLR %v", s, p, l)
		}
	}
}

func TestParseSPRT(t *testing.T) {
	good := map[string]SPRT{
		"0,10":              {0, 10, 0.05, 0.05},
		"-5, 5,0.1,0.2":     {-5, 5, 0.1, 0.2},
		"0.5,2.5,0.05,0.05": {0.5, 2.5, 0.05, 0.05},
	}
	for in, want := range good {
		if got, err := ParseSPRT(in); err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", in, got, err, want)
		}
	}
	if s := (SPRT{0, 10, 0.05, 0.05}).String(); s != "elo0=0 elo1=10 alpha=0.05 beta=0.05" {
		t.Errorf("String %q", s)
	}
	bad := map[string]string{
		"":               "want ELO0,ELO1[,ALPHA,BETA]",
		"0":              "want ELO0,ELO1[,ALPHA,BETA]",
		"0,10,0.05":      "want ELO0,ELO1[,ALPHA,BETA]",
		"0,10,0.05,0,1":  "want ELO0,ELO1[,ALPHA,BETA]",
		"a,10":           `ELO0 "a" is not a number`,
		"0,inf":          `ELO1 "inf" is not a number`,
		"0,10,NaN,0.05":  `ALPHA "NaN" is not a number`,
		"10,0":           "ELO0 (10) must be below ELO1 (0)",
		"5,5":            "must be below ELO1",
		"0,2000":         "within ±1000",
		"0,10,0,0.05":    "strictly between 0 and 1",
		"0,10,0.05,1":    "strictly between 0 and 1",
		"0,10,0.6,0.5":   "ALPHA + BETA",
		"0,10,0.05,-0.1": "strictly between 0 and 1",
	}
	for in, want := range bad {
		_, err := ParseSPRT(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `SPRT "`+in+`"`) {
			t.Errorf("%q: error %v, want one containing %q", in, err, want)
		}
	}
}
