package bots

import (
	"context"
	"math"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// chooseA is approach A of the MCTS paper, the standard MCTS of Phantom Go
// carried over: each simulation draws one full board consistent with what
// we heard (the paper drew it from per-square probabilities fit on human
// games; we draw it from the belief's boards, which are consistent with
// every answer so far, not only the last), plays the move there and then
// random legal moves for both sides to the natural end of the game (at most
// aPlayout plies, then a draw), and scores win 1, draw ½, loss 0. A move
// refused on the drawn board scores ½: it teaches nothing there. The root's
// moves are chosen by UCB1 and the move simulated most is asked. The paper
// found this indistinguishable from a random player; it is here to be
// measured as the paper measured it.
func (p *MCTS) chooseA(ctx context.Context, boards []chess.Board, moves []chess.Move, deadline time.Time) chess.Move {
	visits := make([]int, len(moves))
	sums := make([]float64, len(moves))
	limit := p.cfg.Iterations
	if limit <= 0 {
		limit = maxIterations
	}
	var buf [256]chess.Move
	total := 0
	for total < limit {
		i := pickUCB(visits, sums, total, p.cfg.Exploration)
		b := boards[p.rng.IntN(len(boards))]
		v := 0.5
		if chess.IsLegal(&b, moves[i]) {
			b.Apply(moves[i])
			v = p.playout(&b, buf[:0])
		}
		visits[i]++
		sums[i] += v
		total++
		if total%16 == 0 && (ctx.Err() != nil || !time.Now().Before(deadline)) {
			break
		}
	}
	p.Iterations += total
	best := 0
	for i := range moves {
		if visits[i] > visits[best] || (visits[i] == visits[best] && sums[i] > sums[best]) {
			best = i
		}
	}
	return moves[best]
}

// aPlayout is the most plies a playout of approach A plays before it calls
// the game drawn.
const aPlayout = 300

// playout plays random legal moves on b to the game's end and scores it
// for us.
func (p *MCTS) playout(b *chess.Board, buf []chess.Move) float64 {
	for range aPlayout {
		legal := chess.AppendLegalMoves(b, buf[:0])
		switch {
		case len(legal) == 0 && chess.InCheck(b):
			if b.Turn() == p.color {
				return 0
			}
			return 1
		case len(legal) == 0 || kriegspiel.InsufficientMaterial(b):
			return 0.5
		}
		b.Apply(legal[p.rng.IntN(len(legal))])
	}
	return 0.5
}

// pickUCB returns the arm to play: the first never played, else the best
// by UCB1 with exploration c.
func pickUCB(visits []int, sums []float64, total int, c float64) int {
	best, bestScore := 0, math.Inf(-1)
	logN := math.Log(float64(max(total, 1)))
	for i, n := range visits {
		if n == 0 {
			return i
		}
		s := sums[i]/float64(n) + c*math.Sqrt(logN/float64(n))
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}
