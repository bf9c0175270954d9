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
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// meanMin scores every request over a weighted sample of the belief: on each
// board the request is resolved as the harness would revise it and the taken
// move is scored with the RBC terms (king capture, own king left capturable);
// the scores are aggregated as Mean·(weighted mean) + (1 − Mean)·(minimum)
// with boards weighted by plausibility, and the seek, hide, shelter and
// press advisors are added. A king capture that is certain on every board is
// taken at once.
type meanMin struct {
	static bool // static scores only (no engine)
}

func newMeanMin(*Config) MoveStrategy    { return &meanMin{} }
func newStaticMove(*Config) MoveStrategy { return &meanMin{static: true} }

// ChooseMove returns the request with the best aggregate score.
func (s *meanMin) ChooseMove(ctx context.Context, t *TurnView) (chess.Move, error) {
	start := time.Now()
	ws, err := t.sample(ctx, t.Config.Samples)
	if err != nil {
		return chess.Move{}, err
	}
	reqs := Requests(t.MoveActions, &ws[0].Board)
	if n := t.affordable(ctx, len(reqs), t.Config.Samples); n > len(ws) {
		// The clock affords more boards than the configured sample: score
		// as many as the measured engine rate fits in the budget.
		if more, err := t.sample(ctx, n); err == nil {
			ws = more
		}
	}
	ws = t.withPrior(ws) // boards the sense scored come first: they cost nothing
	if m, ok := certainKingCapture(ctx, t, ws, reqs); ok {
		t.Log.Debug("move: certain king capture", "move", m.String())
		return m, nil
	}
	// The king events are counted before the engine scores, on up to twice
	// the configured sample, so that counting them never runs past the
	// deadline however many boards the clock affords.
	evBoards := ws[:min(len(ws), 2*t.Config.Samples)]
	ev := kingEventsOf(evBoards, reqs)
	var mat *Matrix
	if s.static || t.Scoring == nil {
		mat = StaticMatrix(ws, reqs)
	} else {
		mat, err = t.Scoring.Score(ctx, ws, reqs)
		if err != nil || mat.Len() == 0 {
			t.Log.Debug("move: no board scored in time; static scores", "err", err)
			mat = StaticMatrix(ws, reqs)
		} else {
			mat = t.deepen(ctx, mat, ws, reqs, start)
		}
	}
	if mat.Len() >= len(evBoards) {
		ev = nil // the scored boards hold the events already
	}
	best, scores := chooseRequest(mat, t.Config, &ws[0].Board, ev)
	t.Log.Debug("move", "move", mat.Requests[best].String(), "score", math.Round(scores[best]), "next", topRequests(mat.Requests, scores, 4),
		"boards", mat.Len(), "offered", mat.Offered, "evals", mat.Evals, "static", mat.Static, "evals/s", math.Round(t.Scoring.Rate()),
		"depth", mat.Depth)
	t.explainEarlyEnd(ctx, mat, start)
	return mat.Requests[best], nil
}

// maxDeepen is the deepest search iterative deepening goes to.
const maxDeepen = 20

// deepen re-scores the boards of a matrix two plies deeper, again and again,
// while the whole belief is in it and the clock affords the next round
// (about four times the last one): a position known exactly, or nearly, is
// played out by search rather than one shallow step at a time (a won game
// is converted instead of shuffled). It returns the deepest matrix
// completed over all of ws.
func (t *TurnView) deepen(ctx context.Context, mat *Matrix, ws []sampler.Weighted, reqs []chess.Move, start time.Time) *Matrix {
	if t.Budget.Mode != Normal || mat.Len() < len(ws) || !t.covered(len(ws)) {
		return mat
	}
	dl, ok := ctx.Deadline()
	if !ok {
		return mat
	}
	last := time.Since(start)
	sc := *t.Scoring
	sc.rate = &rateMeter{} // deep searches must not lower the rate the next decisions plan with
	for sc.lim.Depth+2 <= maxDeepen {
		if time.Until(dl) < 4*last {
			break
		}
		sc.lim.Depth += 2
		roundStart := time.Now()
		deeper, err := sc.Score(ctx, ws, reqs)
		if err != nil || deeper.Len() < len(ws) {
			break // ran out of time: keep the last complete round
		}
		last = time.Since(roundStart)
		mat = deeper
		mat.Depth = sc.lim.Depth
	}
	return mat
}

// covered reports whether a sample of n distinct boards holds the whole
// belief (nothing deferred).
func (t *TurnView) covered(n int) bool {
	size := t.Belief.Size()
	return size.Deferred == 0 && size.Boards <= n
}

// affordable is how many boards a decision can score in what is left of its
// budget at the engine rate measured so far, reqs distinct requests a board:
// at least least, at most the population's size.
func (t *TurnView) affordable(ctx context.Context, reqs, least int) int {
	dl, ok := ctx.Deadline()
	rate := t.Scoring.Rate()
	if !ok || rate <= 0 || t.Budget.Mode != Normal || t.Scoring.static {
		return least // (Rate is 0 without a Scoring)
	}
	// Leave a tenth of the time to the rest of the decision; a board costs
	// about one evaluation per request.
	n := int(rate * time.Until(dl).Seconds() * 0.9 / float64(max(reqs, 1)))
	return min(max(n, least), popSize)
}

// explainEarlyEnd logs why a decision ends with most of its budget unused:
// the whole belief was scored (and searched as deep as the clock affords),
// or the sample was.
func (t *TurnView) explainEarlyEnd(ctx context.Context, mat *Matrix, start time.Time) {
	dl, ok := ctx.Deadline()
	if !ok || time.Until(dl) < time.Since(start) {
		return
	}
	reason := "sample scored"
	switch {
	case mat.Static:
		reason = "static scores"
	case t.covered(mat.Len()):
		reason = "whole belief scored at the deepest affordable depth"
	}
	t.Log.Debug("decision ended early", "reason", reason, "took", time.Since(start), "left", time.Until(dl))
}

// chooseRequest returns the index of the best request of m and all scores.
// ref is a board of the belief (for the moving pieces' types); ev, if not
// nil, holds the king events of a larger sample than m's boards.
func chooseRequest(m *Matrix, cfg *Config, ref *chess.Board, ev *kingEvents) (int, []float64) {
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
	if f := pressFactor(m); cfg.Press > 0 && f > 0 && slices.Max(scores) >= pressAhead {
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
func topRequests(reqs []chess.Move, scores []float64, n int) string {
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
