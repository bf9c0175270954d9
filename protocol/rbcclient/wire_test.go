package rbcclient

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

func TestWireFormat(t *testing.T) {
	e2e4, _ := chess.ParseMove("e2e4")
	e7e8q, _ := chess.ParseMove("e7e8q")
	cases := []struct {
		v    any
		want string
	}{
		{WireMove{e2e4}, `{"type":"Move","value":"e2e4"}`},
		{WireMove{e7e8q}, `{"type":"Move","value":"e7e8q"}`},
		{WireMove{}, `null`},
		{WirePiece{chess.MakePiece(chess.Black, chess.Knight)}, `{"type":"Piece","value":"n"}`},
		{WirePiece{}, `null`},
		{WireSquare{chess.Square(34)}, `34`},
		{WireSquare{chess.NoSquare}, `null`},
		{WireSenseEntry{Square: 54, Piece: chess.MakePiece(chess.White, chess.King)}, `[54,{"type":"Piece","value":"K"}]`},
		{WireSenseEntry{Square: 55}, `[55,null]`},
		{WireMoveResult{Requested: e2e4, Capture: 23}, `[{"type":"Move","value":"e2e4"},null,23]`},
		{WireWinReason{rbc.KingCapture}, `{"type":"WinReason","value":"KING_CAPTURE"}`},
		{WireWinReason{}, `null`},
		{WireBoard{chess.StartFEN}, `{"type":"Board","value":"` + chess.StartFEN + `"}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%#v: %s, %v; want %s", c.v, got, err, c.want)
		}
	}
	// The harness's own spacing reads back too.
	var r WireMoveResult
	if err := json.Unmarshal([]byte(`[{"type": "Move", "value": "a1a8"}, {"type": "Move", "value": "a1a5"}, 32]`), &r); err != nil ||
		r.Requested.String() != "a1a8" || r.Taken.String() != "a1a5" || r.Capture != 32 {
		t.Errorf("move result: %+v, %v", r, err)
	}
	for _, bad := range []struct {
		v    any
		data string
	}{
		{new(WireMove), `{"type":"Piece","value":"p"}`}, {new(WireMove), `{"type":"Move","value":"e2"}`},
		{new(WireMove), `"e2e4"`}, {new(WirePiece), `{"type":"Piece","value":"x"}`},
		{new(WireSquare), `64`}, {new(WireSquare), `-1`}, {new(WireSquare), `"e4"`},
		{new(WireSenseEntry), `[1]`}, {new(WireSenseEntry), `[null, null]`},
		{new(WireMoveResult), `[null, null]`}, {new(WireWinReason), `{"type":"WinReason","value":"CHECKMATE"}`},
		{new(WireBoard), `{"type":"Board","value":"not a fen"}`},
	} {
		if err := json.Unmarshal([]byte(bad.data), bad.v); err == nil {
			t.Errorf("%T accepted %s", bad.v, bad.data)
		}
	}
}

func TestNewClientRejectsCredentialsInURL(t *testing.T) {
	_, err := NewClient(Config{URL: "https://bob:hunter2-secret@rbc.example/", Username: "bob"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v", err)
	}
	_, err = NewClient(Config{URL: "https://bob:hunter2-secret@[::1", Username: "bob"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v", err)
	}
	for _, u := range []string{"ftp://x", "rbc.example", ""} {
		if _, err := NewClient(Config{URL: u, Username: "bob"}); err == nil {
			t.Errorf("URL %q accepted", u)
		}
	}
	if _, err := NewClient(Config{URL: "http://x"}); err == nil {
		t.Error("no username accepted")
	}
}
