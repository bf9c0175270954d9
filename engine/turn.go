package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// TurnView is what a strategy sees when it decides: the belief, the actions
// the harness offers, the scoring machinery and the budget's effort mode. The
// decision's deadline is the context's. A TurnView belongs to one decision (a
// turn's sense and move each get their own); it is the player's view of the
// turn in play, not a recorded turn (rbc.TurnRecord, sampler.ObservedTurn).
type TurnView struct {
	// Number counts our turns from 1.
	Number int
	// Color is our colour.
	Color chess.Color
	// Belief is the belief after every observation so far.
	Belief sampler.Sampler
	// SenseActions and MoveActions are the harness's lists.
	SenseActions []chess.Square
	MoveActions  []chess.Move
	// Rand is the player's random source (one goroutine only).
	Rand *rand.Rand
	// Scoring evaluates requests on boards (static in Emergency mode).
	Scoring *Scoring
	// Budget is the decision's budget; the context carries its deadline.
	Budget Budget
	// Config holds the weights; Samples, SenseSamples and VOISamples are
	// already reduced for the mode.
	Config *Config
	// Log receives the decision's details.
	Log *slog.Logger
	// Prior holds boards scored earlier this turn (by the sense decision)
	// that are still consistent with every observation; their scores are
	// cached, so a move strategy should put them first. Nil at a sense.
	Prior []sampler.Weighted
	// keep, if set, receives the boards a sense strategy scored, so that
	// the move decision can reuse them (see Prior).
	keep func([]sampler.Weighted)
	// Captured is where the opponent captured one of our pieces on its
	// last move (NoSquare if it did not): the prior does not count the
	// capturing piece as left en prise.
	Captured chess.Square
	// pop is the belief weighed under the prior, built at the first sample
	// of the decision (popTried: the scan was attempted); scanRate measures
	// the boards weighed per second over the game.
	pop      *population
	popTried bool
	scanRate *rateMeter
	// replies is the engine-scored model of the opponent's last move, if
	// the turn has one (see replies.go).
	replies *replyModel
}

// Keep offers the boards a sense strategy scored to the move decision that
// follows: those consistent with the sense result come back as Prior.
func (t *TurnView) Keep(boards []sampler.Weighted) {
	if t.keep != nil {
		t.keep(boards)
	}
}

// withPrior returns Prior followed by the boards of ws that are not in it.
func (t *TurnView) withPrior(ws []sampler.Weighted) []sampler.Weighted {
	if len(t.Prior) == 0 {
		return ws
	}
	seen := make(map[uint64]bool, len(t.Prior))
	out := make([]sampler.Weighted, 0, len(t.Prior)+len(ws))
	for _, w := range t.Prior {
		if !seen[w.Board.Key()] {
			seen[w.Board.Key()] = true
			out = append(out, w)
		}
	}
	for _, w := range ws {
		if !seen[w.Board.Key()] {
			out = append(out, w)
		}
	}
	return out
}

// SenseStrategy chooses where to sense. It returns a square of
// t.SenseActions or chess.NoSquare (pass). It should return its best choice so
// far when ctx ends rather than an error.
type SenseStrategy interface {
	ChooseSense(ctx context.Context, t *TurnView) (chess.Square, error)
}

// MoveStrategy chooses the move to request: one of t.MoveActions or the null
// move (pass). It should return its best choice so far when ctx ends.
type MoveStrategy interface {
	ChooseMove(ctx context.Context, t *TurnView) (chess.Move, error)
}

// errNoBoards reports an empty belief sample.
var errNoBoards = errors.New("engine: the belief gave no boards")

// sample draws up to n weighted boards from the belief under the prior (the
// opponent model, see prior). The whole belief is weighed once per decision
// when that fits the decision's scan allowance (scanPopulation), and the
// samples are drawn from it in proportion to prior × belief weight, so that
// a rare threatening board (one knight raid among a million quiet boards)
// appears at its prior share; a belief too large to weigh in time is
// sampled by the sampler and the sample reweighted.
func (t *TurnView) sample(ctx context.Context, n int) ([]sampler.Weighted, error) {
	n = max(n, 1)
	pr := newPrior(t.Config, t.Color, t.Captured).withReplies(t.replies)
	if pr.off() {
		return t.belSample(ctx, n)
	}
	if t.pop == nil && !t.popTried {
		t.popTried = true
		t.pop = t.scan(ctx, pr)
	}
	if t.pop != nil {
		return t.pop.draw(n, t.Rand), nil
	}
	ws, err := t.belSample(ctx, n)
	if err != nil {
		return nil, err
	}
	sum := 0.0
	for i := range ws {
		ws[i].Weight *= pr.weight(&ws[i].Board)
		sum += ws[i].Weight
	}
	if sum > 0 {
		for i := range ws {
			ws[i].Weight /= sum
		}
	}
	return ws, nil
}

// belSample draws n boards from the belief as the sampler weighs them.
func (t *TurnView) belSample(ctx context.Context, n int) ([]sampler.Weighted, error) {
	ws, err := t.Belief.Sample(ctx, n, t.Rand)
	if err != nil {
		return nil, fmt.Errorf("engine: sampling %d boards: %w", n, err)
	}
	if len(ws) == 0 {
		return nil, errNoBoards
	}
	return ws, nil
}

// scan weighs the whole belief under the prior when the measured scan rate
// says it fits the decision's allowance, and measures the rate.
func (t *TurnView) scan(ctx context.Context, pr prior) *population {
	allow := scanAllowance(t.Budget)
	size := t.Belief.Size().Boards
	rate := scanRate
	if t.scanRate != nil {
		if r := t.scanRate.get(); r > 0 {
			rate = r
		}
	}
	if allow <= 0 || size == 0 || float64(size) > rate*allow.Seconds() {
		if size > 0 && allow > 0 {
			t.Log.Debug("belief too large to weigh whole; sampling it", "boards", size, "allowance", allow)
		}
		return nil
	}
	sctx, cancel := context.WithTimeout(ctx, allow)
	defer cancel()
	start := time.Now()
	pop := scanPopulation(sctx, t.Belief, pr, popSize, t.Rand.Uint64())
	if pop != nil && t.scanRate != nil {
		t.scanRate.observe(pop.scanned, time.Since(start))
	}
	return pop
}

// innerSquares returns the 36 window centres b2–g7 among the sense actions.
// A window on the edge sees a subset of what the window next to it inside
// sees, so only these can be the most informative.
func innerSquares(actions []chess.Square) []chess.Square {
	var out []chess.Square
	for r := 1; r <= 6; r++ {
		for f := 1; f <= 6; f++ {
			if s := chess.MakeSquare(f, r); slices.Contains(actions, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// certainKingCapture returns a request that captures the enemy king on every
// board of ws (and on every board of the belief, when it is small enough to
// check), if there is one.
func certainKingCapture(ctx context.Context, t *TurnView, ws []sampler.Weighted, reqs []chess.Move) (chess.Move, bool) {
	if len(ws) == 0 {
		return chess.Move{}, false
	}
	var cands []chess.Move
	for _, r := range reqs {
		if !r.IsNull() && capturesKing(&ws[0].Board, r) {
			cands = append(cands, r)
		}
	}
	for _, w := range ws[1:] {
		cands = slices.DeleteFunc(cands, func(r chess.Move) bool { return !capturesKing(&w.Board, r) })
		if len(cands) == 0 {
			return chess.Move{}, false
		}
	}
	if len(cands) == 0 {
		return chess.Move{}, false
	}
	// Check the whole belief when that is cheap and there is time: a sample
	// can miss the one board where the capture fails.
	dl, ok := ctx.Deadline()
	enough := !ok || time.Until(dl) > 50*time.Millisecond
	if size := t.Belief.Size(); enough && size.Boards > len(ws) && size.Boards <= 200000 {
		ok := make([][]bool, t.Belief.Workers())
		for i := range ok {
			ok[i] = make([]bool, len(cands))
			for j := range ok[i] {
				ok[i][j] = true
			}
		}
		err := t.Belief.ForEach(ctx, func(worker int, boards []chess.Board, _ []float64) error {
			for i := range boards {
				if i&1023 == 1023 && ctx.Err() != nil {
					return ctx.Err()
				}
				for j, r := range cands {
					if ok[worker][j] && !capturesKing(&boards[i], r) {
						ok[worker][j] = false
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Log.Debug("king capture check over the belief failed; trusting the sample", "err", err)
		} else {
			var kept []chess.Move
		next:
			for j, r := range cands {
				for w := range ok {
					if !ok[w][j] {
						continue next
					}
				}
				kept = append(kept, r)
			}
			cands = kept
		}
	}
	if len(cands) == 0 {
		return chess.Move{}, false
	}
	return cands[0], true
}

// capturesKing reports whether request r captures the enemy king on b.
func capturesKing(b *chess.Board, r chess.Move) bool {
	_, c := rbc.Resolve(b, rbc.WithQueenDefault(b, r))
	return c != chess.NoSquare && b.PiecesOf(b.Turn().Other(), chess.King).Has(c)
}
