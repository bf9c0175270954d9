package match

import (
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Outcome is how a game of any kind ended, in the terms a match counts: who
// won, and the referee's name for why ("KING_CAPTURE" in RBC,
// "CHECKMATE_WHITE_WINS" in Kriegspiel, "TIMEOUT" in both). The reason is a
// name, not an enumeration, so that one results log and one table serve
// every game the runner plays.
type Outcome struct {
	Winner    rbc.Color
	HasWinner bool   // false for a draw
	Reason    string // "" if the referee gave none
	Detail    string // the error or illegal request behind a loss, if any
}

// The reasons the table counts apart: a loss on time, and a loss by a
// failed callback or an illegal action (an error of the bot's, not of its
// play). Every referee uses these names for them.
const (
	ReasonTimeout = "TIMEOUT"
	ReasonResign  = "RESIGN"
	ReasonIllegal = "ILLEGAL_ACTION"
)

// RBCOutcome returns the outcome of an RBC game.
func RBCOutcome(o rbc.Outcome) Outcome {
	out := Outcome{Winner: o.Winner, HasWinner: o.HasWinner, Detail: o.Detail}
	if o.Reason != rbc.NoReason {
		out.Reason = o.Reason.String()
	}
	return out
}

// String returns e.g. "white wins by KING_CAPTURE" or "draw by MOVE_LIMIT".
func (o Outcome) String() string {
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
