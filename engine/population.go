package engine

import (
	"cmp"
	"container/heap"
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// population is a weighted stand-in for the whole belief under the prior:
// every board when the belief is small, otherwise a priority sample of
// popSize boards whose weights estimate the prior mass they stand for. A
// decision draws all its samples from it, so a board the prior favours
// (the rare knight raid among a million quiet boards) is drawn at its
// prior share however large the belief is.
type population struct {
	boards []chess.Board
	cum    []float64 // cum[i] = total weight of boards[0..i]
	// scanned is the number of belief boards the population stands for.
	scanned int
}

// popSize is the number of boards a population keeps of a larger belief:
// enough for the largest sample a decision draws (sensesamples' default).
const popSize = 4096

// scanRate is the assumed number of belief boards weighed per second of one
// decision before the player has measured it (its measured rate replaces it).
const scanRate = 1e6

// scanPopulation weighs every board of the belief by prior × belief weight
// and keeps a priority sample (Duffield, Lund and Thorup 2007) of k boards:
// each board gets the priority w/u with u uniform in (0, 1], the k highest
// are kept, and each kept board's weight becomes max(w, τ), τ being the
// (k+1)-th priority. Sums of weights over the kept boards are then unbiased
// estimates of the sums over the whole belief, in one pass and O(k) memory
// per worker. u comes from a hash of the board's key and salt, so the
// sample does not depend on how ForEach spreads boards over its workers.
//
// It returns nil when the belief is empty, or the scan fails or runs past
// ctx (the caller then samples the belief and reweights).
func scanPopulation(ctx context.Context, belief sampler.Sampler, pr prior, k int, salt uint64) *population {
	if belief.Size().Boards == 0 {
		return nil
	}
	heaps := make([]priorityHeap, belief.Workers())
	counts := make([]int, len(heaps))
	err := belief.ForEach(ctx, func(worker int, boards []chess.Board, weights []float64) error {
		h := &heaps[worker]
		for i := range boards {
			if i&1023 == 1023 && ctx.Err() != nil {
				return ctx.Err()
			}
			w := 1.0
			if weights != nil {
				w = weights[i]
			}
			w *= pr.weight(&boards[i])
			if w <= 0 {
				continue
			}
			counts[worker]++
			q := w / oppmodel.KeyUniform(boards[i].Key()^salt)
			if h.Len() <= k {
				heap.Push(h, prioritized{q: q, w: w, b: boards[i]})
			} else if q > (*h)[0].q {
				(*h)[0] = prioritized{q: q, w: w, b: boards[i]}
				heap.Fix(h, 0)
			}
		}
		return nil
	})
	if err != nil {
		return nil
	}
	var all []prioritized
	scanned := 0
	for i := range heaps {
		all = append(all, heaps[i]...)
		scanned += counts[i]
	}
	if len(all) == 0 {
		return nil
	}
	slices.SortFunc(all, func(a, b prioritized) int { return cmp.Compare(b.q, a.q) })
	tau := 0.0
	if len(all) > k {
		tau = all[k].q
		all = all[:k]
	}
	pop := &population{boards: make([]chess.Board, len(all)), cum: make([]float64, len(all)), scanned: scanned}
	total := 0.0
	for i, it := range all {
		total += max(it.w, tau)
		pop.boards[i], pop.cum[i] = it.b, total
	}
	return pop
}

// scanAllowance is how long weighing the whole belief may take within a
// decision's budget: a third of it in Normal mode, a tenth in Fast mode,
// nothing in Emergency.
func scanAllowance(b Budget) time.Duration {
	switch b.Mode {
	case Normal:
		return b.Time / 3
	case Fast:
		return b.Time / 10
	}
	return 0
}

// prioritized is a board with its weight and priority.
type prioritized struct {
	q, w float64
	b    chess.Board
}

// priorityHeap is a min-heap of prioritized boards by priority.
type priorityHeap []prioritized

func (h priorityHeap) Len() int           { return len(h) }
func (h priorityHeap) Less(i, j int) bool { return h[i].q < h[j].q }
func (h priorityHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *priorityHeap) Push(x any)        { *h = append(*h, x.(prioritized)) }
func (h *priorityHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
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
