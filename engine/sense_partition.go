package engine

import (
	"context"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// partitionSense chooses the inner window whose outcome distribution over
// sampled boards scores best under a statistic of that distribution alone
// (no evaluation): the cheap family of sense rules (size, entropy, hsuc).
type partitionSense struct {
	name  string
	score func(p []float64) float64 // higher is better; p sums to one
}

// ChooseSense samples Config.SenseSamples boards and returns the window whose
// outcome distribution scores best; ties go to the window expected to show
// more opponent pieces, then to the first in board order.
func (s *partitionSense) ChooseSense(ctx context.Context, t *TurnView) (chess.Square, error) {
	ws, err := t.sample(ctx, t.Config.SenseSamples)
	if err != nil {
		return chess.NoSquare, err
	}
	best, _ := bestPartitionWindow(ws, innerSquares(t.SenseActions), t.Color.Other(), s.score)
	t.Log.Debug("sense", "strategy", s.name, "boards", len(ws), "square", best.sq.String(), "score", best.score)
	return best.sq, nil
}

// bestPartitionWindow scores each window by score(outcome distribution) and
// returns the best and every score (for voi's reduction term and for tests).
func bestPartitionWindow(ws []sampler.Weighted, squares []chess.Square, them chess.Color, score func([]float64) float64) (scoredSquare, map[chess.Square]float64) {
	best := scoredSquare{sq: chess.NoSquare}
	all := make(map[chess.Square]float64, len(squares))
	acc := make(map[uint64]float64, len(ws))
	for _, q := range squares {
		c := scoredSquare{sq: q, score: score(windowGroups(ws, q, acc)), tie: opponentWeight(ws, q, them)}
		all[q] = c.score
		if best.sq == chess.NoSquare || c.better(best) {
			best = c
		}
	}
	return best, all
}
