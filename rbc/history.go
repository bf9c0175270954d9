package rbc

import (
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
)

// History is the record of a whole game, as the harness keeps it in its
// GameHistory JSON (see history_json.go for the file format).
type History struct {
	WhiteName, BlackName string
	// Turns holds each colour's turns in order, indexed by Color.
	Turns   [2][]TurnRecord
	Outcome Outcome
}

// TurnRecord is one player's turn: the sense, then the move.
type TurnRecord struct {
	Sense       chess.Square // NoSquare for a passed sense
	SenseResult []SquarePiece
	// HasMove is false when the game ended after the sense (a loss on time
	// in the middle of a turn); the move fields are then unset.
	HasMove   bool
	Requested chess.Move   // as the player sent it; null for a pass
	Taken     chess.Move   // null when the request resolved to no move
	Capture   chess.Square // the captured piece's square, or NoSquare
	FENBefore string       // the true board before the move
	FENAfter  string       // the true board after the move
}

// Clone returns a deep copy of h, so that a player handed the record cannot
// change the referee's copy (or the other player's).
func (h *History) Clone() *History {
	c := *h
	for col := range c.Turns {
		c.Turns[col] = slices.Clone(h.Turns[col])
		for i := range c.Turns[col] {
			c.Turns[col][i].SenseResult = slices.Clone(h.Turns[col][i].SenseResult)
		}
	}
	return &c
}
