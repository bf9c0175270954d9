package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Turn is what a strategy sees when it decides: the belief, the actions the
// harness offers, the scoring machinery and the budget's effort mode. The
// decision's deadline is the context's. A Turn belongs to one decision.
type Turn struct {
	// Number counts our turns from 1.
	Number int
	// Color is our colour.
	Color rbc.Color
	// Belief is the belief after every observation so far.
	Belief sampler.Sampler
	// SenseActions and MoveActions are the harness's lists.
	SenseActions []rbc.Square
	MoveActions  []rbc.Move
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
	// pop is the belief scanned with prior weights, built at the first
	// sample of the decision (popTried: the scan was attempted).
	pop      *population
	popTried bool
}

// Keep offers the boards a sense strategy scored to the move decision that
// follows: those consistent with the sense result come back as Prior.
func (t *Turn) Keep(boards []sampler.Weighted) {
	if t.keep != nil {
		t.keep(boards)
	}
}

// withPrior returns Prior followed by the boards of ws that are not in it.
func (t *Turn) withPrior(ws []sampler.Weighted) []sampler.Weighted {
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
// t.SenseActions or rbc.NoSquare (pass). It should return its best choice so
// far when ctx ends rather than an error.
type SenseStrategy interface {
	ChooseSense(ctx context.Context, t *Turn) (rbc.Square, error)
}

// MoveStrategy chooses the move to request: one of t.MoveActions or the null
// move (pass). It should return its best choice so far when ctx ends.
type MoveStrategy interface {
	ChooseMove(ctx context.Context, t *Turn) (rbc.Move, error)
}

// errNoBoards reports an empty belief sample.
var errNoBoards = errors.New("engine: the belief gave no boards")

// sample draws up to n weighted boards from the belief under the threat
// prior (see threatWeight). A belief of up to scanLimit boards is scanned
// whole once per decision and sampled in proportion to prior × belief
// weight, so that a rare threatening board (one knight raid among ten
// thousand quiet boards) appears in the sample at its prior share; a larger
// belief is sampled by the sampler and reweighted.
func (t *Turn) sample(ctx context.Context, n int) ([]sampler.Weighted, error) {
	n = max(n, 1)
	beta := t.Config.Threat
	if beta > 0 {
		if t.pop == nil && !t.popTried {
			t.popTried = true
			if limit := scanLimitFor(t.Budget.Mode); limit > 0 {
				t.pop = scanPopulation(ctx, t.Belief, t.Color, beta, t.Config.Check, limit)
			}
		}
		if t.pop != nil {
			return t.pop.draw(n, t.Rand), nil
		}
	}
	ws, err := t.Belief.Sample(ctx, n, t.Rand)
	if err != nil {
		return nil, fmt.Errorf("engine: sampling %d boards: %w", n, err)
	}
	if len(ws) == 0 {
		return nil, errNoBoards
	}
	if beta > 0 {
		sum := 0.0
		for i := range ws {
			ws[i].Weight *= threatWeight(&ws[i].Board, t.Color, beta, t.Config.Check)
			sum += ws[i].Weight
		}
		if sum > 0 {
			for i := range ws {
				ws[i].Weight /= sum
			}
		}
	}
	return ws, nil
}

// scanLimitFor is the largest belief scanned whole for prior sampling in a
// mode (about 10 ms per 100k boards on one core): none in Emergency, where
// every millisecond counts.
func scanLimitFor(m Mode) int {
	switch m {
	case Normal:
		return 150000
	case Fast:
		return 20000
	}
	return 0
}

// population is a whole belief with cumulative prior weights.
type population struct {
	boards []rbc.Board
	cum    []float64 // cum[i] = total weight of boards[0..i]
}

// scanPopulation collects the belief with prior weights, or returns nil when
// it is too large, empty or the scan fails (the caller then samples).
func scanPopulation(ctx context.Context, belief sampler.Sampler, us rbc.Color, beta, check float64, limit int) *population {
	size := belief.Size().Boards
	if size == 0 || size > limit {
		return nil
	}
	type part struct {
		boards []rbc.Board
		w      []float64
	}
	parts := make([]part, belief.Workers())
	err := belief.ForEach(ctx, func(worker int, boards []rbc.Board, weights []float64) error {
		p := &parts[worker]
		for i := range boards {
			if i&1023 == 1023 && ctx.Err() != nil {
				return ctx.Err()
			}
			w := 1.0
			if weights != nil {
				w = weights[i]
			}
			p.boards = append(p.boards, boards[i])
			p.w = append(p.w, w*threatWeight(&boards[i], us, beta, check))
		}
		return nil
	})
	if err != nil {
		return nil
	}
	pop := &population{boards: make([]rbc.Board, 0, size), cum: make([]float64, 0, size)}
	total := 0.0
	for _, p := range parts {
		for i := range p.boards {
			if p.w[i] <= 0 {
				continue
			}
			total += p.w[i]
			pop.boards = append(pop.boards, p.boards[i])
			pop.cum = append(pop.cum, total)
		}
	}
	if len(pop.boards) == 0 {
		return nil
	}
	return pop
}

// draw returns n boards drawn with replacement in proportion to their
// weights, duplicates merged (weight = share of the draws); all boards with
// their normalised weights when there are no more than n.
func (p *population) draw(n int, rng *rand.Rand) []sampler.Weighted {
	total := p.cum[len(p.cum)-1]
	if len(p.boards) <= n {
		out := make([]sampler.Weighted, len(p.boards))
		prev := 0.0
		for i := range p.boards {
			out[i] = sampler.Weighted{Board: p.boards[i], Weight: (p.cum[i] - prev) / total}
			prev = p.cum[i]
		}
		return out
	}
	counts := make(map[int]int, n)
	order := make([]int, 0, n)
	for range n {
		i, _ := slices.BinarySearch(p.cum, rng.Float64()*total)
		i = min(i, len(p.cum)-1)
		if counts[i] == 0 {
			order = append(order, i)
		}
		counts[i]++
	}
	out := make([]sampler.Weighted, len(order))
	for k, i := range order {
		out[k] = sampler.Weighted{Board: p.boards[i], Weight: float64(counts[i]) / float64(n)}
	}
	return out
}

// threatWeight is the threat prior of a board: exp(beta·a), where a counts
// the opponent's pieces that attack our king's zone (the king's square and
// its neighbours), plus check if the king itself is attacked. A belief weighs
// every consistent board alike, but opponents do not move at random: they
// bring pieces toward our king (scripted rushes, engines, people), so the
// boards where they did are likelier than their share, and they are the
// boards that lose games.
func threatWeight(b *rbc.Board, us rbc.Color, beta, check float64) float64 {
	k := b.KingSquare(us)
	if k == rbc.NoSquare {
		return 1
	}
	them := us.Other()
	zone := rbc.KingAttacks(k) | k.Bit()
	occ := b.Occupied()
	a := 0.0
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		if attacksFrom(b.PieceAt(s), s, occ)&zone != 0 {
			a++
		}
	}
	if b.Attacked(k, them) {
		a += check
	}
	return math.Exp(beta * a)
}

// attacksFrom returns the squares piece p on s attacks with occupancy occ.
func attacksFrom(p rbc.Piece, s rbc.Square, occ rbc.Bitboard) rbc.Bitboard {
	switch p.Type() {
	case rbc.Pawn:
		return rbc.PawnAttacks(p.Color(), s)
	case rbc.Knight:
		return rbc.KnightAttacks(s)
	case rbc.Bishop:
		return rbc.BishopAttacks(s, occ)
	case rbc.Rook:
		return rbc.RookAttacks(s, occ)
	case rbc.Queen:
		return rbc.QueenAttacks(s, occ)
	case rbc.King:
		return rbc.KingAttacks(s)
	}
	return 0
}

// innerSquares returns the 36 window centres b2–g7 among the sense actions.
// A window on the edge sees a subset of what the window next to it inside
// sees, so only these can be the most informative.
func innerSquares(actions []rbc.Square) []rbc.Square {
	var out []rbc.Square
	for r := 1; r <= 6; r++ {
		for f := 1; f <= 6; f++ {
			if s := rbc.MakeSquare(f, r); slices.Contains(actions, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// certainKingCapture returns a request that captures the enemy king on every
// board of ws (and on every board of the belief, when it is small enough to
// check), if there is one.
func certainKingCapture(ctx context.Context, t *Turn, ws []sampler.Weighted, reqs []rbc.Move) (rbc.Move, bool) {
	if len(ws) == 0 {
		return rbc.Move{}, false
	}
	var cands []rbc.Move
	for _, r := range reqs {
		if !r.IsNull() && capturesKing(&ws[0].Board, r) {
			cands = append(cands, r)
		}
	}
	for _, w := range ws[1:] {
		cands = slices.DeleteFunc(cands, func(r rbc.Move) bool { return !capturesKing(&w.Board, r) })
		if len(cands) == 0 {
			return rbc.Move{}, false
		}
	}
	if len(cands) == 0 {
		return rbc.Move{}, false
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
		err := t.Belief.ForEach(ctx, func(worker int, boards []rbc.Board, _ []float64) error {
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
			var kept []rbc.Move
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
		return rbc.Move{}, false
	}
	return cands[0], true
}

// capturesKing reports whether request r captures the enemy king on b.
func capturesKing(b *rbc.Board, r rbc.Move) bool {
	_, c := b.Resolve(b.WithQueenDefault(r))
	return c != rbc.NoSquare && b.PiecesOf(b.Turn().Other(), rbc.King).Has(c)
}
