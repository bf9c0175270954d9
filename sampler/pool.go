package sampler

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// aosp is all-observation sampling (Parker, Nau & Subrahmanian 2005): a pool
// of at most PoolSize boards, each consistent with every observation. At the
// capture notice every pool member is expanded by the opponent's options that
// announce that capture; the distinct children are shuffled, the first
// PoolSize form the pool and the rest a reserve, from which the pool is
// refilled as the sense and our move filter it. Only pool members are
// expanded, so the pool is a sample of the information set, and it can thin
// out or die when the true board descends from boards it dropped.
//
// hybrid is the same pool topped up with last-observation boards (the
// paper's HS) when it has been truncated once and has thinned below a
// quarter of PoolSize; those boards weigh hybridWeight of an aosp board and
// are filtered and expanded like the others, but when the pool is cut to size
// the children of fully consistent boards go first.
type aosp struct {
	opts    Options
	name    string
	hybrid  bool
	know    knowledge
	gen     losGen
	rng     *rand.Rand
	stage   stage
	pool    []pooled
	reserve []pooled
	// logSize estimates log2 of the information set's size (see Entropy).
	logSize float64
	// complete is true while the pool has never been truncated or mixed:
	// it is then the whole information set.
	complete bool
	stats    BeliefStats
	warned   bool
	scratch  []chess.Move
}

// pooled is a pool board and its weight.
type pooled struct {
	b chess.Board
	w float64
}

// hybridWeight is the weight of a last-observation board in the hybrid pool,
// relative to a board consistent with every observation. The pool counts as
// thin below 1/hybridThin of its size, and is topped up to that.
const (
	hybridWeight = 0.25
	hybridThin   = 4
)

func newAOSP(opts Options) Sampler {
	return &aosp{opts: opts, name: "aosp", rng: rand.New(rand.NewPCG(opts.Seed, 0x616f7370))}
}

func newHybrid(opts Options) Sampler {
	return &aosp{opts: opts, name: "hybrid", hybrid: true, rng: rand.New(rand.NewPCG(opts.Seed, 0x68796272))}
}

func (a *aosp) Name() string { return a.name }
func (a *aosp) Workers() int { return 1 }

func (a *aosp) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board) error {
	a.know.start(color, board)
	a.stage = a.know.stage
	a.pool = []pooled{{board, 1}}
	a.reserve = nil
	a.logSize = 0
	a.complete = true
	a.stats = BeliefStats{MaxBoards: 1}
	a.warned = false
	return nil
}

func (a *aosp) HandleOpponentMoveResult(ctx context.Context, captured bool, square chess.Square) error {
	if !a.know.started {
		return errors.New("sampler: " + a.name + ": observation before the game start")
	}
	if !captured {
		square = chess.NoSquare
	}
	if a.stage == oppToMove {
		parents := len(a.pool)
		seen := newKeySet(parents * 4)
		var kids []pooled
		for i := range a.pool {
			if i%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			p := &a.pool[i].b
			a.scratch = p.AppendOptions(a.scratch[:0])
			a.stats.Expanded++
			for _, m := range a.scratch {
				if p.CaptureSquare(m) != square {
					continue
				}
				child := *p
				child.Apply(m)
				a.stats.Children++
				if seen.add(child.Key()) {
					kids = append(kids, pooled{child, a.pool[i].w})
				}
			}
		}
		if parents > 0 && len(kids) > 0 {
			a.logSize += math.Log2(float64(len(kids)) / float64(parents))
		}
		a.rng.Shuffle(len(kids), func(i, j int) { kids[i], kids[j] = kids[j], kids[i] })
		// Children of boards consistent with every observation go first;
		// those of last-observation boards (hybrid) only fill what is left.
		slices.SortStableFunc(kids, func(x, y pooled) int { return cmp.Compare(y.w, x.w) })
		a.pool, a.reserve = kids, nil
		if len(kids) > a.opts.PoolSize {
			a.pool, a.reserve = kids[:a.opts.PoolSize:a.opts.PoolSize], kids[a.opts.PoolSize:]
			a.complete = false
		}
	} else if square.Valid() {
		a.pool = nil
	}
	a.stage = usToMove
	a.know.onNotice(square)
	a.settle()
	return nil
}

func (a *aosp) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	f, err := newSenseFilter(result)
	if err != nil {
		return err
	}
	before := len(a.pool) + len(a.reserve)
	a.pool = filterPooled(a.pool, func(b *chess.Board) (chess.Board, bool) { return *b, f.match(b) })
	a.reserve = filterPooled(a.reserve, func(b *chess.Board) (chess.Board, bool) { return *b, f.match(b) })
	a.shrink(before)
	a.know.onSense(f)
	a.settle()
	return nil
}

func (a *aosp) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, square chess.Square) error {
	if !captured {
		square = chess.NoSquare
	}
	o := observation{kind: obsMove, square: square, requested: requested, taken: taken}
	before := len(a.pool) + len(a.reserve)
	a.pool = filterPooled(a.pool, o.applyMove)
	a.reserve = filterPooled(a.reserve, o.applyMove)
	a.shrink(before)
	// Boards after our move are distinct unless they differed only in what we captured.
	a.pool = dedupPooled(a.pool)
	a.reserve = nil // only pool members are expanded
	a.stage = oppToMove
	a.know.onMove(o)
	a.settle()
	return nil
}

// shrink updates the size estimate after a filter and refills the pool from
// the reserve.
func (a *aosp) shrink(before int) {
	after := len(a.pool) + len(a.reserve)
	if after > 0 && before > 0 {
		a.logSize += math.Log2(float64(after) / float64(before))
	}
	for len(a.pool) < a.opts.PoolSize && len(a.reserve) > 0 {
		n := len(a.reserve) - 1
		a.pool = append(a.pool, a.reserve[n])
		a.reserve = a.reserve[:n]
	}
}

// settle recovers an empty pool and tops up a thin hybrid pool, both from
// boards consistent with the latest observations.
func (a *aosp) settle() {
	switch {
	case len(a.pool) == 0:
		a.stats.Recoveries++
		if !a.warned {
			a.warned = true
			a.opts.Logger.Warn("sampler: "+a.name+": no consistent board left; refilled from the latest observations",
				"turn", a.know.turn)
		}
		for _, b := range a.gen.distinct(&a.know, a.opts.PoolSize, a.rng) {
			a.pool = append(a.pool, pooled{b, 1})
		}
		a.logSize = a.gen.entropy(&a.know)
		a.complete = false
	case a.hybrid && !a.complete && len(a.pool) < a.opts.PoolSize/hybridThin:
		fresh := a.gen.generate(&a.know, a.opts.PoolSize/hybridThin-len(a.pool), a.rng)
		a.pool = TopUp(a.pool, fresh, func(b chess.Board) pooled { return pooled{b, hybridWeight} },
			func(p *pooled) uint64 { return p.b.Key() })
	}
	a.stats.MaxBoards = max(a.stats.MaxBoards, len(a.pool))
}

func filterPooled(ps []pooled, f func(*chess.Board) (chess.Board, bool)) []pooled {
	out := ps[:0]
	for i := range ps {
		if b, ok := f(&ps[i].b); ok {
			out = append(out, pooled{b, ps[i].w})
		}
	}
	return out
}

func dedupPooled(ps []pooled) []pooled {
	seen := newKeySet(len(ps))
	out := ps[:0]
	for i := range ps {
		if seen.add(ps[i].b.Key()) {
			out = append(out, ps[i])
		}
	}
	return out
}

func (a *aosp) boards() ([]chess.Board, []float64) {
	boards := make([]chess.Board, len(a.pool))
	var weights []float64
	for i := range a.pool {
		boards[i] = a.pool[i].b
		if a.pool[i].w != 1 && weights == nil {
			weights = make([]float64, len(a.pool))
			for j := range i {
				weights[j] = a.pool[j].w
			}
		}
		if weights != nil {
			weights[i] = a.pool[i].w
		}
	}
	return boards, weights
}

func (a *aosp) Sample(ctx context.Context, n int, rng *rand.Rand) ([]Weighted, error) {
	boards, weights := a.boards()
	return samplePool(boards, weights, n, rng), nil
}

func (a *aosp) ForEach(ctx context.Context, fn func(worker int, boards []chess.Board, weights []float64) error) error {
	boards, weights := a.boards()
	return fn(0, boards, weights)
}

func (a *aosp) Size() Size { return Size{Boards: len(a.pool), Exact: a.complete} }

// Entropy is log2 of the estimated size of the information set: the pool's
// size while it is complete, then a running estimate that multiplies by the
// children per pool member at each expansion and by the share of boards kept
// at each filter.
func (a *aosp) Entropy() float64 {
	if a.complete {
		return math.Log2(float64(max(len(a.pool), 1)))
	}
	return max(a.logSize, math.Log2(float64(max(len(a.pool), 1))))
}

func (a *aosp) Contains(b *chess.Board) bool {
	k := b.Key()
	for i := range a.pool {
		if a.pool[i].b.Key() == k {
			return true
		}
	}
	return false
}

func (a *aosp) Stats() BeliefStats { return a.stats }
func (a *aosp) Close() error       { return nil }
