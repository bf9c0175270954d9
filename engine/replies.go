package engine

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// The reply model is the engine-scored part of the opponent model: when the
// boards before the opponent's move are few (the position was known, or
// nearly, after our move), each of the opponent's options on each of them is
// scored by the engine from the opponent's side, and the board an option
// leads to gets the likelihood that an opponent choosing by a softmax of
// those scores (temperature Config.Reply) made it, relative to a choice at
// random. The static hang prior guesses the same thing from a few
// attack look-ups and is used where the model is not: a large belief, or a
// decision without time for it.
//
// Why: after a known position, a strong opponent's reply is rarely uniform
// among its options. When one option (say, a rook lift that attacks our
// queen) is the engine's best move by far, a uniform belief gives it the
// weight of every other option (1/36 among 36), so the sense goes elsewhere
// and the threat goes unseen; the model gives it the weight its engine score
// earns, so the sense and the move reckon with it.

// replyParents is the most boards before the opponent's move that the model
// scores: about 36 options each, so at most about 600 evaluations a turn.
const replyParents = 16

// replyFloor is the least likelihood factor a reply gets: an opponent that
// does not see the board blunders too, and no consistent board may become
// nearly impossible.
const replyFloor = 0.15

// replyShare is the part of the sense decision's budget the model may take.
const replyShare = 0.25

// replyState is the reply model's part of a player, carried between the
// callbacks of a turn.
type replyState struct {
	// preMove is the whole belief at our move when it is small
	// (snapshotParents), parents the boards the opponent then moved on
	// (parentsAfter), for the next sense decision to build the model on.
	preMove, parents []chess.Board
	// model is the model of the opponent's last move built at our sense
	// (nil when none was), for the move decision that follows.
	model *replyModel
}

// replyModel holds the likelihood factor of each board the opponent's last
// move can have produced, by board key (see above).
type replyModel struct {
	factor map[uint64]float64
}

// weight returns the factor of b and whether the model knows b.
func (r *replyModel) weight(b *chess.Board) (float64, bool) {
	if r == nil {
		return 1, false
	}
	f, ok := r.factor[b.Key()]
	return f, ok
}

// snapshotParents returns every board of the belief when it is exact, up to
// date and at most replyParents boards (nil otherwise): the boards before our
// move, from which the parents of the opponent's next move follow once the
// move's result is known (parentsAfter).
func snapshotParents(ctx context.Context, belief sampler.Sampler) []chess.Board {
	size := belief.Size()
	if !size.Exact || size.Deferred > 0 || size.Boards == 0 || size.Boards > replyParents {
		return nil
	}
	var mu sync.Mutex
	var out []chess.Board
	err := belief.ForEach(ctx, func(_ int, boards []chess.Board, _ []float64) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, boards...)
		return nil
	})
	if err != nil || len(out) > replyParents {
		return nil
	}
	return out
}

// parentsAfter returns the boards of before on which our request resolves to
// taken with the capture we were told, with the move made: the boards the
// opponent moves on, each once.
func parentsAfter(before []chess.Board, requested, taken chess.Move, capture chess.Square) []chess.Board {
	seen := map[uint64]bool{}
	var out []chess.Board
	for _, b := range before {
		t, c := rbc.Resolve(&b, rbc.WithQueenDefault(&b, requested))
		if t != taken || c != capture {
			continue
		}
		b.Apply(taken)
		if !seen[b.Key()] {
			seen[b.Key()] = true
			out = append(out, b)
		}
	}
	return out
}

// buildReplies scores every option of every parent (the opponent to move)
// with sc within ctx and returns the model, or nil when some parent could not
// be scored in time (a model over part of the parents would favour the
// children of the scored ones). temp is the softmax temperature in
// centipawns.
func buildReplies(ctx context.Context, sc *Scoring, parents []chess.Board, temp float64) *replyModel {
	if len(parents) == 0 || temp <= 0 || sc == nil || sc.static {
		return nil
	}
	r := &replyModel{factor: map[uint64]float64{}}
	for _, parent := range parents {
		opts := parent.AppendOptions(nil)
		m, err := sc.Score(ctx, []sampler.Weighted{{Board: parent, Weight: 1}}, opts)
		if err != nil || m.Len() != 1 {
			return nil
		}
		vals := make([]float64, len(opts))
		for j := range opts {
			vals[j] = m.Out[0][j].Value
		}
		for j, p := range replyShares(vals, temp) {
			child := parent
			child.Apply(opts[j])
			f := max(p*float64(len(opts)), replyFloor)
			if f > r.factor[child.Key()] {
				r.factor[child.Key()] = f
			}
		}
	}
	return r
}

// replyScoring returns a copy of sc with a rate meter of its own: the model's
// evaluations (every option on a few boards) must not skew the rate that
// sizes the decisions' samples.
func replyScoring(sc *Scoring) *Scoring {
	c := *sc
	c.rate = &rateMeter{}
	return &c
}

// replyShares returns the softmax of values at temperature temp: the chance
// that an opponent choosing by it plays each option.
func replyShares(values []float64, temp float64) []float64 {
	best := math.Inf(-1)
	for _, v := range values {
		best = max(best, v)
	}
	out := make([]float64, len(values))
	sum := 0.0
	for i, v := range values {
		out[i] = math.Exp((v - best) / temp)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}

// replyAllowance is how long building the model may take within a sense
// decision's budget (nothing out of Normal mode).
func replyAllowance(b Budget) time.Duration {
	if b.Mode != Normal {
		return 0
	}
	return time.Duration(float64(b.Time) * replyShare)
}

// turnReplies builds the reply model of a sense decision from the parents of
// the opponent's last move, within the decision's reply allowance, and logs
// the outcome. It returns nil when the model is off or was not built.
func turnReplies(ctx context.Context, t *TurnView, parents []chess.Board) *replyModel {
	allow := replyAllowance(t.Budget)
	if t.Config.Reply <= 0 || len(parents) == 0 || allow <= 0 {
		return nil
	}
	rctx, cancel := context.WithTimeout(ctx, allow)
	defer cancel()
	start := time.Now()
	r := buildReplies(rctx, replyScoring(t.Scoring), parents, t.Config.Reply)
	if r == nil {
		t.Log.Debug("reply model not built in time", "parents", len(parents), "allowance", allow)
		return nil
	}
	t.Log.Debug("reply model", "parents", len(parents), "boards", len(r.factor), "took", time.Since(start))
	return r
}
