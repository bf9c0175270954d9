package rbc

import (
	"context"
	"fmt"
	"github.com/blindfish-rbc/blindfish/chess"
	"time"
)

// Player is a bot as the referee (and the reference harness) sees it: seven
// callbacks, called in the order of a game. Every callback gets a context
// whose deadline is the player's clock; a callback that returns an error, or
// outlives its context, loses the game (by resignation or on time).
type Player interface {
	// HandleGameStart is called once, before the first turn.
	HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) error
	// HandleOpponentMoveResult starts each of our turns (White's first one
	// too): whether the opponent's last move captured one of our pieces and
	// on which square (NoSquare if none).
	HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare chess.Square) error
	// ChooseSense returns the centre of the 3×3 window to sense, or NoSquare to pass.
	ChooseSense(ctx context.Context, senseActions []chess.Square, moveActions []chess.Move, secondsLeft time.Duration) (chess.Square, error)
	// HandleSenseResult receives the window's contents in the harness's order.
	HandleSenseResult(ctx context.Context, result []SquarePiece) error
	// ChooseMove returns a move from moveActions, or the null move to pass.
	ChooseMove(ctx context.Context, moveActions []chess.Move, secondsLeft time.Duration) (chess.Move, error)
	// HandleMoveResult receives what became of our request: the move taken
	// (null if none) and the square of the captured piece (NoSquare if none).
	HandleMoveResult(ctx context.Context, requested, taken chess.Move, capturedOpponentPiece bool, captureSquare chess.Square) error
	// HandleGameEnd is called once with the outcome and the full game record.
	HandleGameEnd(ctx context.Context, outcome Outcome, history *History) error
}

// WinReason says why a game ended. The first five are the harness's own.
type WinReason uint8

// The reasons a game can end.
const (
	NoReason    WinReason = iota
	KingCapture           // a king was captured
	Timeout               // a clock ran out
	Resign                // a player resigned (or a callback failed)
	TurnLimit             // the optional full-turn limit was reached (draw)
	MoveLimit             // 100 half-moves without a capture or pawn move (draw)
	// IllegalAction: a player requested a move or sense outside its actions.
	// The harness stops with an error there; the referee scores it as a loss.
	IllegalAction
)

var winReasonNames = [...]string{"", "KING_CAPTURE", "TIMEOUT", "RESIGN", "TURN_LIMIT", "MOVE_LIMIT", "ILLEGAL_ACTION"}

// Valid reports whether r is one of the reasons above.
func (r WinReason) Valid() bool { return int(r) < len(winReasonNames) }

// String returns the harness's name of the reason ("KING_CAPTURE", …).
func (r WinReason) String() string {
	if int(r) < len(winReasonNames) {
		return winReasonNames[r]
	}
	return fmt.Sprintf("WinReason(%d)", r)
}

// ParseWinReason reads a reason by its harness name.
func ParseWinReason(s string) (WinReason, error) {
	for i, n := range winReasonNames {
		if i > 0 && n == s {
			return WinReason(i), nil
		}
	}
	return NoReason, fmt.Errorf("rbc: unknown win reason %q", s)
}

// Outcome is how a game ended.
type Outcome struct {
	Winner    chess.Color
	HasWinner bool // false for a draw (or a game not over)
	Reason    WinReason
	// Detail explains losses the harness has no reason for: the illegal
	// request, or the error a player's callback returned.
	Detail string
}

// String returns e.g. "white wins by KING_CAPTURE" or "draw by MOVE_LIMIT".
func (o Outcome) String() string {
	s := "draw"
	if o.HasWinner {
		s = o.Winner.String() + " wins"
	}
	if o.Reason != NoReason {
		s += " by " + o.Reason.String()
	}
	if o.Detail != "" {
		s += " (" + o.Detail + ")"
	}
	return s
}
