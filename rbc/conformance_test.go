package rbc

import (
	"bufio"
	"encoding/json"
	"github.com/blindfish-rbc/blindfish/chess"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// harnessPosition is one line of a conformance file produced by running the
// reference harness: its move actions and its resolution of each of them.
type harnessPosition struct {
	FEN         string                          `json:"fen"`
	MoveActions []string                        `json:"move_actions"`
	Resolution  map[string][2]json.RawMessage   `json:"resolution"`
	PseudoLegal []string                        `json:"pseudo_legal"`
	Sense       map[string][][2]json.RawMessage `json:"sense"`
}

func loadHarnessPositions(t *testing.T, name string) []harnessPosition {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "rules", name))
	if err != nil {
		t.Fatalf("conformance data missing: %v", err)
	}
	defer f.Close()
	var out []harnessPosition
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var p harnessPosition
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func checkHarnessPositions(t *testing.T, name string) {
	positions := loadHarnessPositions(t, name)
	if len(positions) == 0 {
		t.Fatalf("%s holds no positions", name)
	}
	for _, p := range positions {
		b, err := chess.ParseFEN(p.FEN)
		if err != nil {
			t.Fatalf("%s: %v", p.FEN, err)
		}
		if got := b.FEN(); got != p.FEN {
			t.Errorf("FEN round trip: got %q want %q", got, p.FEN)
		}
		var got []string
		for _, m := range b.MoveActions() {
			got = append(got, m.String())
		}
		slices.Sort(got)
		want := slices.Clone(p.MoveActions)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: move actions\n got %v\nwant %v", p.FEN, got, want)
		}
		for req, res := range p.Resolution {
			m, err := chess.ParseMove(req)
			if err != nil {
				t.Fatal(err)
			}
			var wantTaken *string
			_ = json.Unmarshal(res[0], &wantTaken)
			wc := squareFromJSON(t, res[1])
			taken, capture := Resolve(&b, WithQueenDefault(&b, m))
			gotTaken := "null"
			if !taken.IsNull() {
				gotTaken = taken.String()
			}
			w := "null"
			if wantTaken != nil {
				w = *wantTaken
			}
			if gotTaken != w || capture != wc {
				t.Errorf("%s: %s resolves to %s ×%v, harness %s ×%v", p.FEN, req, gotTaken, capture, w, wc)
			}
		}
		for center, want := range p.Sense {
			c, err := strconv.Atoi(center)
			if err != nil {
				t.Fatalf("bad sense square %q", center)
			}
			got := Sense(&b, chess.Square(c))
			if len(got) != len(want) {
				t.Errorf("%s: sense %s: %d squares, harness %d", p.FEN, center, len(got), len(want))
				continue
			}
			for i, w := range want {
				var sym *string
				_ = json.Unmarshal(w[1], &sym)
				wantPiece := "."
				if sym != nil {
					wantPiece = *sym
				}
				if sq := squareFromJSON(t, w[0]); got[i].Square != sq || got[i].Piece.String() != wantPiece {
					t.Errorf("%s: sense %s item %d: %v %v, harness %v %s", p.FEN, center, i, got[i].Square, got[i].Piece, sq, wantPiece)
				}
			}
		}
		if p.PseudoLegal != nil {
			var opts []string
			for _, m := range b.AppendOptions(nil) {
				if !m.IsNull() {
					opts = append(opts, m.String())
				}
			}
			slices.Sort(opts)
			wantPL := slices.Clone(p.PseudoLegal)
			slices.Sort(wantPL)
			// python-chess leaves out castling through check; we include it.
			var extra []string
			for _, o := range opts {
				if !slices.Contains(wantPL, o) {
					extra = append(extra, o)
				}
			}
			for _, w := range wantPL {
				if !slices.Contains(opts, w) {
					t.Errorf("%s: option %s missing", p.FEN, w)
				}
			}
			for _, e := range extra {
				m, _ := chess.ParseMove(e)
				if b.PieceAt(m.From).Type() != chess.King || (m.To-m.From != 2 && m.From-m.To != 2) {
					t.Errorf("%s: option %s is not pseudo-legal for the harness", p.FEN, e)
				}
			}
		}
	}
}

// TestMoveActionsAndResolutionMatchHarness checks move actions and move
// resolution against the harness's own answers on positions from real games.
func TestMoveActionsAndResolutionMatchHarness(t *testing.T) {
	checkHarnessPositions(t, "move-resolution.jsonl")
}

// squareFromJSON reads a square given as null, a number or a name.
func squareFromJSON(t *testing.T, raw json.RawMessage) chess.Square {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	switch x := v.(type) {
	case nil:
		return chess.NoSquare
	case float64:
		return chess.Square(x)
	case string:
		s, err := chess.ParseSquare(x)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	t.Fatalf("bad square %s", raw)
	return chess.NoSquare
}

// TestHarnessPositionsMatch checks move actions, resolution, options and sense
// results on 3,000 positions drawn from random harness games, rich in en
// passant, castling through pieces, promotions and capturable kings.
func TestHarnessPositionsMatch(t *testing.T) {
	checkHarnessPositions(t, "harness-positions.jsonl")
}
