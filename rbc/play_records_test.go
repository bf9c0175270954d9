package rbc

import (
	"encoding/json"
	"github.com/blindfish-rbc/blindfish/chess"
	"os"
	"path/filepath"
	"testing"
)

// TestPlayMatchesRecordedTurns plays every recorded request on the recorded
// board before it and compares taken move, capture square and the board after
// with the harness's record, turn by turn (independent of the history reader).
func TestPlayMatchesRecordedTurns(t *testing.T) {
	files, _ := filepath.Glob("../testdata/histories/*.json")
	if len(files) == 0 {
		t.Fatal("no recorded games in testdata/histories")
	}
	type wrapped struct {
		Value string `json:"value"`
	}
	turns := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Requested map[string][]*wrapped `json:"requested_moves"`
			Taken     map[string][]*wrapped `json:"taken_moves"`
			Captures  map[string][]*int     `json:"capture_squares"`
			Before    map[string][]string   `json:"fens_before_move"`
			After     map[string][]string   `json:"fens_after_move"`
		}
		if err := json.Unmarshal(data, &h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, side := range []string{"true", "false"} {
			for i, fen := range h.Before[side] {
				b := chess.MustParseFEN(fen)
				req := chess.Move{}
				if r := h.Requested[side][i]; r != nil {
					req, _ = chess.ParseMove(r.Value)
				}
				if !req.IsNull() && !b.IsMoveAction(WithQueenDefault(&b, req)) {
					t.Errorf("%s %s turn %d: %v not a move action", f, side, i, req)
				}
				taken, capture := Play(&b, req)
				want := "0000"
				if tk := h.Taken[side][i]; tk != nil {
					want = tk.Value
				}
				wantCap := chess.NoSquare
				if c := h.Captures[side][i]; c != nil {
					wantCap = chess.Square(*c)
				}
				if taken.String() != want || capture != wantCap || b.FEN() != h.After[side][i] {
					t.Errorf("%s %s turn %d: %v -> %v ×%v %s; want %s ×%v %s", f, side, i, req, taken, capture, b.FEN(), want, wantCap, h.After[side][i])
				}
				if fresh := chess.MustParseFEN(b.FEN()); b.Key() != fresh.Key() {
					t.Errorf("%s: incremental key differs from recomputed key", f)
				}
				turns++
			}
		}
	}
	t.Logf("%d turns from %d files", turns, len(files))
}
