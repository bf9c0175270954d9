package rbcclient

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// The API wraps typed values as the harness's JSON encoder does:
// {"type": "Move", "value": "e2e4"}; a missing move or piece is null, a
// square is a plain integer or null, a colour a boolean (true: White).

// typed is a wrapped value.
type typed struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

func isNull(raw json.RawMessage) bool {
	return len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

func unwrap(raw json.RawMessage, want string) (string, error) {
	var t typed
	if err := json.Unmarshal(raw, &t); err != nil {
		return "", fmt.Errorf("want a %s object: %w", want, err)
	}
	if t.Type != want {
		return "", fmt.Errorf("want type %q, got %q", want, t.Type)
	}
	return t.Value, nil
}

// WireMove is a move as the API sends it; the null move is JSON null.
type WireMove struct{ chess.Move }

// MarshalJSON writes {"type":"Move","value":"e2e4"}, or null for the null move.
func (m WireMove) MarshalJSON() ([]byte, error) {
	if m.IsNull() {
		return []byte("null"), nil
	}
	return json.Marshal(typed{"Move", m.Move.String()})
}

// UnmarshalJSON reads a wrapped move or null.
func (m *WireMove) UnmarshalJSON(raw []byte) error {
	if isNull(raw) {
		m.Move = chess.Move{}
		return nil
	}
	v, err := unwrap(raw, "Move")
	if err != nil {
		return err
	}
	mv, err := chess.ParseMove(v)
	if err != nil {
		return err
	}
	if mv.IsNull() {
		return fmt.Errorf("the null move %q where a move or null belongs", v)
	}
	m.Move = mv
	return nil
}

// WirePiece is a piece as the API sends it; an empty square is null.
type WirePiece struct{ chess.Piece }

// MarshalJSON writes {"type":"Piece","value":"p"}, or null for no piece.
func (p WirePiece) MarshalJSON() ([]byte, error) {
	if p.Piece == chess.NoPiece {
		return []byte("null"), nil
	}
	return json.Marshal(typed{"Piece", p.Piece.String()})
}

// UnmarshalJSON reads a wrapped piece or null.
func (p *WirePiece) UnmarshalJSON(raw []byte) error {
	if isNull(raw) {
		p.Piece = chess.NoPiece
		return nil
	}
	v, err := unwrap(raw, "Piece")
	if err != nil {
		return err
	}
	if len(v) != 1 {
		return fmt.Errorf("bad piece %q", v)
	}
	pc, err := chess.ParsePiece(v[0])
	if err != nil {
		return err
	}
	p.Piece = pc
	return nil
}

// WireSquare is a square number, or null for none.
type WireSquare struct{ chess.Square }

// MarshalJSON writes the square's number, or null.
func (s WireSquare) MarshalJSON() ([]byte, error) {
	if !s.Valid() {
		return []byte("null"), nil
	}
	return json.Marshal(int(s.Square))
}

// UnmarshalJSON reads a square number in 0..63, or null.
func (s *WireSquare) UnmarshalJSON(raw []byte) error {
	if isNull(raw) {
		s.Square = chess.NoSquare
		return nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err != nil {
		return fmt.Errorf("want a square number: %w", err)
	}
	if n < 0 || n > 63 {
		return fmt.Errorf("square %d is off the board", n)
	}
	s.Square = chess.Square(n)
	return nil
}

// WireSenseEntry is one [square, piece] pair of a sense result.
type WireSenseEntry rbc.SquarePiece

// MarshalJSON writes [square, piece or null].
func (e WireSenseEntry) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{int(e.Square), WirePiece{e.Piece}})
}

// UnmarshalJSON reads [square, piece or null].
func (e *WireSenseEntry) UnmarshalJSON(raw []byte) error {
	var pair []json.RawMessage
	if err := json.Unmarshal(raw, &pair); err != nil {
		return fmt.Errorf("want [square, piece]: %w", err)
	}
	if len(pair) != 2 {
		return fmt.Errorf("want [square, piece], got %d items", len(pair))
	}
	var s WireSquare
	if err := s.UnmarshalJSON(pair[0]); err != nil {
		return err
	}
	if !s.Valid() {
		return fmt.Errorf("a sense result square is null")
	}
	var p WirePiece
	if err := p.UnmarshalJSON(pair[1]); err != nil {
		return err
	}
	*e = WireSenseEntry{Square: s.Square, Piece: p.Piece}
	return nil
}

// WireMoveResult is [requested, taken, capture square].
type WireMoveResult struct {
	Requested, Taken chess.Move
	Capture          chess.Square
}

// MarshalJSON writes [requested, taken, capture square].
func (r WireMoveResult) MarshalJSON() ([]byte, error) {
	return json.Marshal([]any{WireMove{r.Requested}, WireMove{r.Taken}, WireSquare{r.Capture}})
}

// UnmarshalJSON reads [requested, taken, capture square].
func (r *WireMoveResult) UnmarshalJSON(raw []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("want [requested, taken, capture]: %w", err)
	}
	if len(items) != 3 {
		return fmt.Errorf("want [requested, taken, capture], got %d items", len(items))
	}
	var req, taken WireMove
	var sq WireSquare
	if err := req.UnmarshalJSON(items[0]); err != nil {
		return err
	}
	if err := taken.UnmarshalJSON(items[1]); err != nil {
		return err
	}
	if err := sq.UnmarshalJSON(items[2]); err != nil {
		return err
	}
	*r = WireMoveResult{Requested: req.Move, Taken: taken.Move, Capture: sq.Square}
	return nil
}

// WireWinReason is a wrapped win reason, or null.
type WireWinReason struct{ rbc.WinReason }

// MarshalJSON writes {"type":"WinReason","value":"KING_CAPTURE"}, or null.
func (w WireWinReason) MarshalJSON() ([]byte, error) {
	if w.WinReason == rbc.NoReason {
		return []byte("null"), nil
	}
	return json.Marshal(typed{"WinReason", w.WinReason.String()})
}

// UnmarshalJSON reads a wrapped win reason or null.
func (w *WireWinReason) UnmarshalJSON(raw []byte) error {
	if isNull(raw) {
		w.WinReason = rbc.NoReason
		return nil
	}
	v, err := unwrap(raw, "WinReason")
	if err != nil {
		return err
	}
	r, err := rbc.ParseWinReason(v)
	if err != nil {
		return err
	}
	w.WinReason = r
	return nil
}

// WireBoard is a wrapped board, {"type":"Board","value":FEN}.
type WireBoard struct{ FEN string }

// MarshalJSON writes the wrapped FEN.
func (b WireBoard) MarshalJSON() ([]byte, error) { return json.Marshal(typed{"Board", b.FEN}) }

// UnmarshalJSON reads a wrapped board and checks its FEN.
func (b *WireBoard) UnmarshalJSON(raw []byte) error {
	v, err := unwrap(raw, "Board")
	if err != nil {
		return err
	}
	if _, err := chess.ParseFEN(v); err != nil {
		return err
	}
	b.FEN = v
	return nil
}
