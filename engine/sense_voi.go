package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// voiSense senses where the information is worth most to the move that
// follows. It scores every request on a sample of boards (the move decision
// reuses these scores through the scorer's cache), then for each inner
// window splits the boards by what the window would show, picks the best
// request within each outcome, and values the window by
//
//	E[best value per outcome] + Worst·min(best value per outcome)
//	  + Reduce·(set reduction) + Danger·(danger info) + Track·(tracking info)
//
// where the last three are measured on a larger sample: the expected share of
// boards ruled out, what the window tells about whether our king is attacked
// now (dangerInfo), and about where the attackers near it stand (trackInfo).
// Windows whose outcome partition another window refines, with no larger
// bonus terms, are skipped: they cannot be worth more. Out of Normal mode, or
// when the engine scored too few boards in time, the decision values come
// from static scores (material, king captured or exposed).
type voiSense struct{}

func newVOISense(*Config) SenseStrategy { return voiSense{} }

// minVOIBoards is the fewest engine-scored boards the voi values are
// trusted on (or all of them, when the belief holds fewer).
const minVOIBoards = 6

// ChooseSense returns the window with the highest value of information.
func (voiSense) ChooseSense(ctx context.Context, t *TurnView) (chess.Square, error) {
	big, err := t.sample(ctx, t.Config.SenseSamples)
	if err != nil {
		return chess.NoSquare, err
	}
	squares := innerSquares(t.SenseActions)
	if len(squares) == 0 {
		return chess.NoSquare, nil
	}
	sizeBest, reduction := bestPartitionWindow(big, squares, t.Color.Other(), setReduction)
	danger, threat := dangerInfo(big, squares, t.Color)
	track := trackInfo(big, squares, t.Color)
	ws, err := t.sample(ctx, t.Config.VOISamples)
	if err != nil {
		return sizeBest.sq, nil
	}
	reqs := Requests(t.MoveActions, &ws[0].Board)
	if n := t.affordable(ctx, len(reqs), t.Config.VOISamples); n > len(ws) {
		// The clock affords more boards than the configured sample (and the
		// move decision reuses their scores).
		if more, err := t.sample(ctx, n); err == nil {
			ws = more
		}
	}
	if _, ok := certainKingCapture(ctx, t, ws, reqs); ok {
		return chess.NoSquare, nil // the move is decided whatever we see
	}
	var mat *Matrix
	if t.Budget.Mode == Normal && t.Scoring != nil && !t.Scoring.static {
		// Leave a little of the budget for the analysis below.
		sctx := ctx
		if dl, ok := ctx.Deadline(); ok {
			var cancel context.CancelFunc
			sctx, cancel = context.WithDeadline(ctx, dl.Add(-min(time.Until(dl)/10, 50*time.Millisecond)))
			defer cancel()
		}
		start := time.Now()
		mat, err = t.Scoring.Score(sctx, ws, reqs)
		if err == nil {
			// A belief known nearly exactly is searched deeper; the move
			// decision finds these scores in the cache.
			mat = t.deepen(sctx, mat, ws, reqs, start)
		}
		keep := make([]sampler.Weighted, mat.Len())
		for i := range mat.Boards {
			keep[i] = sampler.Weighted{Board: mat.Boards[i], Weight: mat.Weights[i]}
		}
		t.Keep(keep)
		if err != nil || mat.Len() < min(minVOIBoards, len(ws)) {
			t.Log.Debug("sense: voi scored too few boards; static scores", "boards", mat.Len(), "err", err)
			mat = nil
		}
	}
	if mat == nil {
		mat = StaticMatrix(ws, reqs)
	}
	bonus := make(map[chess.Square]float64, len(squares))
	for _, q := range squares {
		bonus[q] = t.Config.Reduce*reduction[q] + t.Config.Danger*danger[q] + t.Config.Track*track[q]
	}
	best, scored, v0 := voiWindow(mat, squares, reduction, bonus, t.Config)
	if best.sq == chess.NoSquare {
		return sizeBest.sq, nil
	}
	t.Log.Debug("sense", "strategy", "voi", "square", best.sq.String(), "value", math.Round(best.score),
		"next", topWindows(best, scored, 4), "no-sense value", math.Round(v0), "boards", mat.Len(), "offered", mat.Offered, "evals", mat.Evals, "static", mat.Static,
		"king in danger", math.Round(threat*1000)/1000, "danger info", math.Round(danger[best.sq]*1000)/1000,
		"danger bonus", math.Round(t.Config.Danger*danger[best.sq]))
	return best.sq, nil
}

// voiWindow returns the best non-dominated window of squares by value of
// information on m, every non-dominated window scored (for logs), and the
// value of deciding without sensing (for logs).
// reduction holds each window's set reduction on a larger sample (it breaks
// ties between equal partitions), bonus the terms added to its decision
// value (reduction, danger and tracking information, in centipawns).
func voiWindow(m *Matrix, squares []chess.Square, reduction, bonus map[chess.Square]float64, cfg *Config) (best scoredSquare, scored []scoredSquare, v0 float64) {
	w := plausibilityWeights(m, cfg.Plaus)
	all := requestScores(m, nil, w, cfg.Mean)
	v0 = maxOf(all)
	labels := make([][]int, len(squares))
	for k, q := range squares {
		labels[k] = windowLabels(m, q)
	}
	best = scoredSquare{sq: chess.NoSquare}
	for k, q := range squares {
		if dominated(labels, k, bonus, squares) {
			continue
		}
		groups := groupRows(labels[k])
		exp, worst := 0.0, math.Inf(1)
		for _, rows := range groups {
			p := 0.0
			for _, i := range rows {
				p += w[i]
			}
			v := maxOf(requestScores(m, rows, w, cfg.Mean))
			exp += p * v
			worst = min(worst, v)
		}
		c := scoredSquare{sq: q, score: exp + cfg.Worst*worst + bonus[q], tie: reduction[q]}
		scored = append(scored, c)
		if best.sq == chess.NoSquare || c.better(best) {
			best = c
		}
	}
	return best, scored, v0
}

// topWindows renders the window chosen and the n−1 others of scored with
// the highest values, for logs: why the sense went where it did and not to
// the next. (The choice breaks near ties by the set reduction, so the
// chosen window may value a hair below another.)
func topWindows(chosen scoredSquare, scored []scoredSquare, n int) string {
	top := []scoredSquare{chosen}
	rest := slices.DeleteFunc(slices.Clone(scored), func(c scoredSquare) bool { return c.sq == chosen.sq })
	slices.SortStableFunc(rest, func(a, b scoredSquare) int { return cmp.Compare(b.score, a.score) })
	top = append(top, rest...)
	var sb strings.Builder
	for k, c := range top[:min(n, len(top))] {
		if k > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%v:%.0f", c.sq, c.score)
	}
	return sb.String()
}

// dangerInfo measures, per window, how much sensing it tells us about
// whether our king is in danger: an enemy piece attacks it now, or the
// opponent could force its capture next move if we passed (threatScan):
// the drop in the variance d(1 − d) of that event from before the sense to
// the expected variance after it. A threat on a few boards of a large sample
// is rarely among the boards the engine scores, but the window that would
// reveal it is found here, and finding it is what saves the king.
//
// It also returns the share d of boards on which the king is in danger.
func dangerInfo(ws []sampler.Weighted, squares []chess.Square, us chess.Color) (map[chess.Square]float64, float64) {
	out := make(map[chess.Square]float64, len(squares))
	danger := make([]bool, len(ws))
	total, d := 0.0, 0.0
	var scan threatScan
	for i := range ws {
		b := &ws[i].Board
		k := b.KingSquare(us)
		danger[i] = k != chess.NoSquare && (b.Attacked(k, us.Other()) || scan.threatened(b))
		total += ws[i].Weight
		if danger[i] {
			d += ws[i].Weight
		}
	}
	if total <= 0 || d == 0 || d == total {
		return out, d / max(total, 1e-300) // no uncertainty about the threat
	}
	d /= total
	before := d * (1 - d)
	type group struct{ w, d float64 }
	acc := make(map[uint64]group, 64)
	for _, q := range squares {
		clear(acc)
		for i := range ws {
			k := rbc.SenseKey(&ws[i].Board, q)
			g := acc[k]
			g.w += ws[i].Weight
			if danger[i] {
				g.d += ws[i].Weight
			}
			acc[k] = g
		}
		after := 0.0
		for _, g := range acc {
			if g.w > 0 {
				p := g.d / g.w
				after += g.w / total * p * (1 - p)
			}
		}
		out[q] = before - after
	}
	return out, d
}

// trackInfo measures, per window, how much sensing it tells us about where
// the opponent's attackers stand: the pieces other than pawns within three
// squares of our king, and any piece bearing on the king's zone. The value
// is the expected drop in the Gini impurity 1 − Σp² of that placement. The
// voi decision value looks one move ahead; an attacker two moves from our
// king (a knight raid) matters only later, and knowing where it is then is
// what lets us meet it.
func trackInfo(ws []sampler.Weighted, squares []chess.Square, us chess.Color) map[chess.Square]float64 {
	out := make(map[chess.Square]float64, len(squares))
	sig := make([]uint64, len(ws))
	total := 0.0
	for i := range ws {
		sig[i] = attackerSignature(&ws[i].Board, us)
		total += ws[i].Weight
	}
	if total <= 0 {
		return out
	}
	gini := func(idx []int) (float64, float64) {
		acc := make(map[uint64]float64, 8)
		w := 0.0
		for _, i := range idx {
			acc[sig[i]] += ws[i].Weight
			w += ws[i].Weight
		}
		if w <= 0 {
			return 0, 0
		}
		g := 1.0
		for _, x := range acc {
			g -= (x / w) * (x / w)
		}
		return g, w
	}
	before, _ := gini(allRows(len(ws)))
	if before <= 0 {
		return out
	}
	groups := make(map[uint64][]int, 64)
	for _, q := range squares {
		clear(groups)
		for i := range ws {
			k := rbc.SenseKey(&ws[i].Board, q)
			groups[k] = append(groups[k], i)
		}
		after := 0.0
		for _, idx := range groups {
			g, w := gini(idx)
			after += w / total * g
		}
		out[q] = before - after
	}
	return out
}

// attackerSignature hashes where the opponent's attackers stand on b: its
// pieces other than pawns and the king within three squares of our king,
// and any piece attacking the squares around our king.
func attackerSignature(b *chess.Board, us chess.Color) uint64 {
	k := b.KingSquare(us)
	if k == chess.NoSquare {
		return 0
	}
	them := us.Other()
	zone := chess.KingAttacks(k) | k.Bit()
	occ := b.Occupied()
	var h uint64 = 1469598103934665603
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		p := b.PieceAt(s)
		near := p.Type() != chess.Pawn && p.Type() != chess.King && chebyshev(s, k) <= 3
		if near || chess.AttacksFrom(p, s, occ)&zone != 0 {
			h = (h ^ uint64(p)<<8 ^ uint64(s)) * 1099511628211
		}
	}
	return h
}

func chebyshev(a, b chess.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// windowLabels numbers the outcomes of the window at q on m's boards:
// boards with the same label show the same thing (labels count from 0).
func windowLabels(m *Matrix, q chess.Square) []int {
	ids := make(map[uint64]int, 8)
	out := make([]int, m.Len())
	for i := range m.Boards {
		k := rbc.SenseKey(&m.Boards[i], q)
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		out[i] = id
	}
	return out
}

// groupRows lists the rows of each label.
func groupRows(labels []int) [][]int {
	var groups [][]int
	for i, l := range labels {
		for l >= len(groups) {
			groups = append(groups, nil)
		}
		groups[l] = append(groups[l], i)
	}
	return groups
}

// refines reports whether partition a refines partition b: boards a puts
// together, b puts together too.
func refines(a, b []int) bool {
	m := make(map[int]int, 8)
	for i := range a {
		if l, ok := m[a[i]]; ok {
			if l != b[i] {
				return false
			}
		} else {
			m[a[i]] = b[i]
		}
	}
	return true
}

// dominated reports whether window k is refined by another window whose
// bonus (the terms measured on the big sample) is at least k's: strictly
// (the other sees everything k sees and more), or equally and the other has
// the larger bonus (or the same and comes first).
func dominated(labels [][]int, k int, bonus map[chess.Square]float64, squares []chess.Square) bool {
	nk := countLabels(labels[k])
	for o := range labels {
		if o == k || !refines(labels[o], labels[k]) {
			continue
		}
		bo, bk := bonus[squares[o]], bonus[squares[k]]
		if bo < bk {
			continue
		}
		if countLabels(labels[o]) > nk || bo > bk || o < k {
			return true
		}
	}
	return false
}

func countLabels(l []int) int {
	n := 0
	for _, x := range l {
		n = max(n, x+1)
	}
	return n
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
