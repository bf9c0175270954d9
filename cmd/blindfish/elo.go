package main

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
// infinite estimate but a finite lower bound (100 of 100 games: ≥ +568).

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// eloDiff returns the Elo difference for a score fraction p in [0, 1]:
// ±Inf at 1 and 0.
func eloDiff(p float64) float64 {
	switch {
	case p >= 1:
		return math.Inf(1)
	case p <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/p-1)
}

// wilson returns the Wilson score interval of a proportion p observed over
// n trials at normal quantile z.
func wilson(p float64, n int, z float64) (lo, hi float64) {
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

// eloEstimate is an Elo difference with its 95% interval.
type eloEstimate struct {
	Elo, Lo, Hi float64
}

// estimateElo returns the Elo difference for wins, draws and losses and its
// 95% interval (see the file comment). With no games everything is NaN.
func estimateElo(wins, draws, losses int) eloEstimate {
	n := wins + draws + losses
	if n == 0 {
		return eloEstimate{math.NaN(), math.NaN(), math.NaN()}
	}
	p := (float64(wins) + float64(draws)/2) / float64(n)
	lo, hi := wilson(p, n, z95)
	return eloEstimate{eloDiff(p), eloDiff(lo), eloDiff(hi)}
}

// formatElo shows an Elo difference with its sign, rounded: "+123", "-45",
// "0", "+inf".
func formatElo(x float64) string {
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

// interval shows the 95% interval as "lo..hi" ("-" without games).
func (e eloEstimate) interval() string {
	if math.IsNaN(e.Lo) {
		return "-"
	}
	return formatElo(e.Lo) + ".." + formatElo(e.Hi)
}
