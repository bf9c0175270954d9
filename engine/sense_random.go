package engine

import (
	"context"

	"github.com/blindfish-rbc/blindfish/chess"
)

// randomSense senses a random inner window: the baseline the other
// strategies must beat. (The harness's random bot senses any square; an edge
// window only sees less, so this baseline is a slightly stronger one.)
type randomSense struct{}

func newRandomSense(*Config) SenseStrategy { return randomSense{} }

// ChooseSense returns a uniformly random inner window.
func (randomSense) ChooseSense(_ context.Context, t *TurnView) (chess.Square, error) {
	sq := innerSquares(t.SenseActions)
	if len(sq) == 0 {
		if len(t.SenseActions) == 0 {
			return chess.NoSquare, nil
		}
		return t.SenseActions[t.Rand.IntN(len(t.SenseActions))], nil
	}
	return sq[t.Rand.IntN(len(sq))], nil
}
