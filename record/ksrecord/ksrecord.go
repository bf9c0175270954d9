package ksrecord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// The JSON form of a Record (docs/kriegspiel.md shows an example). Names of
// messages are the reference referee's; squares and moves are in UCI form.

// RecordFormat and RecordVersion identify the format in every record.
const (
	RecordFormat  = "blindfish-kriegspiel"
	RecordVersion = 1
)

type wireRecord struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Ruleset   string     `json:"ruleset"`
	White     string     `json:"white,omitempty"`
	Black     string     `json:"black,omitempty"`
	StartFEN  string     `json:"start_fen"`
	PawnTries *int       `json:"pawn_tries,omitempty"`
	Turns     []wireTurn `json:"turns"`
	Result    wireResult `json:"result"`
	FinalFEN  string     `json:"final_fen"`
}

type wireTurn struct {
	Color       string    `json:"color"`
	Tries       []wireTry `json:"tries"`
	Move        string    `json:"move,omitempty"`
	FENAfter    string    `json:"fen_after,omitempty"`
	ClockLeftMS *int64    `json:"clock_left_ms,omitempty"`
}

type wireTry struct {
	Q      string     `json:"q"`
	A      wireAnswer `json:"a"`
	Public bool       `json:"public"`
}

type wireAnswer struct {
	Verdict   string   `json:"verdict"`
	Capture   string   `json:"capture,omitempty"`
	Captured  string   `json:"captured,omitempty"`
	Checks    []string `json:"checks,omitempty"`
	End       string   `json:"end,omitempty"`
	PawnTries *int     `json:"pawn_tries,omitempty"`
}

type wireResult struct {
	Reason string `json:"reason"`
	Winner string `json:"winner,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// Error is a record that cannot be read: the field (as a JSON path,
// "turns[3].tries[1].a.verdict") and what is wrong with it.
type Error struct {
	Field string
	Err   error
}

// Error returns "ksrecord: bad record: FIELD: what is wrong".
func (e *Error) Error() string {
	if e.Field == "" {
		return "ksrecord: bad record: " + e.Err.Error()
	}
	return fmt.Sprintf("ksrecord: bad record: %s: %v", e.Field, e.Err)
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// marshal writes the record in its JSON form. A record names its
// ruleset, so a Ruleset changed field by field from a named one cannot be
// written (the reader would take the named one).
func marshal(r *kriegspiel.Record) ([]byte, error) {
	if named, err := kriegspiel.ParseRuleset(r.Ruleset.Name); err != nil || named != r.Ruleset {
		return nil, fmt.Errorf("ruleset %q differs from the ruleset of that name", r.Ruleset.Name)
	}
	w := wireRecord{
		Format: RecordFormat, Version: RecordVersion, Ruleset: r.Ruleset.Name,
		White: r.White, Black: r.Black, StartFEN: r.StartFEN, FinalFEN: r.FinalFEN,
		Turns:  make([]wireTurn, 0, len(r.Turns)),
		Result: wireResult{Reason: r.Result.ReasonName(), Detail: r.Result.Detail},
	}
	if r.PawnTries >= 0 {
		w.PawnTries = &r.PawnTries
	}
	if r.Result.HasWinner {
		w.Result.Winner = r.Result.Winner.String()
	}
	for _, t := range r.Turns {
		wt := wireTurn{Color: t.Color.String(), Tries: make([]wireTry, 0, len(t.Tries)), FENAfter: t.FENAfter}
		if !t.Move.IsNull() {
			wt.Move = t.Move.String()
		}
		if t.ClockLeft >= 0 {
			ms := t.ClockLeft.Milliseconds()
			wt.ClockLeftMS = &ms
		}
		for _, try := range t.Tries {
			wt.Tries = append(wt.Tries, wireTry{Q: try.Question.String(), A: wireAnswerOf(try.Answer), Public: try.Public})
		}
		w.Turns = append(w.Turns, wt)
	}
	return json.Marshal(w)
}

func wireAnswerOf(a kriegspiel.Answer) wireAnswer {
	w := wireAnswer{Verdict: a.Verdict.String(), Captured: a.Captured.String()}
	if a.Capture != chess.NoSquare {
		w.Capture = a.Capture.String()
	}
	for _, c := range a.Checks {
		if c != kriegspiel.NoCheck {
			w.Checks = append(w.Checks, c.String())
		}
	}
	if a.End != kriegspiel.NotOver {
		w.End = a.End.String()
	}
	if a.PawnTries >= 0 {
		n := a.PawnTries
		w.PawnTries = &n
	}
	return w
}

// Write writes the record as indented JSON.
func Write(w io.Writer, r *kriegspiel.Record) error {
	data, err := marshal(r)
	if err != nil {
		return fmt.Errorf("ksrecord: writing record: %w", err)
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", " "); err != nil {
		return fmt.Errorf("ksrecord: writing record: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("ksrecord: writing record: %w", err)
	}
	return nil
}

// SaveFile writes the record to path through a temporary file in the
// same folder, renamed onto path once whole, so that path holds either its
// old content or the whole record, and no temporary file outlives an error.
func SaveFile(path string, r *kriegspiel.Record) error {
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("ksrecord: saving record: %w", err)
	}
	return nil
}

// Is reports whether data is a JSON object whose "format" says it is a
// Kriegspiel record (RecordFormat), so that a tool given records of both
// games can tell them apart by content, not by name.
func Is(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == RecordFormat
}

// Read reads one record in JSON form. Unknown fields are refused, and
// a record that is malformed or inconsistent in itself (a verdict that is not
// one, a capture without a square, a move after the one that ended the turn,
// turns out of order, …) is a *Error naming the field. Whether the
// answers are the referee's is Replay's business.
func Read(r io.Reader) (*kriegspiel.Record, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w wireRecord
	if err := dec.Decode(&w); err != nil {
		return nil, jsonRecordError(err)
	}
	if dec.More() {
		return nil, &Error{Err: errors.New("more than one JSON value")}
	}
	return w.record()
}

// jsonRecordError names the field of a JSON decoding error where it can.
func jsonRecordError(err error) error {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return &Error{Field: typ.Field, Err: fmt.Errorf("want %s, got JSON %s", typ.Type, typ.Value)}
	}
	return &Error{Err: err}
}

func (w *wireRecord) record() (*kriegspiel.Record, error) {
	fail := func(field string, format string, args ...any) (*kriegspiel.Record, error) {
		return nil, &Error{Field: field, Err: fmt.Errorf(format, args...)}
	}
	wrap := func(field string, err error) (*kriegspiel.Record, error) {
		return nil, &Error{Field: field, Err: err}
	}
	if w.Format != RecordFormat {
		return fail("format", "want %q, got %q", RecordFormat, w.Format)
	}
	if w.Version != RecordVersion {
		return fail("version", "want %d, got %d", RecordVersion, w.Version)
	}
	rules, err := kriegspiel.ParseRuleset(w.Ruleset)
	if err != nil {
		return wrap("ruleset", err)
	}
	r := &kriegspiel.Record{Ruleset: rules, White: w.White, Black: w.Black, StartFEN: w.StartFEN, FinalFEN: w.FinalFEN, PawnTries: -1}
	start, err := kriegspiel.NewGameFromFEN(rules, w.StartFEN)
	if err != nil {
		return wrap("start_fen", err)
	}
	if w.PawnTries != nil {
		if *w.PawnTries < 0 {
			return fail("pawn_tries", "negative: %d", *w.PawnTries)
		}
		r.PawnTries = *w.PawnTries
	}
	if _, err := chess.ParseFEN(w.FinalFEN); err != nil {
		return wrap("final_fen", err)
	}
	turn := start.Turn()
	r.Turns = make([]kriegspiel.Turn, 0, len(w.Turns))
	for i, wt := range w.Turns {
		field := fmt.Sprintf("turns[%d]", i)
		t := kriegspiel.Turn{ClockLeft: -1}
		if t.Color, err = chess.ParseColor(wt.Color); err != nil || (wt.Color != "white" && wt.Color != "black") {
			return fail(field+".color", "want white or black, got %q", wt.Color)
		}
		if t.Color != turn {
			return fail(field+".color", "%s, but it is %s's turn", t.Color, turn)
		}
		last := i == len(w.Turns)-1
		if len(wt.Tries) == 0 && !last {
			return fail(field+".tries", "empty, but the game goes on")
		}
		done := false
		for j, wtry := range wt.Tries {
			f := fmt.Sprintf("%s.tries[%d]", field, j)
			if done {
				return fail(f, "a question after the move that ended the turn")
			}
			try, err := wtry.try(f)
			if err != nil {
				return nil, err
			}
			done = try.Answer.Verdict.Done()
			t.Tries = append(t.Tries, try)
		}
		if !done && !last {
			return fail(field+".tries", "no move ends the turn, but the game goes on")
		}
		if wt.Move != "" {
			if t.Move, err = chess.ParseMove(wt.Move); err != nil {
				return wrap(field+".move", err)
			}
		}
		switch {
		case done && t.Move != t.Tries[len(t.Tries)-1].Question.Move:
			return fail(field+".move", "%q, but the turn's last question made %s", wt.Move, t.Tries[len(t.Tries)-1].Question)
		case !done && wt.Move != "":
			return fail(field+".move", "%q, but no question made a move", wt.Move)
		}
		if wt.FENAfter != "" {
			if !done {
				return fail(field+".fen_after", "a position after no move")
			}
			if _, err := chess.ParseFEN(wt.FENAfter); err != nil {
				return wrap(field+".fen_after", err)
			}
		}
		t.FENAfter = wt.FENAfter
		if wt.ClockLeftMS != nil {
			if *wt.ClockLeftMS < 0 || *wt.ClockLeftMS > int64(time.Duration(1<<62)/time.Millisecond) {
				return fail(field+".clock_left_ms", "out of range: %d", *wt.ClockLeftMS)
			}
			t.ClockLeft = time.Duration(*wt.ClockLeftMS) * time.Millisecond
		}
		r.Turns = append(r.Turns, t)
		turn = turn.Other()
	}
	if r.Result, err = w.Result.result(); err != nil {
		return nil, err
	}
	return r, nil
}

func (w *wireTry) try(field string) (kriegspiel.Try, error) {
	fail := func(f string, format string, args ...any) (kriegspiel.Try, error) {
		return kriegspiel.Try{}, &Error{Field: field + f, Err: fmt.Errorf(format, args...)}
	}
	wrap := func(f string, err error) (kriegspiel.Try, error) {
		return kriegspiel.Try{}, &Error{Field: field + f, Err: err}
	}
	q, err := kriegspiel.ParseQuestion(w.Q)
	if err != nil {
		return wrap(".q", err)
	}
	a := kriegspiel.VerdictOnly(0)
	if a.Verdict, err = kriegspiel.ParseVerdict(w.A.Verdict); err != nil {
		return wrap(".a.verdict", err)
	}
	v := a.Verdict
	switch {
	case q.AskAny && v != kriegspiel.HasAny && v != kriegspiel.NoAny && v != kriegspiel.Impossible:
		return fail(".a.verdict", "%s answers a move, not \"any?\"", v)
	case !q.AskAny && (v == kriegspiel.HasAny || v == kriegspiel.NoAny):
		return fail(".a.verdict", "%s answers \"any?\", not a move", v)
	}
	if w.A.Capture != "" {
		if v != kriegspiel.Captured {
			return fail(".a.capture", "a capture square with %s", v)
		}
		if a.Capture, err = chess.ParseSquare(w.A.Capture); err != nil {
			return wrap(".a.capture", err)
		}
	} else if v == kriegspiel.Captured {
		return fail(".a.capture", "missing: %s needs the square", v)
	}
	if w.A.Captured != "" {
		if v != kriegspiel.Captured {
			return fail(".a.captured", "a captured man with %s", v)
		}
		if a.Captured, err = kriegspiel.ParseCaptureKind(w.A.Captured); err != nil {
			return wrap(".a.captured", err)
		}
	}
	if len(w.A.Checks) > 0 && !v.Done() {
		return fail(".a.checks", "checks with %s", v)
	}
	if len(w.A.Checks) > 2 {
		return fail(".a.checks", "%d checks, want at most 2", len(w.A.Checks))
	}
	for i, s := range w.A.Checks {
		if a.Checks[i], err = kriegspiel.ParseCheck(s); err != nil || a.Checks[i] == kriegspiel.NoCheck {
			return fail(fmt.Sprintf(".a.checks[%d]", i), "want a check direction, got %q", s)
		}
	}
	if w.A.End != "" {
		if !v.Done() {
			return fail(".a.end", "an ending with %s", v)
		}
		if a.End, err = kriegspiel.ParseEnding(w.A.End); err != nil || a.End == kriegspiel.NotOver {
			return fail(".a.end", "want an ending, got %q", w.A.End)
		}
		if a.Checks[0] != kriegspiel.NoCheck {
			return fail(".a.checks", "checks with the ending %s", a.End)
		}
	}
	if w.A.PawnTries != nil {
		if !v.Done() || a.End != kriegspiel.NotOver {
			return fail(".a.pawn_tries", "pawn tries with %s", w.A.Verdict)
		}
		if *w.A.PawnTries < 0 {
			return fail(".a.pawn_tries", "negative: %d", *w.A.PawnTries)
		}
		a.PawnTries = *w.A.PawnTries
	}
	return kriegspiel.Try{Question: q, Answer: a, Public: w.Public}, nil
}

func (w *wireResult) result() (kriegspiel.Result, error) {
	fail := func(f string, format string, args ...any) (kriegspiel.Result, error) {
		return kriegspiel.Result{}, &Error{Field: "result." + f, Err: fmt.Errorf(format, args...)}
	}
	var r kriegspiel.Result
	r.Detail = w.Detail
	if w.Winner != "" {
		if w.Winner != "white" && w.Winner != "black" {
			return fail("winner", "want white, black or nothing, got %q", w.Winner)
		}
		r.Winner, _ = chess.ParseColor(w.Winner)
		r.HasWinner = true
	}
	var found bool
	if r.Reason, found = kriegspiel.ParseReason(w.Reason); !found {
		end, err := kriegspiel.ParseEnding(w.Reason)
		if err != nil || end == kriegspiel.NotOver {
			return fail("reason", "unknown reason %q (want an ending, TIMEOUT, RESIGN, TURN_LIMIT or UNFINISHED)", w.Reason)
		}
		r.Reason, r.End = kriegspiel.ByRules, end
	}
	switch r.Reason {
	case kriegspiel.ByRules:
		if want, ok := r.End.Winner(); ok != r.HasWinner || (ok && want != r.Winner) {
			return fail("winner", "%q does not go with %s", w.Winner, r.End)
		}
	case kriegspiel.Timeout, kriegspiel.Resign:
		if !r.HasWinner {
			return fail("winner", "missing: %s needs a winner", w.Reason)
		}
	case kriegspiel.Unfinished, kriegspiel.TurnLimit:
		if r.HasWinner {
			return fail("winner", "%q with %s", w.Winner, w.Reason)
		}
	}
	if r.Reason == kriegspiel.Unfinished && r.Detail != "" {
		return fail("detail", "a detail for an unfinished game")
	}
	return r, nil
}
