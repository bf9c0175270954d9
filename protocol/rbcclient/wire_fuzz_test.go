package rbcclient

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzWire feeds the server's JSON, whatever it is, to every wire type: each
// reads it or refuses it without panicking, and what it reads writes back to
// JSON that reads as the same value.
func FuzzWire(f *testing.F) {
	for _, s := range []string{
		`{"type": "Move", "value": "e7e8q"}`, `null`, `{"type": "Piece", "value": "K"}`, `63`, `-1`,
		`[12, {"type": "Piece", "value": "p"}]`, `[0, null]`,
		`[{"type": "Move", "value": "a2a4"}, {"type": "Move", "value": "a2a3"}, 16]`, `[null, null, null]`,
		`{"type": "WinReason", "value": "KING_CAPTURE"}`,
		`{"type": "Board", "value": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}`,
		`{"type": "Move", "value": "0000"}`, `[1, 2]`, `{"type": 5}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, v := range []json.Unmarshaler{
			new(WireMove), new(WirePiece), new(WireSquare), new(WireSenseEntry),
			new(WireMoveResult), new(WireWinReason), new(WireBoard),
		} {
			if err := v.UnmarshalJSON(raw); err != nil {
				continue
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%T read %q but cannot write it back: %v", v, raw, err)
			}
			again := reflect.New(reflect.TypeOf(v).Elem()).Interface().(json.Unmarshaler)
			if err := again.UnmarshalJSON(out); err != nil {
				t.Fatalf("%T read %q, wrote %s, and cannot read that: %v", v, raw, out, err)
			}
			if !reflect.DeepEqual(v, again) {
				t.Fatalf("%T read %q as %+v, wrote %s, which reads as %+v", v, raw, v, out, again)
			}
		}
	})
}
