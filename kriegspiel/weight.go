package kriegspiel

// The cut of an opponent's turn that passes the belief's limit: a priority
// sample (oppmodel) of the turn's boards, weighted by the opponent model.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// turnCut keeps a sample of the boards an opponent's turn leads to once
// they reach the belief's limit.
//
// The uniform cut (the default) keeps the boards whose key, hashed with the
// turn's salt, is at most a bound that halves whenever the boards kept reach
// the limit: every board has the same chance, and a child dropped is never
// built.
//
// The weighted cut (SetWeightedCut) is a priority sample (oppmodel): it
// keeps the boards whose priority, oppmodel.Priority of the board's key and
// its weight, is at least a threshold that rises to the median priority kept
// whenever the boards kept reach the limit, so each board is kept in
// proportion to its weight. The weight is the opponent model of
// oppmodel.Kriegspiel seen from the belief's side, and a function of the
// board alone, not of the move that led to it: in Kriegspiel the capture
// and the checks are announced, so every child of a turn shares them, and
// what tells the children apart is the position the move made. That also
// gives a board the same priority wherever it comes from, so deduplication
// and the cut agree, and the boards kept do not depend on the workers.
type turnCut struct {
	// on is the belief's SetCut: off, a turn past the limit fails and no
	// board needs a priority.
	on       bool
	weighted bool
	prior    oppmodel.Static
	salt     uint64
	// below is the uniform cut's bound (MaxUint64 until the first cut).
	below atomic.Uint64
	// tau holds the weighted cut's threshold's float64 bits: 0 until the
	// first cut.
	tau atomic.Uint64
	// pri and w are the priority and the weight of each board kept so far
	// by a weighted cut, in the order of the boards; -1 for the boards kept
	// before the first cut, until it weighs them (most turns are never cut).
	pri []float64
	w   []float64
}

// newTurnCut returns the cut of the opponent's turn.
func (bl *Belief) newTurnCut() *turnCut {
	c := &turnCut{on: bl.cut, weighted: bl.weightedCut, prior: oppmodel.Kriegspiel(bl.color),
		salt: mixKey(uint64(bl.cuts+1)*0x2545F4914F6CDD1D ^ uint64(bl.Len()))}
	c.below.Store(math.MaxUint64)
	return c
}

// threshold returns the weighted cut's current threshold.
func (c *turnCut) threshold() float64 { return math.Float64frombits(c.tau.Load()) }

// cutting reports whether the turn has been cut.
func (c *turnCut) cutting() bool {
	if !c.weighted {
		return c.below.Load() != math.MaxUint64
	}
	return c.tau.Load() != 0
}

// skipKey reports whether the child of key k is dropped whatever it is:
// under a uniform cut that needs only the key, so a child dropped is never
// built.
func (c *turnCut) skipKey(k uint64) bool {
	if c.weighted {
		return false
	}
	below := c.below.Load()
	return below != math.MaxUint64 && mixKey(k^c.salt) > below
}

// weight returns the weight of the board b in a weighted cut.
func (c *turnCut) weight(b *chess.Board) float64 {
	if !c.weighted {
		return 1
	}
	return c.prior.Weight(b)
}

// priority returns the priority of board b of key k.
func (c *turnCut) priority(k uint64, b *chess.Board) float64 {
	return oppmodel.Priority(k^c.salt, c.weight(b))
}

// weighAll gives the boards of out whose priority is unknown theirs.
func (c *turnCut) weighAll(out *boardSet) error {
	i := 0
	return out.pieces(func(st *sampler.Boards) error {
		for _, chunk := range st.Chunks() {
			for j := range chunk {
				if c.pri[i] < 0 {
					b := &chunk[j]
					c.w[i] = c.weight(b)
					c.pri[i] = oppmodel.Priority(setKey(b)^c.salt, c.w[i])
				}
				i++
			}
		}
		return nil
	})
}

// add adds b, of key k and priority p, to out unless the threshold drops
// it. When out already holds limit boards the threshold first rises to the
// median priority of the boards kept, as often as it takes to keep fewer
// than limit, and out is filtered (the set returned replaces it): with cut
// off (SetCut(false)), that is ErrBeliefTooLarge instead.
func (c *turnCut) add(ctx context.Context, out *boardSet, b *chess.Board, k uint64, p float64, limit int) (*boardSet, error) {
	if !c.weighted {
		return c.addUniform(ctx, out, b, k, limit)
	}
	tau := c.threshold()
	if p < 0 && tau > 0 {
		p = c.priority(k, b) // judged before the first cut, drained after it
	}
	if tau > 0 && p < tau {
		return out, nil
	}
	for out.n >= limit {
		if !c.on {
			return out, fmt.Errorf("%w of %d boards", ErrBeliefTooLarge, limit)
		}
		if tau == 0 {
			if err := c.weighAll(out); err != nil {
				return out, err
			}
		}
		sorted := slices.Clone(c.pri)
		slices.Sort(sorted)
		next := sorted[len(sorted)/2]
		if next <= tau {
			next = math.Nextafter(tau, math.Inf(1))
		}
		tau = next
		c.tau.Store(math.Float64bits(tau))
		i, j := 0, 0
		kept, err := out.keep(ctx, func(*chess.Board) bool {
			ok := c.pri[i] >= tau
			if ok {
				c.pri[j], c.w[j] = c.pri[i], c.w[i]
				j++
			}
			i++
			return ok
		})
		if err != nil {
			return out, err // out is closed: the caller's close of it does nothing
		}
		c.pri, c.w = c.pri[:j], c.w[:j]
		out = kept
		if p < 0 {
			p = c.priority(k, b)
		}
		if p < tau {
			return out, nil
		}
	}
	if err := out.add(ctx, b); err != nil {
		return out, err
	}
	if !c.on {
		return out, nil
	}
	w := -1.0
	if p >= 0 {
		w = p * oppmodel.KeyUniform(k^c.salt) // p = w/u
	}
	c.pri = append(c.pri, p)
	c.w = append(c.w, w)
	return out, nil
}

// addUniform is add for the uniform cut: the bound halves until fewer than
// limit boards are kept.
func (c *turnCut) addUniform(ctx context.Context, out *boardSet, b *chess.Board, k uint64, limit int) (*boardSet, error) {
	below := c.below.Load()
	if below != math.MaxUint64 && mixKey(k^c.salt) > below {
		return out, nil
	}
	if out.n >= limit {
		if !c.on {
			return out, fmt.Errorf("%w of %d boards", ErrBeliefTooLarge, limit)
		}
		for out.n >= limit {
			below /= 2
			c.below.Store(below)
			kept, err := out.keep(ctx, func(b *chess.Board) bool { return mixKey(setKey(b)^c.salt) <= below })
			if err != nil {
				return out, err // out is closed: the caller's close of it does nothing
			}
			out = kept
		}
		if mixKey(k^c.salt) > below {
			return out, nil
		}
	}
	return out, out.add(ctx, b)
}

// stands returns how many boards of the turn the n boards kept stand for:
// under the weighted cut, the sum of the inverse of each one's chance of
// being kept (oppmodel.Stands).
func (c *turnCut) stands(n int) float64 {
	if !c.weighted {
		return float64(n) * float64(math.MaxUint64) / float64(c.below.Load())
	}
	tau, sum := c.threshold(), 0.0
	for _, w := range c.w {
		sum += oppmodel.Stands(w, tau)
	}
	return sum
}
