package engine

import (
	"math"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
)

// requestScores aggregates each request's values over the boards rows of m
// (nil: all boards) as mean·(weighted mean) + (1 − mean)·(minimum). The mean
// is what a move is worth on average; the minimum guards against the boards
// an opponent who knows where our pieces are will steer to. weights are
// per board of m; they are renormalised over rows.
func requestScores(m *Matrix, rows []int, weights []float64, mean float64) []float64 {
	avg, lo := requestStats(m, rows, weights)
	for j := range avg {
		avg[j] = mean*avg[j] + (1-mean)*lo[j]
	}
	return avg
}

// requestStats returns each request's weighted mean and minimum value over
// the boards rows of m (nil: all boards).
func requestStats(m *Matrix, rows []int, weights []float64) (avg, lo []float64) {
	if rows == nil {
		rows = allRows(m.Len())
	}
	avg = make([]float64, len(m.Requests))
	lo = make([]float64, len(m.Requests))
	if len(rows) == 0 {
		return avg, lo
	}
	total := 0.0
	for _, i := range rows {
		total += weights[i]
	}
	for j := range m.Requests {
		sum, low := 0.0, math.Inf(1)
		for _, i := range rows {
			v := m.Out[i][j].Value
			if total > 0 {
				sum += weights[i] * v
			} else {
				sum += v / float64(len(rows))
			}
			low = min(low, v)
		}
		if total > 0 {
			sum /= total
		}
		avg[j], lo[j] = sum, low
	}
	return avg, lo
}

func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// plausibilityWeights reweights the boards of m by how plausible the
// opponent's last move makes them: an opponent rarely leaves material
// hanging, so a board on which our best move scores far above the typical
// board is less likely than its belief weight says. The factor is
// floor + (1 − floor)·2σ((median − best)/temp), with best clipped to ±600 cp
// so that a king left capturable on some boards only costs them a factor of
// a few (weak opponents do leave kings en prise). A board on which our king
// is attacked is never made less likely: the move that attacked it may well
// leave a piece en prise (a knight's forking check), and missing that board
// loses the king. temp ≤ 0 returns the belief weights.
func plausibilityWeights(m *Matrix, temp float64) []float64 {
	w := slices.Clone(m.Weights)
	if temp <= 0 || m.Len() < 3 || m.Static {
		return w
	}
	const clip, floor = 600.0, 0.2
	best := make([]float64, m.Len())
	for i, row := range m.Out {
		b := math.Inf(-1)
		for _, o := range row {
			b = max(b, o.Value)
		}
		best[i] = min(max(b, -clip), clip)
	}
	sorted := slices.Clone(best)
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	sum := 0.0
	for i := range w {
		f := floor + (1-floor)*2/(1+math.Exp((best[i]-med)/temp))
		if kingAttacked(&m.Boards[i]) {
			f = max(f, 1) // a check explains the loose piece: not less likely
		}
		w[i] *= f
		sum += w[i]
	}
	if sum > 0 {
		for i := range w {
			w[i] /= sum
		}
	}
	return w
}

// kingAttacked reports whether the side to move's king on b is attacked.
func kingAttacked(b *chess.Board) bool {
	us := b.Turn()
	k := b.KingSquare(us)
	return k != chess.NoSquare && b.Attacked(k, us.Other())
}
