package baseline

import (
	"context"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// attackerRushes returns the harness's attacker_bot's four scripted rushes, from
// White's side (mirrored for Black): two queen-side knight raids, a
// king-side knight raid, and the e4/Bc4/Qh5/Bxf7 attack ending on e8.
func attackerRushes() [4][]string {
	return [4][]string{
		{"b1c3", "c3b5", "b5d6", "d6e8"},
		{"b1c3", "c3e4", "e4f6", "f6e8"},
		{"g1h3", "h3f4", "f4h5", "h5f6", "f6e8"},
		{"e2e4", "f1c4", "d1h5", "c4f7", "f7e8", "h5e8"},
	}
}

// Attacker plays as the harness's attacker_bot: at creation it picks one of
// four scripted rushes uniformly, mirrors it when playing Black, and at each
// move drops scripted moves that are not in its move actions and requests
// the next one; once the script is used up it passes. It senses uniformly at
// random. Unlike the harness's bot it keeps its script per game, so a second
// game does not start with a half-used one.
type Attacker struct {
	rng     *rand.Rand
	rush    int
	pending []chess.Move
}

// NewAttacker returns an Attacker drawing from rng (which it owns from then on).
func NewAttacker(rng *rand.Rand) *Attacker {
	b := &Attacker{rng: rng, rush: rng.IntN(len(attackerRushes()))}
	b.pending = rushMoves(b.rush, chess.White)
	return b
}

// Rush returns the index (0-3) of the scripted rush the bot plays.
func (b *Attacker) Rush() int { return b.rush }

// rushMoves returns rush i from colour c's side.
func rushMoves(i int, c chess.Color) []chess.Move {
	rush := attackerRushes()[i]
	moves := make([]chess.Move, len(rush))
	for j, s := range rush {
		m, err := chess.ParseMove(s)
		if err != nil {
			panic("baseline: bad scripted move " + s) // a constant above
		}
		if c == chess.Black {
			m.From = chess.MakeSquare(m.From.File(), 7-m.From.Rank())
			m.To = chess.MakeSquare(m.To.File(), 7-m.To.Rank())
		}
		moves[j] = m
	}
	return moves
}

// HandleGameStart mirrors the script when the bot plays Black.
func (b *Attacker) HandleGameStart(_ context.Context, c chess.Color, _ chess.Board, _ string) error {
	b.pending = rushMoves(b.rush, c)
	return nil
}

// HandleOpponentMoveResult does nothing: the script does not adapt.
func (b *Attacker) HandleOpponentMoveResult(context.Context, bool, chess.Square) error { return nil }

// ChooseSense returns a uniformly random sense action.
func (b *Attacker) ChooseSense(_ context.Context, senseActions []chess.Square, _ []chess.Move, _ time.Duration) (chess.Square, error) {
	return randomSense(b.rng, senseActions), nil
}

// HandleSenseResult does nothing.
func (b *Attacker) HandleSenseResult(context.Context, []rbc.SquarePiece) error { return nil }

// ChooseMove requests the next scripted move that is a move action, dropping
// those that are not; with the script used up it passes.
func (b *Attacker) ChooseMove(_ context.Context, moveActions []chess.Move, _ time.Duration) (chess.Move, error) {
	for len(b.pending) > 0 && !slices.Contains(moveActions, b.pending[0]) {
		b.pending = b.pending[1:]
	}
	if len(b.pending) == 0 {
		return chess.Move{}, nil
	}
	m := b.pending[0]
	b.pending = b.pending[1:]
	return m, nil
}

// HandleMoveResult does nothing.
func (b *Attacker) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}

// HandleGameEnd does nothing.
func (b *Attacker) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }
