package kriegspiel

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Words says the answer to mover's question in words: "legal,
// captures on d5 (a pawn), check on the file; black's pawn tries: 1".
func (a Answer) Words(mover chess.Color) string {
	var parts []string
	switch a.Verdict {
	case Impossible:
		return "not allowed (nobody is told)"
	case Illegal:
		return "illegal"
	case HasAny:
		return "any? yes: a pawn capture is legal"
	case NoAny:
		return "any? no: no pawn capture is legal"
	case Moved:
		parts = append(parts, "legal")
	case Captured:
		s := "legal, captures on " + a.Capture.String()
		switch a.Captured {
		case CapturedPawn:
			s += " (a pawn)"
		case CapturedPiece:
			s += " (a piece)"
		}
		parts = append(parts, s)
	default:
		parts = append(parts, a.Verdict.String())
	}
	if a.Checks[0] != NoCheck {
		parts = append(parts, a.CheckWords())
	}
	s := strings.Join(parts, ", ")
	if a.End != NotOver {
		s += "; " + a.End.Words()
	}
	if a.PawnTries >= 0 {
		s += fmt.Sprintf("; %v's pawn tries: %d", mover.Other(), a.PawnTries)
	}
	return s
}

// words says where a check comes from: "the file", "a knight".
func (c Check) words() string {
	switch c {
	case CheckRank:
		return "the rank"
	case CheckFile:
		return "the file"
	case CheckLongDiagonal:
		return "the long diagonal"
	case CheckShortDiagonal:
		return "the short diagonal"
	case CheckKnight:
		return "a knight"
	}
	return c.String()
}

// CheckWords says the check an answer announces: "check on the file",
// "double check: the file and a knight".
func (a Answer) CheckWords() string {
	if a.DoubleCheck() {
		return "double check: " + a.Checks[0].words() + " and " + a.Checks[1].words()
	}
	if a.Checks[0] == CheckKnight {
		return "check by a knight"
	}
	return "check on " + a.Checks[0].words()
}

// Words says how a game ended: "checkmate, white wins".
func (e Ending) Words() string {
	switch e {
	case CheckmateWhiteWins:
		return "checkmate, white wins"
	case CheckmateBlackWins:
		return "checkmate, black wins"
	case DrawStalemate:
		return "stalemate, a draw"
	case DrawInsufficient:
		return "a draw: insufficient material"
	case DrawReversible:
		return "a draw: too many moves without a capture or a pawn move"
	case DrawRepetition:
		return "a draw by repetition"
	}
	return e.String()
}
