package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// meanMin scores every request over a weighted sample of the belief: on each
// board the request is resolved as the harness would revise it and the taken
// move is scored with the RBC terms (king capture, own king left capturable);
// the scores are aggregated as Mean·(weighted mean) + (1 − Mean)·(minimum)
// with boards weighted by plausibility, and the seek, hide, shelter and press
// advisors are added. A king capture that is certain on every board is taken
// at once.
type meanMin struct {
	static bool // static scores only (no engine)
}

func newMeanMin(*Config) MoveStrategy    { return &meanMin{} }
func newStaticMove(*Config) MoveStrategy { return &meanMin{static: true} }

// ChooseMove returns the request with the best aggregate score.
func (s *meanMin) ChooseMove(ctx context.Context, t *Turn) (rbc.Move, error) {
	ws, err := t.sample(ctx, t.Config.Samples)
	if err != nil {
		return rbc.Move{}, err
	}
	ws = t.withPrior(ws) // boards the sense scored come first: they cost nothing
	reqs := Requests(t.MoveActions, &ws[0].Board)
	if m, ok := certainKingCapture(ctx, t, ws, reqs); ok {
		t.Log.Debug("move: certain king capture", "move", m.String())
		return m, nil
	}
	var mat *Matrix
	if s.static || t.Scoring == nil {
		mat = StaticMatrix(ws, reqs)
	} else {
		mat, err = t.Scoring.Score(ctx, ws, reqs)
		if err != nil || mat.Len() == 0 {
			t.Log.Debug("move: no board scored in time; static scores", "err", err)
			mat = StaticMatrix(ws, reqs)
		}
	}
	var ev *kingEvents
	if mat.Len() < len(ws) {
		ev = kingEventsOf(ws, reqs)
	}
	best, scores := chooseRequest(mat, t.Config, &ws[0].Board, ev)
	t.Log.Debug("move", "move", mat.Requests[best].String(), "score", math.Round(scores[best]), "next", topRequests(mat.Requests, scores, 4),
		"boards", mat.Len(), "offered", mat.Offered, "evals", mat.Evals, "static", mat.Static, "evals/s", math.Round(t.Scoring.Rate()))
	return mat.Requests[best], nil
}

// chooseRequest returns the index of the best request of m and all scores.
// ref is a board of the belief (for the moving pieces' types); ev, if not
// nil, holds the king events of a larger sample than m's boards.
func chooseRequest(m *Matrix, cfg *Config, ref *rbc.Board, ev *kingEvents) (int, []float64) {
	terms := evaluator.DefaultMoveTerms()
	w := plausibilityWeights(m, cfg.Plaus)
	avg, lo := requestStats(m, nil, w)
	scores := make([]float64, len(m.Requests))
	best := 0
	for j, r := range m.Requests {
		a, l := ev.correct(m, j, avg[j], lo[j], terms)
		scores[j] = cfg.Mean*a + (1-cfg.Mean)*l
		if cfg.Seek > 0 {
			scores[j] += cfg.Seek * seekValue(m, w, j)
		}
		if cfg.Hide > 0 && !r.IsNull() {
			scores[j] -= cfg.Hide * hideCost(m, w, j, ref.PieceAt(r.From).Type())
		}
		if cfg.Shelter > 0 {
			scores[j] -= cfg.Shelter * shelterCost(ref, r)
		}
	}
	if f := pressFactor(ref); cfg.Press > 0 && f > 0 && slices.Max(scores) >= pressAhead {
		for j := range scores {
			scores[j] += cfg.Press * f * resetShare(m, w, j)
		}
	}
	for j := range scores {
		if scores[j] > scores[best] {
			best = j
		}
	}
	return best, scores
}

// topRequests renders the n best requests and their scores, for logs.
func topRequests(reqs []rbc.Move, scores []float64, n int) string {
	idx := make([]int, len(reqs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(scores[b], scores[a]) })
	var sb strings.Builder
	for k, i := range idx[:min(n, len(idx))] {
		if k > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%v:%.0f", reqs[i], scores[i])
	}
	return sb.String()
}
