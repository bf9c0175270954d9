package kriegspiel

import (
	"fmt"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Record is the whole record of a game: the true moves, every question each
// player asked, every answer, and who heard it, so that each player's view
// (its own answers and the ones it heard of its opponent's) can be rebuilt
// and the game re-refereed. record_json.go reads and writes it as JSON;
// docs/kriegspiel.md describes the format.
type Record struct {
	Ruleset      Ruleset
	White, Black string // the players' names
	StartFEN     string
	// PawnTries is the announcement before the first move, or -1.
	PawnTries int
	Turns     []Turn
	Result    Result
	// FinalFEN is the true board at the end.
	FinalFEN string
}

// Turn is one player's turn: its questions in order and, unless the game
// ended in the middle of the turn, the move made (the last question).
type Turn struct {
	Color chess.Color
	Tries []Try
	// Move is the move made; the null move when the turn ended without one.
	Move chess.Move
	// FENAfter is the true board after the move, or "" when unrecorded.
	FENAfter string
	// ClockLeft is the player's clock after the turn, or -1 when unrecorded.
	ClockLeft time.Duration
}

// Try is one question and its answer.
type Try struct {
	Question Question
	Answer   Answer
	// Public reports whether the opponent heard the answer (the asker
	// always hears it).
	Public bool
}

// Reason says why a game ended.
type Reason uint8

// The reasons.
const (
	// Unfinished: the record stops before the game ended.
	Unfinished Reason = iota
	// ByRules: a rule ended the game; Result.End says which.
	ByRules
	// Timeout: a player's clock ran out.
	Timeout
	// Resign: a player resigned (or failed: its error is in the detail).
	Resign
	// TurnLimit: the referee's limit on full moves drew the game.
	TurnLimit
)

var reasonNames = [...]string{"UNFINISHED", "", "TIMEOUT", "RESIGN", "TURN_LIMIT"}

// Result is how a game ended.
type Result struct {
	Reason Reason
	// End is the ending when Reason is ByRules.
	End Ending
	// Winner is the winner when HasWinner (never for a draw).
	Winner    chess.Color
	HasWinner bool
	// Detail explains a resignation or a loss on time.
	Detail string
}

// String returns e.g. "white wins by CHECKMATE_WHITE_WINS", "draw by DRAW_STALEMATE".
func (r Result) String() string {
	if r.Reason == Unfinished {
		return "unfinished"
	}
	s := "draw"
	if r.HasWinner {
		s = r.Winner.String() + " wins"
	}
	s += " by " + r.ReasonName()
	if r.Detail != "" {
		s += " (" + r.Detail + ")"
	}
	return s
}

// ReasonName is the name of the reason in records: the ending's name for
// ByRules ("CHECKMATE_WHITE_WINS"), else "TIMEOUT", "RESIGN", "TURN_LIMIT" or
// "UNFINISHED".
func (r Result) ReasonName() string {
	if r.Reason == ByRules {
		return r.End.String()
	}
	if int(r.Reason) < len(reasonNames) {
		return reasonNames[r.Reason]
	}
	return fmt.Sprintf("Reason(%d)", r.Reason)
}

// ParseReason returns the Reason a record names (see ReasonName) other than
// by an ending of the rules, and false for any other name.
func ParseReason(name string) (Reason, bool) {
	for i, n := range reasonNames {
		if n != "" && n == name {
			return Reason(i), true
		}
	}
	return 0, false
}

// ResultOf returns the result of a game as its rules have it: the ending,
// or Unfinished.
func ResultOf(g *Game) Result {
	if !g.Over() {
		return Result{}
	}
	w, ok := g.Ending().Winner()
	return Result{Reason: ByRules, End: g.Ending(), Winner: w, HasWinner: ok}
}

// NewRecord returns the record of a game so far, from its log: no names, no
// clocks, and the result as the rules have it.
func NewRecord(g *Game) *Record {
	r := &Record{Ruleset: g.Rules(), StartFEN: g.StartFEN(), Result: ResultOf(g)}
	start, err := NewGameFromFEN(g.Rules(), g.StartFEN())
	if err != nil {
		panic("kriegspiel: a game's own start is refused: " + err.Error())
	}
	r.PawnTries = start.PawnTries()
	replay := start
	for _, e := range g.Log() {
		if len(r.Turns) == 0 || r.Turns[len(r.Turns)-1].Move != (chess.Move{}) {
			r.Turns = append(r.Turns, Turn{Color: e.Mover, ClockLeft: -1})
		}
		t := &r.Turns[len(r.Turns)-1]
		t.Tries = append(t.Tries, Try{Question: e.Question, Answer: e.Answer, Public: g.Rules().HeardByOpponent(e.Answer)})
		if _, err := replay.Ask(e.Question); err != nil {
			panic("kriegspiel: a game's own log does not replay: " + err.Error())
		}
		if e.Answer.Verdict.Done() {
			t.Move = e.Question.Move
			b := replay.Board()
			t.FENAfter = b.FEN()
		}
	}
	b := g.Board()
	r.FinalFEN = b.FEN()
	return r
}

// Heard is an answer as one player heard it.
type Heard struct {
	// Own reports whether the player asked the question.
	Own bool
	// Question is the player's own question; of its opponent's questions
	// it knows only whether it was "any?" (a move is the zero Question).
	Question Question
	Answer   Answer
}

// Overheard returns what the asker's opponent hears of the try: the answer,
// and of the question only whether it was "any?". Whether it hears the try
// at all is Public.
func (t Try) Overheard() Heard {
	h := Heard{Answer: t.Answer}
	h.Question.AskAny = t.Question.AskAny
	return h
}

// Overheard returns, in order, what the opponent of the turn's player heard
// of the turn: its public tries, as Try.Overheard gives them.
func (t *Turn) Overheard() []Heard {
	var out []Heard
	for _, try := range t.Tries {
		if try.Public {
			out = append(out, try.Overheard())
		}
	}
	return out
}

// Heard returns, in order, every answer player c heard: the answers to its
// own questions and the public answers to its opponent's.
func (r *Record) Heard(c chess.Color) []Heard {
	var out []Heard
	for i := range r.Turns {
		t := &r.Turns[i]
		if t.Color != c {
			out = append(out, t.Overheard()...)
			continue
		}
		for _, try := range t.Tries {
			out = append(out, Heard{Own: true, Question: try.Question, Answer: try.Answer})
		}
	}
	return out
}

// Moves returns the true moves of the record in order.
func (r *Record) Moves() []chess.Move {
	var out []chess.Move
	for _, t := range r.Turns {
		if !t.Move.IsNull() {
			out = append(out, t.Move)
		}
	}
	return out
}

// Mismatch is the first place where a record and the referee's replay of
// it differ.
type Mismatch struct {
	// Field is the record's field, as in a JSON path: "turns[3].tries[1].a".
	Field              string
	Recorded, Replayed string
}

// Error names the field and both values.
func (m *Mismatch) Error() string {
	return fmt.Sprintf("kriegspiel: record differs from the referee at %s: recorded %s, referee %s", m.Field, m.Recorded, m.Replayed)
}

// Replay re-referees the record: it asks every recorded question of a new
// game and compares each answer, who heard it, each move and position, and
// the result with the record. It returns the replayed game and, when they
// differ, a *Mismatch naming the first difference. A result the rules
// cannot re-check (a loss on time, a resignation, the turn limit) is
// accepted when the rules did not end the game first.
func (r *Record) Replay() (*Game, error) {
	g, err := NewGameFromFEN(r.Ruleset, r.StartFEN)
	if err != nil {
		return nil, err
	}
	differ := func(field string, recorded, replayed any) (*Game, error) {
		return g, &Mismatch{Field: field, Recorded: fmt.Sprint(recorded), Replayed: fmt.Sprint(replayed)}
	}
	if g.PawnTries() != r.PawnTries {
		return differ("pawn_tries", r.PawnTries, g.PawnTries())
	}
	for i, t := range r.Turns {
		field := fmt.Sprintf("turns[%d]", i)
		if g.Over() {
			return differ(field, "a turn", "the game over: "+g.Ending().String())
		}
		if t.Color != g.Turn() {
			return differ(field+".color", t.Color, g.Turn())
		}
		for j, try := range t.Tries {
			f := fmt.Sprintf("%s.tries[%d]", field, j)
			a, err := g.Ask(try.Question)
			if err != nil {
				return differ(f, try.Question, err)
			}
			if a != try.Answer {
				return differ(f+".a", fmt.Sprintf("%q", try.Answer), fmt.Sprintf("%q", a))
			}
			if heard := r.Ruleset.HeardByOpponent(a); heard != try.Public {
				return differ(f+".public", try.Public, heard)
			}
		}
		moves := g.Moves()
		made := len(moves) > 0 && len(t.Tries) > 0 && t.Tries[len(t.Tries)-1].Answer.Verdict.Done()
		switch {
		case made && moves[len(moves)-1] != t.Move:
			return differ(field+".move", t.Move, moves[len(moves)-1])
		case !made && !t.Move.IsNull():
			return differ(field+".move", t.Move, "none")
		}
		if b := g.Board(); t.FENAfter != "" && made && t.FENAfter != b.FEN() {
			return differ(field+".fen_after", t.FENAfter, b.FEN())
		}
	}
	if b := g.Board(); r.FinalFEN != b.FEN() {
		return differ("final_fen", r.FinalFEN, b.FEN())
	}
	switch rules := ResultOf(g); {
	case r.Result.Reason == ByRules || rules.Reason == ByRules:
		if rules != r.Result {
			return differ("result", r.Result, rules)
		}
	case r.Result.Reason == Unfinished && r.Result != (Result{}):
		return differ("result", r.Result, rules)
	}
	return g, nil
}

// Equal reports whether two records are the same.
func (r *Record) Equal(o *Record) bool {
	return r.Ruleset == o.Ruleset && r.White == o.White && r.Black == o.Black && r.StartFEN == o.StartFEN &&
		r.PawnTries == o.PawnTries && r.Result == o.Result && r.FinalFEN == o.FinalFEN &&
		slices.EqualFunc(r.Turns, o.Turns, func(a, b Turn) bool {
			return a.Color == b.Color && a.Move == b.Move && a.FENAfter == b.FENAfter &&
				a.ClockLeft == b.ClockLeft && slices.Equal(a.Tries, b.Tries)
		})
}
