package kriegspiel

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The referee's messages. Names (String) are the reference referee's own, so
// that records, logs and the cross-check with the reference read alike.

// Question is what a player asks the referee: a move to try or, under
// berkeley_any, "are there any?" (does any of my pawns have a legal capture?).
type Question struct {
	// AskAny marks the "any?" question; Move is then unused.
	AskAny bool
	Move   chess.Move
}

// TryMove returns the question "may I play m?".
func TryMove(m chess.Move) Question { return Question{Move: m} }

// Any returns the question "are there any pawn captures?".
func Any() Question { return Question{AskAny: true} }

// String returns the move in UCI form, or "any".
func (q Question) String() string {
	if q.AskAny {
		return "any"
	}
	return q.Move.String()
}

// ParseQuestion reads "any" or a move in UCI form.
func ParseQuestion(s string) (Question, error) {
	if s == "any" {
		return Any(), nil
	}
	m, err := chess.ParseMove(s)
	if err != nil {
		return Question{}, fmt.Errorf("kriegspiel: bad question %q: %w", s, err)
	}
	if m.IsNull() {
		return Question{}, fmt.Errorf("kriegspiel: bad question %q: the null move is not a move", s)
	}
	return TryMove(m), nil
}

// Verdict is the referee's main answer to a question.
type Verdict uint8

// The verdicts.
const (
	// Impossible: the question is not one the player may ask — the move is
	// impossible for its own men, or was already refused this turn, or "any?"
	// is not allowed now. It tells nobody anything and is not recorded on
	// either scoresheet (the reference's IMPOSSIBLE_TO_ASK).
	Impossible Verdict = iota
	// Illegal: the move is not legal on the true board (ILLEGAL_MOVE). The
	// player tries again.
	Illegal
	// Moved: the move is made and captures nothing (REGULAR_MOVE).
	Moved
	// Captured: the move is made and captures (CAPTURE_DONE).
	Captured
	// HasAny: at least one pawn capture is legal; the player must now try
	// pawn captures until one is made (HAS_ANY).
	HasAny
	// NoAny: no pawn capture is legal; pawn captures may not be tried for
	// the rest of the turn (NO_ANY).
	NoAny
)

var verdictNames = [...]string{"IMPOSSIBLE_TO_ASK", "ILLEGAL_MOVE", "REGULAR_MOVE", "CAPTURE_DONE", "HAS_ANY", "NO_ANY"}

// String returns the reference's name of the verdict.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", v)
}

// ParseVerdict reads a verdict by its reference name.
func ParseVerdict(s string) (Verdict, error) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), nil
		}
	}
	return 0, fmt.Errorf("kriegspiel: unknown verdict %q (want one of %s)", s, strings.Join(verdictNames[:], ", "))
}

// Done reports whether the verdict ends the turn: the move was made.
func (v Verdict) Done() bool { return v == Moved || v == Captured }

// Check is the direction of a check, as the referee announces it: the line
// from the checking piece to the king.
type Check uint8

// The check directions. A diagonal check names which of the two diagonals
// through the king's square it comes along: the long one or the short one
// (they are never equally long: that would take a file or rank of 3½).
const (
	NoCheck Check = iota
	CheckRank
	CheckFile
	CheckLongDiagonal
	CheckShortDiagonal
	CheckKnight
)

var checkNames = [...]string{"NONE", "CHECK_RANK", "CHECK_FILE", "CHECK_LONG_DIAGONAL", "CHECK_SHORT_DIAGONAL", "CHECK_KNIGHT"}

// String returns the reference's name of the direction ("NONE" for no check).
func (c Check) String() string {
	if int(c) < len(checkNames) {
		return checkNames[c]
	}
	return fmt.Sprintf("Check(%d)", c)
}

// ParseCheck reads a check direction by its reference name.
func ParseCheck(s string) (Check, error) {
	for i, n := range checkNames {
		if n == s {
			return Check(i), nil
		}
	}
	return 0, fmt.Errorf("kriegspiel: unknown check %q (want one of %s)", s, strings.Join(checkNames[:], ", "))
}

// Ending says how a move ended the game, if it did.
type Ending uint8

// The endings. The reference referee announces the first five; the
// fifty-move rule reuses its "too many reversible moves" at another limit,
// and DrawRepetition is ours (see Ruleset).
const (
	NotOver Ending = iota
	CheckmateWhiteWins
	CheckmateBlackWins
	DrawStalemate
	DrawInsufficient
	// DrawReversible: the half-move clock (moves since the last capture or
	// pawn move) reached the ruleset's limit.
	DrawReversible
	// DrawRepetition: the same position arose the ruleset's number of times.
	DrawRepetition
)

var endingNames = [...]string{"NONE", "CHECKMATE_WHITE_WINS", "CHECKMATE_BLACK_WINS", "DRAW_STALEMATE",
	"DRAW_INSUFFICIENT", "DRAW_TOOMANYREVERSIBLEMOVES", "DRAW_REPETITION"}

// String returns the reference's name of the ending ("NONE" when not over).
func (e Ending) String() string {
	if int(e) < len(endingNames) {
		return endingNames[e]
	}
	return fmt.Sprintf("Ending(%d)", e)
}

// ParseEnding reads an ending by its reference name.
func ParseEnding(s string) (Ending, error) {
	for i, n := range endingNames {
		if n == s {
			return Ending(i), nil
		}
	}
	return 0, fmt.Errorf("kriegspiel: unknown ending %q (want one of %s)", s, strings.Join(endingNames[:], ", "))
}

// Winner returns the winner of a checkmate; ok is false for a draw or NotOver.
func (e Ending) Winner() (winner chess.Color, ok bool) {
	switch e {
	case CheckmateWhiteWins:
		return chess.White, true
	case CheckmateBlackWins:
		return chess.Black, true
	}
	return chess.White, false
}

// CaptureKind is what the referee says about a captured man: nothing more
// than the square (berkeley), or whether it was a pawn (wild16).
type CaptureKind uint8

// The capture kinds.
const (
	// Unannounced: no capture, or a ruleset that names only the square.
	Unannounced CaptureKind = iota
	CapturedPawn
	CapturedPiece
)

var captureKindNames = [...]string{"", "PAWN", "PIECE"}

// String returns "PAWN", "PIECE", or "" when unannounced.
func (k CaptureKind) String() string {
	if int(k) < len(captureKindNames) {
		return captureKindNames[k]
	}
	return fmt.Sprintf("CaptureKind(%d)", k)
}

// ParseCaptureKind reads "PAWN" or "PIECE" ("" is Unannounced).
func ParseCaptureKind(s string) (CaptureKind, error) {
	for i, n := range captureKindNames {
		if n == s {
			return CaptureKind(i), nil
		}
	}
	return 0, fmt.Errorf("kriegspiel: unknown captured-piece kind %q (want PAWN or PIECE)", s)
}

// Answer is the referee's whole reply to one question. For a move that is
// made it carries every announcement the move causes; both players hear it.
type Answer struct {
	Verdict Verdict
	// Capture is the square of the captured man (for en passant, the square
	// of the captured pawn), or NoSquare.
	Capture chess.Square
	// Captured says whether a pawn or a piece was taken, when the ruleset
	// announces it.
	Captured CaptureKind
	// Checks holds the direction of each check the move gives: Checks[1] is
	// NoCheck unless it is a double check (then the two are in the order of
	// the checking pieces' squares, a1 first). A move that ends the game
	// announces the ending instead of a check.
	Checks [2]Check
	// End is how the move ended the game, or NotOver.
	End Ending
	// PawnTries is the number of legal pawn captures of the player now to
	// move (one per pawn and target square, however many promotions), when
	// the ruleset announces it and the game goes on; -1 otherwise.
	PawnTries int
}

// VerdictOnly returns an answer with only a verdict: no capture, no check,
// no count of pawn tries.
func VerdictOnly(v Verdict) Answer { return Answer{Verdict: v, Capture: chess.NoSquare, PawnTries: -1} }

// DoubleCheck reports whether the answer announces a double check.
func (a Answer) DoubleCheck() bool { return a.Checks[1] != NoCheck }

// String shows the answer in one line, e.g. "CAPTURE_DONE d5 PAWN CHECK_FILE tries=1".
func (a Answer) String() string {
	parts := []string{a.Verdict.String()}
	if a.Capture != chess.NoSquare {
		parts = append(parts, a.Capture.String())
	}
	if a.Captured != Unannounced {
		parts = append(parts, a.Captured.String())
	}
	if a.DoubleCheck() {
		parts = append(parts, "CHECK_DOUBLE("+a.Checks[0].String()+","+a.Checks[1].String()+")")
	} else if a.Checks[0] != NoCheck {
		parts = append(parts, a.Checks[0].String())
	}
	if a.End != NotOver {
		parts = append(parts, a.End.String())
	}
	if a.PawnTries >= 0 {
		parts = append(parts, fmt.Sprintf("tries=%d", a.PawnTries))
	}
	return strings.Join(parts, " ")
}
