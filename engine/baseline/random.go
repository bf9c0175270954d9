// Package baseline holds the reference harness's two scripted bots,
// re-implemented in Go: Random and Attacker. They are the floor every real
// bot must beat and the cheapest opponents for testing the referee and tools.
package baseline

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Random plays as the harness's random_bot: it senses a square drawn
// uniformly from the sense actions and requests a move drawn uniformly from
// the move actions plus the pass (each of the n+1 choices with chance
// 1/(n+1)). Its draws come from its own generator, so a seed replays a game.
type Random struct {
	rng *rand.Rand
}

// NewRandom returns a Random bot drawing from rng. The bot owns rng from then
// on; games run concurrently need one generator each.
func NewRandom(rng *rand.Rand) *Random { return &Random{rng: rng} }

// HandleGameStart does nothing: the bot keeps no state.
func (b *Random) HandleGameStart(context.Context, chess.Color, chess.Board, string) error { return nil }

// HandleOpponentMoveResult does nothing.
func (b *Random) HandleOpponentMoveResult(context.Context, bool, chess.Square) error { return nil }

// ChooseSense returns a uniformly random sense action.
func (b *Random) ChooseSense(_ context.Context, senseActions []chess.Square, _ []chess.Move, _ time.Duration) (chess.Square, error) {
	return randomSense(b.rng, senseActions), nil
}

// HandleSenseResult does nothing.
func (b *Random) HandleSenseResult(context.Context, []rbc.SquarePiece) error { return nil }

// ChooseMove returns a uniformly random move action or the pass.
func (b *Random) ChooseMove(_ context.Context, moveActions []chess.Move, _ time.Duration) (chess.Move, error) {
	i := b.rng.IntN(len(moveActions) + 1)
	if i == len(moveActions) {
		return chess.Move{}, nil
	}
	return moveActions[i], nil
}

// HandleMoveResult does nothing.
func (b *Random) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}

// HandleGameEnd does nothing.
func (b *Random) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }

// randomSense draws a sense action uniformly; with none offered it passes.
func randomSense(rng *rand.Rand, senseActions []chess.Square) chess.Square {
	if len(senseActions) == 0 {
		return chess.NoSquare
	}
	return senseActions[rng.IntN(len(senseActions))]
}
