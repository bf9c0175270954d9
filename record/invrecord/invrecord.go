// Package invrecord is the JSON form of an invisible-chess game record
// (invisible.Record): written by matches, read back by replay --check, view,
// the belief test and the paper's tables, which tell it from the other
// games' records by its "format" field (Is).
package invrecord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// Format and Version identify the format in every record.
const (
	Format  = "blindfish-invisible"
	Version = 1
)

type wireRecord struct {
	Format      string     `json:"format"`
	Version     int        `json:"version"`
	White       string     `json:"white,omitempty"`
	Black       string     `json:"black,omitempty"`
	Invisible   string     `json:"invisible"` // "2B:1R"
	InitialMS   int64      `json:"initial_ms"`
	IncrementMS int64      `json:"increment_ms"`
	TurnLimit   int        `json:"turn_limit,omitempty"`
	Turns       []wireTurn `json:"turns"`
	Result      wireResult `json:"result"`
}

type wireTurn struct {
	Color  string    `json:"color"`
	Tries  []wireTry `json:"tries"`
	Seen   wireSeen  `json:"seen"`
	UsedMS int64     `json:"used_ms"`
}

type wireTry struct {
	Move    string `json:"move"`
	Outcome string `json:"outcome"`          // possible, impossible, illegal
	Reason  string `json:"reason,omitempty"` // blocked, check
	// Checkers and Captured are invisible pieces' ids: a set as a list,
	// one id or none.
	Checkers []int `json:"checkers,omitempty"`
	Captured *int  `json:"captured,omitempty"`
}

type wireSeen struct {
	Forfeit  bool   `json:"forfeit,omitempty"`
	Move     string `json:"move,omitempty"`
	Moved    *int   `json:"moved,omitempty"`
	Capture  string `json:"capture,omitempty"`
	Checkers []int  `json:"checkers,omitempty"`
}

type wireResult struct {
	Winner string `json:"winner,omitempty"` // "white", "black"; none for a draw
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

func setList(s uint8) []int {
	var out []int
	for i := range 8 {
		if s&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func listSet(l []int) (uint8, error) {
	var s uint8
	for _, i := range l {
		if i < 0 || i >= invisible.MaxPieces {
			return 0, fmt.Errorf("invrecord: piece id %d: want 0..%d", i, invisible.MaxPieces-1)
		}
		s |= 1 << i
	}
	return s, nil
}

// Write writes r in JSON form.
func Write(w io.Writer, r *invisible.Record) error {
	out := wireRecord{Format: Format, Version: Version, White: r.White, Black: r.Black,
		Invisible: invisible.PairString(r.Configs), InitialMS: r.Initial.Milliseconds(),
		IncrementMS: r.Increment.Milliseconds(), TurnLimit: r.TurnLimit, Turns: []wireTurn{},
		Result: wireResult{Reason: r.Result.Reason, Detail: r.Result.Detail}}
	if r.Result.HasWinner {
		out.Result.Winner = r.Result.Winner.String()
	}
	for _, t := range r.Turns {
		wt := wireTurn{Color: t.Color.String(), Tries: []wireTry{}, UsedMS: t.Used.Milliseconds()}
		for _, try := range t.Tries {
			a := try.Answer
			x := wireTry{Move: try.Move.String(), Outcome: a.Outcome.String(), Reason: a.Reason.String(), Checkers: setList(a.Checkers)}
			if a.Captured >= 0 {
				id := int(a.Captured)
				x.Captured = &id
			}
			wt.Tries = append(wt.Tries, x)
		}
		s := t.Seen
		wt.Seen = wireSeen{Forfeit: s.Forfeit, Checkers: setList(s.Checkers)}
		if !s.Move.IsNull() {
			wt.Seen.Move = s.Move.String()
		}
		if s.Moved >= 0 {
			id := int(s.Moved)
			wt.Seen.Moved = &id
		}
		if s.Capture != chess.NoSquare {
			wt.Seen.Capture = s.Capture.String()
		}
		out.Turns = append(out.Turns, wt)
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("invrecord: %w", err)
	}
	return nil
}

// SaveFile writes the record to path whole or not at all.
func SaveFile(path string, r *invisible.Record) error {
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("invrecord: saving record: %w", err)
	}
	return nil
}

// Is reports whether data is a JSON object whose "format" says it is an
// invisible-chess record.
func Is(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == Format
}

// Read reads one record in JSON form; unknown fields and values that are
// not the format's are refused.
func Read(r io.Reader) (*invisible.Record, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var w wireRecord
	if err := dec.Decode(&w); err != nil {
		return nil, fmt.Errorf("invrecord: %w", err)
	}
	if dec.More() {
		return nil, errors.New("invrecord: more than one JSON value")
	}
	if w.Format != Format || w.Version != Version {
		return nil, fmt.Errorf("invrecord: format %q version %d: want %q version %d", w.Format, w.Version, Format, Version)
	}
	cfg, err := invisible.ParsePair(w.Invisible)
	if err != nil {
		return nil, fmt.Errorf("invrecord: %w", err)
	}
	rec := &invisible.Record{White: w.White, Black: w.Black, Configs: cfg, Initial: time.Duration(w.InitialMS) * time.Millisecond,
		Increment: time.Duration(w.IncrementMS) * time.Millisecond, TurnLimit: w.TurnLimit,
		Result: invisible.Result{Reason: w.Result.Reason, Detail: w.Result.Detail}}
	if w.Result.Winner != "" {
		c, err := chess.ParseColor(w.Result.Winner)
		if err != nil {
			return nil, fmt.Errorf("invrecord: result.winner: %w", err)
		}
		rec.Result.Winner, rec.Result.HasWinner = c, true
	}
	for i, wt := range w.Turns {
		t, err := readTurn(wt)
		if err != nil {
			return nil, fmt.Errorf("invrecord: turns[%d]: %w", i, err)
		}
		rec.Turns = append(rec.Turns, t)
	}
	return rec, nil
}

func readTurn(wt wireTurn) (invisible.Turn, error) {
	c, err := chess.ParseColor(wt.Color)
	if err != nil {
		return invisible.Turn{}, err
	}
	t := invisible.Turn{Color: c, Used: time.Duration(wt.UsedMS) * time.Millisecond}
	for j, x := range wt.Tries {
		m, err := chess.ParseMove(x.Move)
		if err != nil {
			return t, fmt.Errorf("tries[%d]: %w", j, err)
		}
		a := invisible.Answer{Captured: -1}
		switch x.Outcome {
		case "possible":
			a.Outcome = invisible.Possible
		case "impossible":
			a.Outcome = invisible.Impossible
		case "illegal":
			a.Outcome = invisible.Illegal
		default:
			return t, fmt.Errorf("tries[%d]: outcome %q: want possible, impossible or illegal", j, x.Outcome)
		}
		switch x.Reason {
		case "":
		case "blocked":
			a.Reason = invisible.Blocked
		case "check":
			a.Reason = invisible.Check
		default:
			return t, fmt.Errorf("tries[%d]: reason %q: want blocked or check", j, x.Reason)
		}
		if a.Checkers, err = listSet(x.Checkers); err != nil {
			return t, err
		}
		if x.Captured != nil {
			if *x.Captured < 0 || *x.Captured >= invisible.MaxPieces {
				return t, fmt.Errorf("tries[%d]: captured %d: not a piece id", j, *x.Captured)
			}
			a.Captured = int8(*x.Captured)
		}
		t.Tries = append(t.Tries, invisible.Try{Move: m, Answer: a})
	}
	s := invisible.Seen{Forfeit: wt.Seen.Forfeit, Moved: -1, Capture: chess.NoSquare}
	if wt.Seen.Move != "" {
		if s.Move, err = chess.ParseMove(wt.Seen.Move); err != nil {
			return t, fmt.Errorf("what was seen: %w", err)
		}
	}
	if wt.Seen.Moved != nil {
		if *wt.Seen.Moved < 0 || *wt.Seen.Moved >= invisible.MaxPieces {
			return t, fmt.Errorf("what was seen: moved %d: not a piece id", *wt.Seen.Moved)
		}
		s.Moved = int8(*wt.Seen.Moved)
	}
	if wt.Seen.Capture != "" {
		if s.Capture, err = chess.ParseSquare(wt.Seen.Capture); err != nil {
			return t, fmt.Errorf("what was seen: %w", err)
		}
	}
	if s.Checkers, err = listSet(wt.Seen.Checkers); err != nil {
		return t, err
	}
	t.Seen = s
	return t, nil
}
