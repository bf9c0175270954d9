package sampler

import (
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// ObservedTurn is one of a player's turns as that player observed it, with
// the true boards for evaluation: the unit in which a recorded game is
// replayed through a belief (Observations), which is fed exactly these
// observations, in this order. Not to be confused with rbc.TurnRecord, the
// record of a turn as the referee saw it, or player.TurnView, what a strategy
// sees when it decides.
type ObservedTurn struct {
	// Index counts the player's turns from 0.
	Index int
	// CaptureSquare is where the opponent's last move captured one of our
	// pieces (the notice at the turn's start), or NoSquare.
	CaptureSquare chess.Square
	// Sense is the sensed square (NoSquare for a pass) and SenseResult what
	// the sense showed.
	Sense       chess.Square
	SenseResult []rbc.SquarePiece
	// HasMove is false when the game ended after the sense.
	HasMove   bool
	Requested chess.Move
	Taken     chess.Move
	Capture   chess.Square // where our move captured, or NoSquare
	// Before and After are the true boards before and after our move (After
	// is the zero board without a move).
	Before, After chess.Board
}

// Observations returns the starting board and the turns of colour c in a
// recorded game, as c observed them.
func Observations(h *rbc.History, c chess.Color) (chess.Board, []ObservedTurn, error) {
	start := chess.StartBoard()
	if w := h.Turns[chess.White]; len(w) > 0 && w[0].HasMove {
		b, err := chess.ParsePosition(w[0].FENBefore) // a position from outside: checked
		if err != nil {
			return chess.Board{}, nil, fmt.Errorf("sampler: white's first board: %w", err)
		}
		start = b
	}
	opp := h.Turns[c.Other()]
	var turns []ObservedTurn
	for i, rec := range h.Turns[c] {
		t := ObservedTurn{Index: i, CaptureSquare: chess.NoSquare, Sense: rec.Sense, SenseResult: rec.SenseResult,
			HasMove: rec.HasMove, Requested: rec.Requested, Taken: rec.Taken, Capture: chess.NoSquare}
		// The opponent's move just before this turn.
		j := i
		if c == chess.White {
			j = i - 1
		}
		var prev *rbc.TurnRecord
		if j >= 0 && j < len(opp) {
			prev = &opp[j]
			if prev.HasMove {
				t.CaptureSquare = prev.Capture
			}
		}
		var err error
		switch {
		case rec.HasMove:
			t.Before, err = chess.ParseFEN(rec.FENBefore)
		case prev != nil && prev.HasMove:
			t.Before, err = chess.ParseFEN(prev.FENAfter)
		default:
			t.Before = start
		}
		if err != nil {
			return chess.Board{}, nil, fmt.Errorf("sampler: %v's turn %d: %w", c, i, err)
		}
		if rec.HasMove {
			t.Capture = rec.Capture
			if t.After, err = chess.ParseFEN(rec.FENAfter); err != nil {
				return chess.Board{}, nil, fmt.Errorf("sampler: %v's turn %d: %w", c, i, err)
			}
		}
		turns = append(turns, t)
	}
	return start, turns, nil
}

// Notice feeds the turn's capture notice to s.
func (t *ObservedTurn) Notice(ctx context.Context, s Sampler) error {
	return s.HandleOpponentMoveResult(ctx, t.CaptureSquare.Valid(), t.CaptureSquare)
}

// SenseWith feeds the turn's sense result to s. With a valid square other
// than the recorded one it feeds what that square shows on the true board
// instead (for trying sense strategies on recorded games); NoSquare passes.
func (t *ObservedTurn) SenseWith(ctx context.Context, s Sampler, square chess.Square) error {
	if square == t.Sense {
		return s.HandleSenseResult(ctx, t.SenseResult)
	}
	return s.HandleSenseResult(ctx, rbc.Sense(&t.Before, square))
}

// Move feeds the turn's move result to s (nothing when the turn has no move).
func (t *ObservedTurn) Move(ctx context.Context, s Sampler) error {
	if !t.HasMove {
		return nil
	}
	return s.HandleMoveResult(ctx, t.Requested, t.Taken, t.Capture.Valid(), t.Capture)
}
