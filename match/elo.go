package match

import (
	"math"
	"strconv"
)

// Elo differences from match scores.
//
// The difference comes from the logistic model: a score fraction p means
// D = −400·log10(1/p − 1). The 95% interval is the Wilson score interval of
// p (z = 1.96) mapped through the same formula. Wilson's interval treats the
// score as a binomial proportion, which overstates the spread when games are
// drawn (a draw is closer to the mean than a win or a loss), so the interval
// is if anything conservative; unlike the plain normal approximation it stays
// meaningful at 0% and 100%, where a bot that wins every game gets an
// infinite estimate but a finite lower bound (100 of 100 games: ≥ +566).

// Z95 is the two-sided 95% normal quantile, the z of the intervals the match
// table shows.
const Z95 = 1.959963984540054

// EloDiff returns the Elo difference for a score fraction p in [0, 1]: ±Inf
// at 1 and 0, so that a clean sweep is not mistaken for a finite rating.
func EloDiff(p float64) float64 {
	switch {
	case p >= 1:
		return math.Inf(1)
	case p <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/p-1)
}

// Score returns the expected score fraction of a player elo points above its
// opponent in the logistic model, the inverse of EloDiff; the SPRT turns its
// Elo bounds into scores with it.
func Score(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// Wilson returns the Wilson score interval of a proportion p observed over n
// trials at normal quantile z. It is used rather than p ± z·σ because it
// stays inside [0, 1] and is not empty at 0% and 100%.
func Wilson(p float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	z2 := z * z
	centre := (p + z2/(2*nf)) / (1 + z2/nf)
	half := z / (1 + z2/nf) * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	// At 0% and 100% the bound on that side is exact; rounding must not turn
	// an infinite Elo bound into a huge finite one.
	if p <= 0 {
		lo = 0
	}
	if p >= 1 {
		hi = 1
	}
	return lo, hi
}

// Estimate is an Elo difference with its 95% interval, as the match table
// shows it.
type Estimate struct {
	Elo, Lo, Hi float64
}

// EstimateElo returns the Elo difference for wins, draws and losses and its
// 95% interval (see the comment above Z95). With no games everything is NaN,
// which FormatElo shows as "-" rather than a misleading 0.
func EstimateElo(wins, draws, losses int) Estimate {
	n := wins + draws + losses
	if n == 0 {
		return Estimate{math.NaN(), math.NaN(), math.NaN()}
	}
	p := (float64(wins) + float64(draws)/2) / float64(n)
	lo, hi := Wilson(p, n, Z95)
	return Estimate{EloDiff(p), EloDiff(lo), EloDiff(hi)}
}

// Interval shows the 95% interval as "lo..hi" ("-" without games).
func (e Estimate) Interval() string {
	if math.IsNaN(e.Lo) {
		return "-"
	}
	return FormatElo(e.Lo) + ".." + FormatElo(e.Hi)
}

// FormatElo shows an Elo difference with its sign, rounded to a whole point
// (finer digits are noise at any sample size a match reaches): "+123", "-45",
// "0", "+inf", and "-" for NaN.
func FormatElo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "-"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	r := math.Round(x)
	if r == 0 {
		return "0"
	}
	s := strconv.FormatFloat(r, 'f', 0, 64)
	if r > 0 {
		s = "+" + s
	}
	return s
}
