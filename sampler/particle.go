package sampler

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// OpponentModel says how likely the opponent is to make each of its options
// on a board. The particle filter moves its particles with it, so a better
// model (an engine's preferences, an opponent's habits) plugs in here.
type OpponentModel interface {
	// Weights returns, in dst[:0], a non-negative weight for each option on b
	// (the opponent to move), in the order of options. They need not sum to
	// one. options are the board's options (chess.Board.AppendOptions).
	Weights(b *chess.Board, options []chess.Move, dst []float64) []float64
}

// Uniform is the opponent model that knows nothing: every option, the pass
// included, is equally likely.
type Uniform struct{}

// Weights gives every option weight one.
func (Uniform) Weights(b *chess.Board, options []chess.Move, dst []float64) []float64 {
	dst = dst[:0]
	for range options {
		dst = append(dst, 1)
	}
	return dst
}

// particle is a particle filter: PoolSize weighted boards. At each capture
// notice every particle makes one opponent move, drawn from the opponent
// model among the options that announce that capture (the "optimal"
// proposal), and its weight is multiplied by the model's probability of the
// notice; the sense and our move result weigh particles by consistency (0 or
// 1). When the effective sample size drops below half the particles they are
// resampled (systematic). When every particle dies the filter is
// rejuvenated from boards consistent with the latest observations, which
// counts as a recovery.
type particle struct {
	opts    Options
	know    knowledge
	gen     losGen
	rng     *rand.Rand
	stage   stage
	boards  []chess.Board
	weights []float64 // normalised
	logSize float64
	stats   BeliefStats
	warned  bool
	moves   []chess.Move
	probs   []float64
}

func newParticle(opts Options) Sampler {
	return &particle{opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x70617274))}
}

func (p *particle) Name() string { return "particle" }
func (p *particle) Workers() int { return 1 }

func (p *particle) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board) error {
	p.know.start(color, board)
	p.stage = p.know.stage
	n := p.opts.PoolSize
	p.boards = make([]chess.Board, n)
	p.weights = make([]float64, n)
	for i := range p.boards {
		p.boards[i] = board
		p.weights[i] = 1 / float64(n)
	}
	p.logSize = 0
	p.stats = BeliefStats{MaxBoards: 1}
	p.warned = false
	return nil
}

func (p *particle) HandleOpponentMoveResult(ctx context.Context, captured bool, square chess.Square) error {
	if !p.know.started {
		return errors.New("sampler: particle: observation before the game start")
	}
	if !captured {
		square = chess.NoSquare
	}
	if p.stage == oppToMove {
		growth := 0.0
		for i := range p.boards {
			if i%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if p.weights[i] == 0 {
				continue
			}
			b := &p.boards[i]
			p.moves = b.AppendOptions(p.moves[:0])
			p.probs = p.opts.Opponent.Weights(b, p.moves, p.probs[:0])
			total, mass, count := 0.0, 0.0, 0
			for j, m := range p.moves {
				total += p.probs[j]
				if b.CaptureSquare(m) == square {
					mass += p.probs[j]
					count++
				}
			}
			p.stats.Expanded++
			growth += p.weights[i] * float64(count)
			if mass <= 0 || total <= 0 {
				p.weights[i] = 0
				continue
			}
			x := p.rng.Float64() * mass
			pick := chess.Move{}
			for j, m := range p.moves {
				if b.CaptureSquare(m) != square || p.probs[j] <= 0 {
					continue
				}
				pick = m
				if x < p.probs[j] {
					break
				}
				x -= p.probs[j]
			}
			b.Apply(pick)
			p.stats.Children++
			p.weights[i] *= mass / total
		}
		if growth > 0 {
			p.logSize += math.Log2(growth)
		}
	} else if square.Valid() {
		clear(p.weights)
	}
	p.stage = usToMove
	p.know.onNotice(square)
	p.settle(false)
	return nil
}

func (p *particle) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	f, err := newSenseFilter(result)
	if err != nil {
		return err
	}
	for i := range p.boards {
		if p.weights[i] > 0 && !f.match(&p.boards[i]) {
			p.weights[i] = 0
		}
	}
	p.know.onSense(f)
	p.settle(true)
	return nil
}

func (p *particle) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, square chess.Square) error {
	if !captured {
		square = chess.NoSquare
	}
	o := observation{kind: obsMove, square: square, requested: requested, taken: taken}
	for i := range p.boards {
		if p.weights[i] == 0 {
			continue
		}
		if next, ok := o.applyMove(&p.boards[i]); ok {
			p.boards[i] = next
		} else {
			p.weights[i] = 0
		}
	}
	p.stage = oppToMove
	p.know.onMove(o)
	p.settle(true)
	return nil
}

// settle normalises the weights, rejuvenates a dead filter, and resamples
// when the effective sample size is low. filtered says the last step was a
// consistency filter, whose kept weight share scales the size estimate.
func (p *particle) settle(filtered bool) {
	total := 0.0
	for _, w := range p.weights {
		total += w
	}
	if total <= 0 {
		p.stats.Recoveries++
		if !p.warned {
			p.warned = true
			p.opts.Logger.Warn("sampler: particle: every particle died; rejuvenated from the latest observations",
				"turn", p.know.turn)
		}
		p.boards = p.gen.generate(&p.know, p.opts.PoolSize, p.rng)
		p.weights = make([]float64, len(p.boards))
		for i := range p.weights {
			p.weights[i] = 1 / float64(len(p.boards))
		}
		p.logSize = p.gen.entropy(&p.know)
		p.stats.MaxBoards = max(p.stats.MaxBoards, p.distinct())
		return
	}
	if filtered && total < 1 {
		p.logSize += math.Log2(total)
	}
	ess := 0.0
	for i := range p.weights {
		p.weights[i] /= total
		ess += p.weights[i] * p.weights[i]
	}
	if 1/ess < float64(len(p.weights))/2 {
		p.resample()
	}
	p.stats.MaxBoards = max(p.stats.MaxBoards, p.distinct())
}

// resample draws the particles again in proportion to their weights
// (systematic resampling) and gives them equal weights.
func (p *particle) resample() {
	n := len(p.boards)
	next := make([]chess.Board, 0, n)
	step := 1 / float64(n)
	x := p.rng.Float64() * step
	acc := 0.0
	for i, w := range p.weights {
		acc += w
		for x < acc && len(next) < n {
			next = append(next, p.boards[i])
			x += step
		}
	}
	for len(next) < n { // rounding
		next = append(next, next[len(next)-1])
	}
	p.boards = next
	for i := range p.weights {
		p.weights[i] = step
	}
}

func (p *particle) distinct() int {
	seen := newKeySet(len(p.boards))
	for i := range p.boards {
		if p.weights[i] > 0 {
			seen.add(p.boards[i].Key())
		}
	}
	return seen.len()
}

func (p *particle) Sample(ctx context.Context, n int, rng *rand.Rand) ([]Weighted, error) {
	return samplePool(p.boards, p.weights, n, rng), nil
}

func (p *particle) ForEach(ctx context.Context, fn func(worker int, boards []chess.Board, weights []float64) error) error {
	return fn(0, p.boards, p.weights)
}

// Size counts the distinct boards among the live particles.
func (p *particle) Size() Size { return Size{Boards: p.distinct()} }

// Entropy is log2 of the estimated size of the information set, estimated as
// for aosp: the weighted mean number of options that agree with each notice,
// times the weight share kept by each filter.
func (p *particle) Entropy() float64 {
	return max(p.logSize, math.Log2(float64(max(p.distinct(), 1))))
}

func (p *particle) Contains(b *chess.Board) bool {
	k := b.Key()
	for i := range p.boards {
		if p.weights[i] > 0 && p.boards[i].Key() == k {
			return true
		}
	}
	return false
}

func (p *particle) Stats() BeliefStats { return p.stats }
func (p *particle) Close() error       { return nil }
