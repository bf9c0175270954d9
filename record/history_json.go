package record

// The harness's GameHistory JSON: the one game-record format of the field.
// Its tools (replay viewers, training scripts) read only this, so we write it
// exactly as the harness's json.dump does: same key order, Python's default
// separators (", " and ": "), non-ASCII escaped, no trailing newline.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf16"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/atomicfile"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// HistoryError says where a game record is wrong, so that a broken file can be
// found and fixed by hand: the JSON path of the bad value and what is wrong.
type HistoryError struct {
	// Path locates the value, e.g. `taken_moves["false"][3]` (black's 4th
	// turn); it is empty for errors in the JSON syntax itself.
	Path string
	Err  error
}

func (e *HistoryError) Error() string {
	if e.Path == "" {
		return "record: bad game history: " + e.Err.Error()
	}
	return "record: bad game history: " + e.Path + ": " + e.Err.Error()
}

func (e *HistoryError) Unwrap() error { return e.Err }

// detailKey is our extra key: the harness has no name for a loss by an
// illegal request, nor a place for why a player resigned.
const detailKey = "blindfish_detail"

// historyKeys are the harness's keys, in the order it writes them.
var historyKeys = [...]string{"type", "white_name", "black_name", "senses", "sense_results",
	"requested_moves", "taken_moves", "capture_squares", "fens_before_move", "fens_after_move",
	"winner_color", "win_reason"}

// colorKeys are the JSON keys of each colour's list, in the harness's order.
var colorKeys = [2]string{chess.White: "true", chess.Black: "false"}

// ReadHistory reads a game record in the harness's GameHistory JSON. Every key
// of the format is required; errors are *HistoryError values naming the key,
// colour and turn at fault.
func ReadHistory(r io.Reader) (*rbc.History, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("record: read game history: %w", err)
	}
	return ParseHistory(data)
}

// LoadHistoryFile reads the game record at path: a file (gzipped when its
// name ends in .gz), or a record in an archive, as LoadRecord finds it
// (ARCHIVE:MEMBER, or a record path whose folder has been archived).
func LoadHistoryFile(path string) (*rbc.History, error) {
	r, err := LoadRecord(path)
	if err != nil {
		return nil, fmt.Errorf("record: load game history: %w", err)
	}
	return r.History()
}

// SaveHistoryFile writes h to the file at path in the harness's format. It
// writes a temporary file first and renames it, so that a crash or a Ctrl-C
// never leaves a half-written record behind.
func SaveHistoryFile(path string, h *rbc.History) error {
	var buf bytes.Buffer
	if err := WriteHistory(h, &buf); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("record: save game history: %w", err)
	}
	return nil
}

// ParseHistory reads a game record from data (see ReadHistory).
func ParseHistory(data []byte) (*rbc.History, error) {
	top, err := decodeTop(data)
	if err != nil {
		return nil, err
	}
	h := &rbc.History{}
	if h.WhiteName, err = decodeString(top, "white_name"); err != nil {
		return nil, err
	}
	if h.BlackName, err = decodeString(top, "black_name"); err != nil {
		return nil, err
	}
	lists, err := decodeLists(top)
	if err != nil {
		return nil, err
	}
	if err := checkTurnCounts(lists); err != nil {
		return nil, err
	}
	for c := chess.White; c <= chess.Black; c++ {
		if h.Turns[c], err = decodeTurns(lists, c); err != nil {
			return nil, err
		}
	}
	if err := decodeOutcome(top, &h.Outcome); err != nil {
		return nil, err
	}
	return h, nil
}

// decodeTop reads the record's object, which must hold every key of the
// harness's format and nothing after it.
func decodeTop(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var top map[string]json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, &HistoryError{Err: fmt.Errorf("not a JSON object: %w", err)}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &HistoryError{Err: errors.New("extra data after the history object")}
	}
	if top == nil {
		return nil, &HistoryError{Err: errors.New("not a JSON object: null")}
	}
	for _, k := range historyKeys {
		if _, ok := top[k]; !ok {
			return nil, &HistoryError{Path: k, Err: errors.New("missing key")}
		}
	}
	var typ string
	if err := json.Unmarshal(top["type"], &typ); err != nil || typ != "GameHistory" {
		return nil, &HistoryError{Path: "type", Err: fmt.Errorf("want \"GameHistory\", got %s", clip(top["type"]))}
	}
	return top, nil
}

// turnLists holds a per-turn key's two lists, indexed by Color.
type turnLists map[string][2][]json.RawMessage

// decodeLists reads the per-turn keys, each of which maps "true" and
// "false" to a list.
func decodeLists(top map[string]json.RawMessage) (turnLists, error) {
	lists := make(turnLists)
	for _, k := range historyKeys[3:10] {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(top[k], &m); err != nil || m == nil {
			return nil, &HistoryError{Path: k, Err: fmt.Errorf("want an object with keys \"true\" and \"false\", got %s", clip(top[k]))}
		}
		var pair [2][]json.RawMessage
		for c, ck := range colorKeys {
			raw, ok := m[ck]
			path := fmt.Sprintf("%s[%q]", k, ck)
			if !ok {
				return nil, &HistoryError{Path: path, Err: errors.New("missing key")}
			}
			if err := json.Unmarshal(raw, &pair[c]); err != nil || pair[c] == nil {
				return nil, &HistoryError{Path: path, Err: fmt.Errorf("want a list, got %s", clip(raw))}
			}
		}
		lists[k] = pair
	}
	return lists, nil
}

// checkTurnCounts checks that turns alternate, White first, that each
// per-move list is as long as the moves, and that only the game's last turn
// stops after its sense (a loss on time in the middle of a turn).
func checkTurnCounts(lists turnLists) error {
	senses := lists["senses"]
	nw, nb := len(senses[chess.White]), len(senses[chess.Black])
	if nw != nb && nw != nb+1 {
		return &HistoryError{Path: "senses", Err: fmt.Errorf("white has %d turns and black %d; turns alternate, white first", nw, nb)}
	}
	last := chess.Black
	if nw > nb {
		last = chess.White
	}
	for c := chess.White; c <= chess.Black; c++ {
		n := len(senses[c])
		if got := len(lists["sense_results"][c]); got != n {
			return &HistoryError{Path: fmt.Sprintf("sense_results[%q]", colorKeys[c]),
				Err: fmt.Errorf("%d entries, but senses[%q] has %d", got, colorKeys[c], n)}
		}
		moves := len(lists["requested_moves"][c])
		for _, k := range historyKeys[6:10] {
			if got := len(lists[k][c]); got != moves {
				return &HistoryError{Path: fmt.Sprintf("%s[%q]", k, colorKeys[c]),
					Err: fmt.Errorf("%d entries, but requested_moves[%q] has %d", got, colorKeys[c], moves)}
			}
		}
		if moves != n && !(moves == n-1 && c == last) {
			return &HistoryError{Path: fmt.Sprintf("requested_moves[%q]", colorKeys[c]),
				Err: fmt.Errorf("%d moves for %d senses; only the game's last turn may lack a move", moves, n)}
		}
	}
	return nil
}

// decodeTurns reads colour c's turns from lists, whose lengths
// checkTurnCounts has checked.
func decodeTurns(lists turnLists, c chess.Color) ([]rbc.TurnRecord, error) {
	turns := make([]rbc.TurnRecord, len(lists["senses"][c]))
	var err error
	for i := range turns {
		t := &turns[i]
		at := func(k string) string { return fmt.Sprintf("%s[%q][%d]", k, colorKeys[c], i) }
		if t.Sense, err = decodeSquare(lists["senses"][c][i], at("senses")); err != nil {
			return nil, err
		}
		if t.SenseResult, err = decodeSenseResult(lists["sense_results"][c][i], at("sense_results")); err != nil {
			return nil, err
		}
		t.Capture = chess.NoSquare
		if i >= len(lists["requested_moves"][c]) {
			continue
		}
		t.HasMove = true
		if t.Requested, err = decodeMove(lists["requested_moves"][c][i], at("requested_moves")); err != nil {
			return nil, err
		}
		if t.Taken, err = decodeMove(lists["taken_moves"][c][i], at("taken_moves")); err != nil {
			return nil, err
		}
		if t.Capture, err = decodeSquare(lists["capture_squares"][c][i], at("capture_squares")); err != nil {
			return nil, err
		}
		if t.FENBefore, err = decodeFEN(lists["fens_before_move"][c][i], at("fens_before_move")); err != nil {
			return nil, err
		}
		if t.FENAfter, err = decodeFEN(lists["fens_after_move"][c][i], at("fens_after_move")); err != nil {
			return nil, err
		}
	}
	return turns, nil
}

func decodeString(top map[string]json.RawMessage, key string) (string, error) {
	var s *string
	if err := json.Unmarshal(top[key], &s); err != nil || s == nil {
		return "", &HistoryError{Path: key, Err: fmt.Errorf("want a string, got %s", clip(top[key]))}
	}
	return *s, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// decodeSquare reads a square number, or null for NoSquare.
func decodeSquare(raw json.RawMessage, path string) (chess.Square, error) {
	if isNull(raw) {
		return chess.NoSquare, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 || n > 63 {
		return chess.NoSquare, &HistoryError{Path: path, Err: fmt.Errorf("want a square number 0..63 or null, got %s", clip(raw))}
	}
	return chess.Square(n), nil
}

// wrapped is the harness's typed value: {"type": "Move", "value": "e2e4"}.
type wrapped struct {
	Type  *string `json:"type"`
	Value *string `json:"value"`
}

// decodeWrapped reads a typed value of the given type and returns its value.
func decodeWrapped(raw json.RawMessage, typ, path string) (string, error) {
	var w *wrapped
	if err := json.Unmarshal(raw, &w); err != nil || w == nil || w.Type == nil || *w.Type != typ || w.Value == nil {
		return "", &HistoryError{Path: path, Err: fmt.Errorf("want {\"type\": %q, \"value\": ...}, got %s", typ, clip(raw))}
	}
	return *w.Value, nil
}

func decodeMove(raw json.RawMessage, path string) (chess.Move, error) {
	if isNull(raw) {
		return chess.Move{}, nil
	}
	v, err := decodeWrapped(raw, "Move", path)
	if err != nil {
		return chess.Move{}, err
	}
	m, err := chess.ParseMove(v)
	if err != nil {
		return chess.Move{}, &HistoryError{Path: path, Err: err}
	}
	return m, nil
}

func decodePiece(raw json.RawMessage, path string) (chess.Piece, error) {
	if isNull(raw) {
		return chess.NoPiece, nil
	}
	v, err := decodeWrapped(raw, "Piece", path)
	if err != nil {
		return chess.NoPiece, err
	}
	if len(v) != 1 {
		return chess.NoPiece, &HistoryError{Path: path, Err: fmt.Errorf("bad piece %q: want one of PNBRQKpnbrqk", v)}
	}
	p, err := chess.ParsePiece(v[0])
	if err != nil {
		return chess.NoPiece, &HistoryError{Path: path, Err: err}
	}
	return p, nil
}

func decodeSenseResult(raw json.RawMessage, path string) ([]rbc.SquarePiece, error) {
	var entries []json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || entries == nil {
		return nil, &HistoryError{Path: path, Err: fmt.Errorf("want a list of [square, piece] pairs, got %s", clip(raw))}
	}
	if len(entries) > 9 {
		return nil, &HistoryError{Path: path, Err: fmt.Errorf("%d squares; a sense shows at most 9", len(entries))}
	}
	out := make([]rbc.SquarePiece, len(entries))
	for j, e := range entries {
		at := fmt.Sprintf("%s[%d]", path, j)
		var pair []json.RawMessage
		if err := json.Unmarshal(e, &pair); err != nil || len(pair) != 2 {
			return nil, &HistoryError{Path: at, Err: fmt.Errorf("want [square, piece or null], got %s", clip(e))}
		}
		sq, err := decodeSquare(pair[0], at+"[0]")
		if err != nil {
			return nil, err
		}
		if sq == chess.NoSquare {
			return nil, &HistoryError{Path: at + "[0]", Err: errors.New("want a square number 0..63, got null")}
		}
		p, err := decodePiece(pair[1], at+"[1]")
		if err != nil {
			return nil, err
		}
		out[j] = rbc.SquarePiece{Square: sq, Piece: p}
	}
	return out, nil
}

func decodeFEN(raw json.RawMessage, path string) (string, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err != nil || s == nil {
		return "", &HistoryError{Path: path, Err: fmt.Errorf("want a FEN string, got %s", clip(raw))}
	}
	if _, err := chess.ParseFEN(*s); err != nil {
		return "", &HistoryError{Path: path, Err: err}
	}
	return *s, nil
}

// decodeOutcome reads winner_color, win_reason and our optional detail key.
func decodeOutcome(top map[string]json.RawMessage, o *rbc.Outcome) error {
	if !isNull(top["winner_color"]) {
		var w bool
		if err := json.Unmarshal(top["winner_color"], &w); err != nil {
			return &HistoryError{Path: "winner_color", Err: fmt.Errorf("want true, false or null, got %s", clip(top["winner_color"]))}
		}
		o.HasWinner = true
		o.Winner = chess.Black
		if w {
			o.Winner = chess.White
		}
	}
	if !isNull(top["win_reason"]) {
		v, err := decodeWrapped(top["win_reason"], "WinReason", "win_reason")
		if err != nil {
			return err
		}
		r, err := rbc.ParseWinReason(v)
		if err != nil || r == rbc.IllegalAction { // the harness has no ILLEGAL_ACTION
			return &HistoryError{Path: "win_reason", Err: fmt.Errorf("unknown reason %q", v)}
		}
		o.Reason = r
	}
	raw, ok := top[detailKey]
	if !ok || isNull(raw) {
		return nil
	}
	var d struct {
		Reason *string `json:"reason"`
		Detail *string `json:"detail"`
	}
	if err := json.Unmarshal(raw, &d); err != nil || d.Reason == nil || d.Detail == nil {
		return &HistoryError{Path: detailKey, Err: fmt.Errorf("want {\"reason\": ..., \"detail\": ...}, got %s", clip(raw))}
	}
	r := rbc.NoReason
	if *d.Reason != "" {
		var err error
		if r, err = rbc.ParseWinReason(*d.Reason); err != nil {
			return &HistoryError{Path: detailKey + ".reason", Err: err}
		}
	}
	// ILLEGAL_ACTION is written as RESIGN for the harness's sake; any other
	// reason must agree with win_reason.
	if r != o.Reason && !(r == rbc.IllegalAction && o.Reason == rbc.Resign) {
		return &HistoryError{Path: detailKey + ".reason", Err: fmt.Errorf("%s does not agree with win_reason %s", r, o.Reason)}
	}
	o.Reason = r
	o.Detail = *d.Detail
	return nil
}

// clip shortens a raw value for an error message.
func clip(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if s == "" {
		return "nothing"
	}
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	q := strconv.QuoteToASCII(s)
	return q[1 : len(q)-1]
}

// WriteHistory writes the record in the harness's GameHistory JSON, byte for byte
// as the harness's json.dump would. A loss by IllegalAction, which the harness
// cannot name, is written as RESIGN, with the true reason and the detail under
// the extra key "blindfish_detail" (the harness's reader ignores it).
func WriteHistory(h *rbc.History, w io.Writer) error {
	var b []byte
	b = append(b, `{"type": "GameHistory", "white_name": `...)
	b = appendPyString(b, h.WhiteName)
	b = append(b, `, "black_name": `...)
	b = appendPyString(b, h.BlackName)

	perColor := func(key string, hasMove bool, item func(b []byte, t *rbc.TurnRecord) []byte) {
		b = append(b, ", \""+key+"\": {"...)
		for c := chess.White; c <= chess.Black; c++ {
			if c == chess.Black {
				b = append(b, ", "...)
			}
			b = append(b, '"')
			b = append(b, colorKeys[c]...)
			b = append(b, `": [`...)
			first := true
			for i := range h.Turns[c] {
				t := &h.Turns[c][i]
				if hasMove && !t.HasMove {
					continue
				}
				if !first {
					b = append(b, ", "...)
				}
				first = false
				b = item(b, t)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	perColor("senses", false, func(b []byte, t *rbc.TurnRecord) []byte { return appendSquare(b, t.Sense) })
	perColor("sense_results", false, func(b []byte, t *rbc.TurnRecord) []byte {
		b = append(b, '[')
		for j, sp := range t.SenseResult {
			if j > 0 {
				b = append(b, ", "...)
			}
			b = append(b, '[')
			b = appendSquare(b, sp.Square)
			b = append(b, ", "...)
			if sp.Piece == chess.NoPiece {
				b = append(b, "null"...)
			} else {
				b = append(b, `{"type": "Piece", "value": "`...)
				b = append(b, sp.Piece.Symbol())
				b = append(b, `"}`...)
			}
			b = append(b, ']')
		}
		return append(b, ']')
	})
	perColor("requested_moves", true, func(b []byte, t *rbc.TurnRecord) []byte { return appendMove(b, t.Requested) })
	perColor("taken_moves", true, func(b []byte, t *rbc.TurnRecord) []byte { return appendMove(b, t.Taken) })
	perColor("capture_squares", true, func(b []byte, t *rbc.TurnRecord) []byte { return appendSquare(b, t.Capture) })
	perColor("fens_before_move", true, func(b []byte, t *rbc.TurnRecord) []byte { return appendPyString(b, t.FENBefore) })
	perColor("fens_after_move", true, func(b []byte, t *rbc.TurnRecord) []byte { return appendPyString(b, t.FENAfter) })

	o := h.Outcome
	b = append(b, `, "winner_color": `...)
	switch {
	case !o.HasWinner:
		b = append(b, "null"...)
	case o.Winner == chess.White:
		b = append(b, "true"...)
	default:
		b = append(b, "false"...)
	}
	b = append(b, `, "win_reason": `...)
	switch o.Reason {
	case rbc.NoReason:
		b = append(b, "null"...)
	case rbc.IllegalAction:
		b = append(b, `{"type": "WinReason", "value": "RESIGN"}`...)
	default:
		if !o.Reason.Valid() {
			return fmt.Errorf("record: write game history: unknown win reason %d", o.Reason)
		}
		b = append(b, `{"type": "WinReason", "value": "`...)
		b = append(b, o.Reason.String()...)
		b = append(b, `"}`...)
	}
	if o.Detail != "" || o.Reason == rbc.IllegalAction {
		b = append(b, `, "`+detailKey+`": {"reason": `...)
		b = appendPyString(b, o.Reason.String())
		b = append(b, `, "detail": `...)
		b = appendPyString(b, o.Detail)
		b = append(b, '}')
	}
	b = append(b, '}')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("record: write game history: %w", err)
	}
	return nil
}

func appendSquare(b []byte, s chess.Square) []byte {
	if !s.Valid() {
		return append(b, "null"...)
	}
	return strconv.AppendInt(b, int64(s), 10)
}

func appendMove(b []byte, m chess.Move) []byte {
	if m.IsNull() {
		return append(b, "null"...)
	}
	b = append(b, `{"type": "Move", "value": "`...)
	b = append(b, m.String()...)
	return append(b, `"}`...)
}

// appendPyString appends s as a JSON string the way Python's json module
// writes it by default (ensure_ascii): every character outside printable
// ASCII as \uXXXX with lower-case hex, characters beyond the BMP as
// surrogate pairs, and the short escapes for \" \\ \n \r \t \b \f.
func appendPyString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u4 := func(b []byte, r rune) []byte {
		return append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
	}
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, '\\', '"')
		case r == '\\':
			b = append(b, '\\', '\\')
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\b':
			b = append(b, '\\', 'b')
		case r == '\f':
			b = append(b, '\\', 'f')
		case r >= 0x20 && r <= 0x7e:
			b = append(b, byte(r))
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			b = u4(u4(b, r1), r2)
		default:
			b = u4(b, r)
		}
	}
	return append(b, '"')
}
