package match

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Outcome is how a game of any kind ended, in the terms a match counts: who
// won, and the referee's name for why ("KING_CAPTURE" in RBC,
// "CHECKMATE_WHITE_WINS" in Kriegspiel, "TIMEOUT" in both). The reason is a
// name, not an enumeration, so that one results log and one table serve
// every game the runner plays.
type Outcome struct {
	Winner    chess.Color
	HasWinner bool   // false for a draw
	Reason    string // "" if the referee gave none
	Detail    string // the error or illegal request behind a loss, if any
	// Failed is the side whose failure voided the game (Reason
	// ReasonError): a bot that cannot start, or whose callback returned an
	// error or panicked.
	Failed chess.Color
}

// The reasons the table counts apart: a loss on time, and a loss by a
// failed callback or an illegal action (an error of the bot's, not of its
// play). Every referee uses these names for them.
const (
	ReasonTimeout = "TIMEOUT"
	ReasonResign  = "RESIGN"
	ReasonIllegal = "ILLEGAL_ACTION"
	// ReasonError ends a void game: a bot failed (its engine did not start,
	// a callback returned an error or panicked), which the referee scores
	// as a resignation. Such a game says nothing of how well the bots play
	// (it is often the machine's fault: a missing program, a Stockfish
	// that cannot start), so the match does not count it as a win for the
	// other side: it is left out of W/D/L, Elo and the SPRT, counted in
	// the table's errors column, and played again on resume.
	ReasonError = "ERROR"
)

// Void reports whether the game was voided by a bot's failure.
func (o Outcome) Void() bool { return o.Reason == ReasonError }

// VoidIfFailed turns a resignation of a side whose callback failed
// (failed[c]) into a void game, keeping the referee's detail.
func VoidIfFailed(o Outcome, failed [2]bool) Outcome {
	if !o.HasWinner || o.Reason != ReasonResign || !failed[o.Winner.Other()] {
		return o
	}
	return Outcome{Reason: ReasonError, Failed: o.Winner.Other(), Detail: o.Detail}
}

// RBCOutcome returns the outcome of an RBC game.
func RBCOutcome(o rbc.Outcome) Outcome {
	out := Outcome{Winner: o.Winner, HasWinner: o.HasWinner, Detail: o.Detail}
	if o.Reason != rbc.NoReason {
		out.Reason = o.Reason.String()
	}
	return out
}

// String returns e.g. "white wins by KING_CAPTURE", "draw by MOVE_LIMIT" or
// "void: black failed (…)".
func (o Outcome) String() string {
	if o.Void() {
		s := "void: " + o.Failed.String() + " failed"
		if o.Detail != "" {
			s += " (" + o.Detail + ")"
		}
		return s
	}
	s := "draw"
	if o.HasWinner {
		s = o.Winner.String() + " wins"
	}
	if o.Reason != "" {
		s += " by " + o.Reason
	}
	if o.Detail != "" {
		s += " (" + o.Detail + ")"
	}
	return s
}

// reasonOrder is where a reason comes in the table's list: RBC's reasons in
// the harness's order, then the others by name.
func reasonOrder(reason string) int {
	for i := rbc.WinReason(1); i <= rbc.IllegalAction; i++ {
		if i.String() == reason {
			return int(i)
		}
	}
	return int(rbc.IllegalAction) + 1
}
