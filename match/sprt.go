package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The sequential probability ratio test.
//
// A match between a new build and an old one should stop as soon as the
// games say enough, and not after a number of games fixed in advance: an
// SPRT weighs two hypotheses about the Elo difference of the bot to its
// opponent, H0: elo = Elo0 and H1: elo = Elo1, by the log-likelihood ratio
// (LLR) of the games played so far, and stops when the LLR leaves the
// interval (ln(β/(1−α)), ln((1−β)/α)): below it H0 is accepted, above it H1.
// α is the chance of accepting H1 when H0 is true, β that of accepting H0
// when H1 is true (Wald's bounds; they hold to a good approximation for the
// generalized test below).
//
// Pairs. As fishtest does, games are counted in pairs: the two games of a
// pair are played with colours swapped, so White's edge cancels inside the
// pair and pairs are closer to independent samples of the Elo difference
// than single games. A pair scores 0, ½, 1, 1½ or 2 points for the bot; the
// counts of the five outcomes (Penta) are the pentanomial distribution the
// test reads. Games outside a complete pair can be tested as single games
// (Trinomial: loss, draw, win), but the two are not mixed.
//
// Elo. The bounds are plain logistic Elo: a bot elo points stronger scores
// Score(elo) = 1/(1+10^(−elo/400)) per game on average, so the hypotheses are
// statements about the mean score per game. (fishtest now defaults to
// "normalized Elo", which divides by the spread of the results; plain Elo is
// what the match table shows, and what a bound like 0,10 means to a reader.)
//
// The LLR. This is the generalized SPRT (GSPRT) with the exact maximum-
// likelihood step, Michel Van den Bergh's formulation: the outcome
// distribution is otherwise unknown, so each hypothesis is represented by the
// distribution of largest likelihood among those whose mean per-game score is
// that hypothesis's score. With the observed frequencies p_j of outcomes x_j
// (per-game scores: j/4 for pairs, j/2 for single games) that distribution is
// p_j / (1 + λ(x_j − s)) with λ the root of Σ p_j (x_j − s)/(1 + λ(x_j − s)) = 0,
// and LLR = N · Σ p_j · ln(p1_j / p0_j) over N samples.
//
// The common alternative is the normal approximation
// LLR ≈ N·(s1 − s0)·(2·mean − s0 − s1) / (2·var), which agrees with the exact
// LLR in a close match, the usual case of a new build against the last one.
// It is not used because it takes the observed variance as known, and RBC
// matches are often lopsided: a run of 2–0 pairs has a variance near zero,
// and the approximation then passes any test after a handful of pairs (or
// divides by zero). The exact LLR cannot run away like that: its slope in the
// hypothesized score s is λ, which lies in (−1/(1−s), 1/s), so N pairs give
// an LLR of at most N·ln(s1/s0) and at least −N·ln((1−s0)/(1−s1)). For 0,10
// that is 0.028 a pair: even a build that wins every pair needs 104 pairs to
// pass, which is the price of not assuming a variance. It costs a
// one-dimensional root search over five cells. Outcomes never observed get a
// count of regularization (a thousandth of a sample) so that the maximum
// exists whatever the data: without it, a run of 2–0 pairs has no
// distribution of mean s0 on its support.

// DefaultAlpha and DefaultBeta are the error rates when ParseSPRT is given
// none, fishtest's usual 5%.
const (
	DefaultAlpha = 0.05
	DefaultBeta  = 0.05
)

// MaxElo bounds the Elo of a hypothesis: beyond it the expected score is so
// close to 0 or 1 that the test is a formality, and the maximum-likelihood
// step loses precision.
const MaxElo = 1000

// regularization is the count given to outcomes never observed (see above).
const regularization = 1e-3

// SPRT is a sequential probability ratio test of the bot's Elo difference to
// its opponent: H0 elo = Elo0 against H1 elo = Elo1 (plain logistic Elo,
// Elo0 < Elo1), with error rates Alpha (accepting H1 under H0) and Beta
// (accepting H0 under H1).
type SPRT struct {
	Elo0, Elo1, Alpha, Beta float64
}

// ParseSPRT reads "ELO0,ELO1[,ALPHA,BETA]", the --sprt flag's syntax
// ("0,10" or "0,10,0.05,0.05"); ALPHA and BETA default to 0.05. The errors say
// which part is wrong, since a misread bound silently changes the test.
func ParseSPRT(s string) (SPRT, error) {
	fields := strings.Split(s, ",")
	if len(fields) != 2 && len(fields) != 4 {
		return SPRT{}, fmt.Errorf("SPRT %q: want ELO0,ELO1[,ALPHA,BETA], e.g. 0,10 or 0,10,0.05,0.05", s)
	}
	names := []string{"ELO0", "ELO1", "ALPHA", "BETA"}
	v := []float64{0, 0, DefaultAlpha, DefaultBeta}
	for i, f := range fields {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SPRT{}, fmt.Errorf("SPRT %q: %s %q is not a number", s, names[i], f)
		}
		v[i] = x
	}
	t := SPRT{Elo0: v[0], Elo1: v[1], Alpha: v[2], Beta: v[3]}
	if err := t.Check(); err != nil {
		return SPRT{}, fmt.Errorf("SPRT %q: %w", s, err)
	}
	return t, nil
}

// Check reports what makes a test meaningless: bounds out of order or beyond
// ±MaxElo, error rates outside (0, 1) or adding up to 1 or more (then the
// acceptance bounds cross and the first sample decides).
func (s SPRT) Check() error {
	switch {
	case math.IsNaN(s.Elo0) || math.IsNaN(s.Elo1) || math.IsNaN(s.Alpha) || math.IsNaN(s.Beta):
		return fmt.Errorf("a bound or error rate is NaN")
	case s.Elo0 >= s.Elo1:
		return fmt.Errorf("ELO0 (%g) must be below ELO1 (%g)", s.Elo0, s.Elo1)
	case math.Abs(s.Elo0) > MaxElo || math.Abs(s.Elo1) > MaxElo:
		return fmt.Errorf("the Elo bounds must lie within ±%d", MaxElo)
	case s.Alpha <= 0 || s.Alpha >= 1 || s.Beta <= 0 || s.Beta >= 1:
		return fmt.Errorf("ALPHA (%g) and BETA (%g) must lie strictly between 0 and 1", s.Alpha, s.Beta)
	case s.Alpha+s.Beta >= 1:
		return fmt.Errorf("ALPHA + BETA (%g) must be below 1", s.Alpha+s.Beta)
	}
	return nil
}

// String shows the test as the match prints it: "elo0=0 elo1=10 alpha=0.05
// beta=0.05".
func (s SPRT) String() string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return "elo0=" + g(s.Elo0) + " elo1=" + g(s.Elo1) + " alpha=" + g(s.Alpha) + " beta=" + g(s.Beta)
}

// Bounds returns Wald's acceptance bounds on the LLR: at or below lo H0 is
// accepted, at or above hi H1 (±2.944 for α = β = 0.05).
func (s SPRT) Bounds() (lo, hi float64) {
	return math.Log(s.Beta / (1 - s.Alpha)), math.Log((1 - s.Beta) / s.Alpha)
}

// Penta counts game pairs by the points the bot scored in the pair: index j
// holds the pairs worth j/2 points (0, ½, 1, 1½, 2), so Penta{N0, N1, N2, N3,
// N4} reads from two losses to two wins.
type Penta [5]int

// Pairs returns the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Trinomial counts single games by the bot's result: losses, draws, wins
// (index j holds the games worth j/2 points, as in Penta).
type Trinomial [3]int

// Games returns the number of games counted.
func (t Trinomial) Games() int { return t[0] + t[1] + t[2] }

// LLR returns the log-likelihood ratio of H1 to H0 for the game pairs
// counted in p (the exact GSPRT of the comment above; 0 without pairs).
func (s SPRT) LLR(p Penta) float64 {
	return s.llr(p[:], []float64{0, 0.25, 0.5, 0.75, 1})
}

// LLRTrinomial returns the log-likelihood ratio for single games, the
// fallback for games that are not in colour-swapped pairs. Prefer pairs when
// there are any: single games carry White's edge into the variance.
func (s SPRT) LLRTrinomial(t Trinomial) float64 {
	return s.llr(t[:], []float64{0, 0.5, 1})
}

// Decide returns the verdict an LLR gives: Accept0 at or below the lower
// bound, Accept1 at or above the upper one, else Continue.
func (s SPRT) Decide(llr float64) Verdict {
	lo, hi := s.Bounds()
	switch {
	case llr >= hi:
		return Accept1
	case llr <= lo:
		return Accept0
	}
	return Continue
}

// Verdict returns the verdict of the game pairs counted in p.
func (s SPRT) Verdict(p Penta) Verdict { return s.Decide(s.LLR(p)) }

// Verdict is the state of an SPRT: go on playing, or one hypothesis
// accepted.
type Verdict int

const (
	// Continue: the LLR is between the bounds; more games are needed.
	Continue Verdict = iota
	// Accept0: H0 (elo ≤ Elo0) is accepted: the games favour Elo0 over
	// Elo1. Were the bot Elo1 or more stronger, this verdict would come at
	// most with chance Beta.
	Accept0
	// Accept1: H1 (elo ≥ Elo1) is accepted: the games favour Elo1 over
	// Elo0. Were the bot Elo0 or less stronger, this verdict would come at
	// most with chance Alpha, so a passed test means a gain.
	Accept1
)

// String is the verdict as the match line prints it.
func (v Verdict) String() string {
	switch v {
	case Accept0:
		return "H0 accepted"
	case Accept1:
		return "H1 accepted"
	}
	return "no verdict"
}

// llr computes the GSPRT log-likelihood ratio for outcome counts at
// per-game scores xs (ascending, from 0 to 1).
func (s SPRT) llr(counts []int, xs []float64) float64 {
	total := 0
	for _, n := range counts {
		total += n
	}
	if total == 0 {
		return 0
	}
	c := make([]float64, len(counts))
	for j, n := range counts {
		c[j] = math.Max(float64(n), regularization)
	}
	s0, s1 := Score(s.Elo0), Score(s.Elo1)
	l0, l1 := lagrange(c, xs, s0), lagrange(c, xs, s1)
	sum := 0.0
	for j := range c {
		sum += c[j] * (math.Log1p(l0*(xs[j]-s0)) - math.Log1p(l1*(xs[j]-s1)))
	}
	return sum
}

// lagrange returns the λ of the maximum-likelihood distribution of mean
// score m (0 < m < 1): the root of f(λ) = Σ c_j (x_j − m)/(1 + λ(x_j − m)).
// f falls strictly from +∞ to −∞ across the interval where every 1 + λ(x_j −
// m) is positive (x spans 0..1 and every count is positive), so bisection
// finds the root reliably.
func lagrange(c, xs []float64, m float64) float64 {
	xmin, xmax := xs[0], xs[len(xs)-1]
	lo, hi := -1/(xmax-m), 1/(m-xmin)
	f := func(l float64) float64 {
		sum := 0.0
		for j, x := range xs {
			sum += c[j] * (x - m) / (1 + l*(x-m))
		}
		return sum
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			return mid
		}
		if f(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + (hi-lo)/2
}
