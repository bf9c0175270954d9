package kriegspielorg

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// The server tells a bot what its opponent's questions got only in words:
// each line of the viewer's scoresheet carries the answer as the messages a
// person reads ("Pawn captured at E4", "Check on file", "2 pawn tries").
// This file reads those words back into the referee's answers, and writes
// them (for the loopback server of the tests). The words are the server's
// API as it stands; a message we do not know is an error, never a guess.

// Line is one line of a scoresheet read back: a question and its answer, or
// the pawn tries announced at the start of a turn (Status).
type Line struct {
	Turn  int
	Color chess.Color // whose question, or whose turn the status opens
	// Status marks a pawn-tries line; PawnTries is then its number.
	Status    bool
	PawnTries int
	// Question is the question when the viewer asked it; of the opponent's
	// questions only AskAny is known.
	Question kriegspiel.Question
	Answer   kriegspiel.Answer
}

// The words of the main announcements, the checks and the endings.
var (
	checkWords = map[string]kriegspiel.Check{
		"Check on rank":           kriegspiel.CheckRank,
		"Check on file":           kriegspiel.CheckFile,
		"Check on long diagonal":  kriegspiel.CheckLongDiagonal,
		"Check on short diagonal": kriegspiel.CheckShortDiagonal,
		"Check by knight":         kriegspiel.CheckKnight,
	}
	endingWords = map[string]kriegspiel.Ending{
		"Checkmate — White wins":            kriegspiel.CheckmateWhiteWins,
		"Checkmate — Black wins":            kriegspiel.CheckmateBlackWins,
		"Draw by stalemate":                 kriegspiel.DrawStalemate,
		"Draw by insufficient material":     kriegspiel.DrawInsufficient,
		"Draw by too many reversible moves": kriegspiel.DrawReversible,
	}
)

const doubleCheckWords = "Double check"

// ReadScoresheet reads a viewer's scoresheet into lines, in the order they
// were heard: turn by turn, White's column before Black's, and in a column
// the status line (the pawn tries) before the questions. Each made move's
// Answer.PawnTries is taken from the status line that follows it, as the
// referee announces it with the move.
func ReadScoresheet(sc Scoresheet, rules kriegspiel.Ruleset) ([]Line, error) {
	viewer, err := color(sc.ViewerColor)
	if err != nil {
		return nil, fmt.Errorf("kriegspiel.org: the scoresheet's viewer: %w", err)
	}
	var lines []Line
	for _, t := range sc.Turns {
		for c, column := range [2][]Entry{t.White, t.Black} {
			for i, e := range column {
				l, err := readEntry(e, chess.Color(c), viewer, rules)
				if err != nil {
					return nil, fmt.Errorf("kriegspiel.org: scoresheet turn %d, %s's line %d: %w", t.Turn, chess.Color(c), i+1, err)
				}
				l.Turn = t.Turn
				lines = append(lines, l)
			}
		}
	}
	// A made move's answer carries the pawn tries of the player to move next.
	for i := range lines {
		a := &lines[i].Answer
		if lines[i].Status || !a.Verdict.Done() || !rules.PawnTries || a.End != kriegspiel.NotOver {
			continue
		}
		if i+1 < len(lines) && lines[i+1].Status {
			a.PawnTries = lines[i+1].PawnTries
		}
	}
	return lines, nil
}

// readEntry reads one line; c is the colour of its column.
func readEntry(e Entry, c, viewer chess.Color, rules kriegspiel.Ruleset) (Line, error) {
	l := Line{Color: c, Answer: kriegspiel.Answer{Capture: chess.NoSquare, PawnTries: -1}}
	msgs := e.Messages
	if len(msgs) == 0 && e.Message != "" {
		msgs = []string{e.Message}
	}
	if len(msgs) == 0 {
		return l, fmt.Errorf("no message in a %q line", e.Kind)
	}
	if e.Kind == "status" {
		n, err := readPawnTries(msgs[0])
		if err != nil {
			return l, err
		}
		l.Status, l.PawnTries = true, n
		return l, nil
	}
	own := c == viewer
	if own {
		q, err := ownQuestion(e)
		if err != nil {
			return l, err
		}
		l.Question = q
	} else {
		l.Question.AskAny = e.Kind == "ask_any" || strings.EqualFold(e.Question, "ASK_ANY")
	}
	if err := readMain(&l.Answer, msgs[0], e.Kind, rules); err != nil {
		return l, err
	}
	rest := msgs[1:]
	for len(rest) > 0 {
		w := rest[0]
		rest = rest[1:]
		switch {
		case w == "Promotion":
			// Announced by rulesets we do not play; it changes no belief of ours.
		case w == doubleCheckWords:
			if len(rest) < 2 {
				return l, fmt.Errorf("%q without its two directions", w)
			}
			for i := range 2 {
				ch, ok := checkWords[rest[i]]
				if !ok {
					return l, fmt.Errorf("a double check's direction %q", rest[i])
				}
				l.Answer.Checks[i] = ch
			}
			rest = rest[2:]
		case checkWords[w] != kriegspiel.NoCheck:
			l.Answer.Checks[0] = checkWords[w]
		case endingWords[w] != kriegspiel.NotOver:
			l.Answer.End = endingWords[w]
		default:
			return l, fmt.Errorf("unknown announcement %q", w)
		}
	}
	return l, nil
}

// ownQuestion is the viewer's own question of a line.
func ownQuestion(e Entry) (kriegspiel.Question, error) {
	if e.Kind == "ask_any" || strings.EqualFold(e.Question, "ASK_ANY") {
		return kriegspiel.Any(), nil
	}
	q, err := kriegspiel.ParseQuestion(e.MoveUCI)
	if err != nil {
		return q, fmt.Errorf("our own move in the scoresheet: %w", err)
	}
	return q, nil
}

// readMain reads the main announcement's words into a.
func readMain(a *kriegspiel.Answer, w, kind string, rules kriegspiel.Ruleset) error {
	switch {
	case kind == "ask_any" && w == "Has pawn captures":
		a.Verdict = kriegspiel.HasAny
	case kind == "ask_any" && w == "No pawn captures":
		a.Verdict = kriegspiel.NoAny
	case w == "Illegal move":
		a.Verdict = kriegspiel.Illegal
	case w == "Move complete":
		a.Verdict = kriegspiel.Moved
	default:
		what, at, ok := strings.Cut(w, " at ")
		if !ok {
			return fmt.Errorf("unknown announcement %q", w)
		}
		sq, err := chess.ParseSquare(strings.ToLower(at))
		if err != nil {
			return fmt.Errorf("the capture square of %q: %w", w, err)
		}
		a.Verdict, a.Capture = kriegspiel.Captured, sq
		switch what {
		case "Capture done":
		case "Pawn captured":
			a.Captured = kriegspiel.CapturedPawn
		case "En passant capture":
			if rules.TypedCaptures {
				a.Captured = kriegspiel.CapturedPawn
			}
		case "Piece captured", "Knight captured", "Bishop captured", "Rook captured", "Queen captured":
			a.Captured = kriegspiel.CapturedPiece
		default:
			return fmt.Errorf("unknown announcement %q", w)
		}
	}
	return nil
}

// readPawnTries reads a status line's number of pawn tries.
func readPawnTries(w string) (int, error) {
	switch {
	case w == "No pawn captures":
		return 0, nil
	case w == "1 pawn try":
		return 1, nil
	case strings.HasSuffix(w, " pawn tries"):
		n, err := strconv.Atoi(strings.TrimSuffix(w, " pawn tries"))
		if err != nil || n < 2 {
			return 0, fmt.Errorf("unknown status %q", w)
		}
		return n, nil
	case strings.HasPrefix(w, "Pawn try from "):
		return 1, nil
	case strings.HasPrefix(w, "Pawn tries from "):
		return len(strings.Split(strings.TrimPrefix(w, "Pawn tries from "), ",")), nil
	}
	return 0, fmt.Errorf("unknown status %q", w)
}

// WriteEntry writes a question's answer as the server shows it on a
// scoresheet; own says whether the viewer asked it (its move is shown).
func WriteEntry(q kriegspiel.Question, a kriegspiel.Answer, own bool) Entry {
	e := Entry{Kind: "move", Actor: "opponent", Question: "COMMON"}
	if own {
		e.Actor = "self"
		if !q.AskAny {
			e.MoveUCI = q.Move.String()
		}
	}
	var main string
	switch a.Verdict {
	case kriegspiel.HasAny, kriegspiel.NoAny:
		e.Kind, e.Question = "ask_any", "ASK_ANY"
		main = map[bool]string{true: "Has pawn captures", false: "No pawn captures"}[a.Verdict == kriegspiel.HasAny]
	case kriegspiel.Illegal:
		e.Kind, main = "illegal_move", "Illegal move"
	case kriegspiel.Moved:
		main = "Move complete"
	case kriegspiel.Captured:
		e.Kind = "capture"
		at := strings.ToUpper(a.Capture.String())
		switch a.Captured {
		case kriegspiel.CapturedPawn:
			main = "Pawn captured at " + at
		case kriegspiel.CapturedPiece:
			main = "Piece captured at " + at
		default:
			main = "Capture done at " + at
		}
	}
	e.Messages = []string{main}
	if a.DoubleCheck() {
		e.Messages = append(e.Messages, doubleCheckWords, wordsOfCheck(a.Checks[0]), wordsOfCheck(a.Checks[1]))
	} else if a.Checks[0] != kriegspiel.NoCheck {
		e.Messages = append(e.Messages, wordsOfCheck(a.Checks[0]))
	}
	for w, end := range endingWords {
		if end == a.End {
			e.Messages = append(e.Messages, w)
		}
	}
	prompt := "Move attempt"
	if !own {
		prompt = "Opponent move"
	}
	e.Message = prompt + " — " + strings.Join(e.Messages, " · ")
	return e
}

// WriteStatus writes the pawn tries announced at the start of a turn.
func WriteStatus(tries int, own bool) Entry {
	w := "No pawn captures"
	switch {
	case tries == 1:
		w = "1 pawn try"
	case tries > 1:
		w = strconv.Itoa(tries) + " pawn tries"
	}
	actor := "opponent"
	if own {
		actor = "self"
	}
	return Entry{Kind: "status", Actor: actor, Message: w, Messages: []string{w}}
}

func wordsOfCheck(c kriegspiel.Check) string {
	for w, ch := range checkWords {
		if ch == c {
			return w
		}
	}
	return ""
}
