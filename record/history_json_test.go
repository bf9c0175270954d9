package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// historyFiles returns the recorded harness games kept as test data.
func historyFiles(t testing.TB) []string {
	t.Helper()
	return testfs.Files(t, filepath.Join("..", "testdata", "histories", "*.json"))
}

func decodeGeneric(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHistoryRoundTripMatchesHarnessFiles reads every harness-written record
// and writes it back: the result must mean the same JSON and, since we write
// as Python's json.dump does, be the same bytes.
func TestHistoryRoundTripMatchesHarnessFiles(t *testing.T) {
	for _, f := range historyFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, err := ReadHistory(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var out bytes.Buffer
		if err := WriteHistory(h, &out); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(decodeGeneric(t, data), decodeGeneric(t, out.Bytes())) {
			t.Errorf("%s: written JSON differs in meaning from the file", f)
			continue
		}
		if !bytes.Equal(data, out.Bytes()) {
			t.Errorf("%s: written JSON means the same but differs in bytes", f)
		}
	}
}

// TestHistoryDecodesTurnsAndOutcome checks the decoded values of one record
// against the file's text.
func TestHistoryDecodesTurnsAndOutcome(t *testing.T) {
	h, err := LoadHistoryFile(filepath.Join("..", "testdata", "histories", "attacker_bot-random_bot-3-000.json"))
	if err != nil {
		t.Fatal(err)
	}
	if h.WhiteName != "AttackerBot" || h.BlackName != "RandomBot" {
		t.Errorf("names %q %q", h.WhiteName, h.BlackName)
	}
	if len(h.Turns[chess.White]) != 4 || len(h.Turns[chess.Black]) != 3 {
		t.Fatalf("turns %d/%d, want 4/3", len(h.Turns[chess.White]), len(h.Turns[chess.Black]))
	}
	w0 := h.Turns[chess.White][0]
	if w0.Sense != 16 || len(w0.SenseResult) != 6 || w0.SenseResult[4] != (rbc.SquarePiece{Square: 8, Piece: chess.MakePiece(chess.White, chess.Pawn)}) ||
		w0.SenseResult[0] != (rbc.SquarePiece{Square: 24, Piece: chess.NoPiece}) {
		t.Errorf("white turn 0 sense: %v %v", w0.Sense, w0.SenseResult)
	}
	if !w0.HasMove || w0.Requested.String() != "b1c3" || w0.Taken.String() != "b1c3" || w0.Capture != chess.NoSquare ||
		w0.FENBefore != chess.StartFEN {
		t.Errorf("white turn 0 move: %+v", w0)
	}
	want := rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.KingCapture}
	if h.Outcome != want {
		t.Errorf("outcome %v, want %v", h.Outcome, want)
	}
}

// sampleHistory is a small record built by hand: White's last turn stopped
// after its sense (a loss on time in the middle of a turn).
func sampleHistory() *rbc.History {
	b := chess.StartBoard()
	before := b.FEN()
	taken, capture := rbc.Play(&b, chess.Move{From: chess.E2, To: chess.E4})
	after := b.FEN()
	start := chess.StartBoard()
	h := &rbc.History{WhiteName: "Zoë \"q\" 😀", BlackName: "b\\\n"}
	h.Turns[chess.White] = []rbc.TurnRecord{
		{Sense: chess.B2, SenseResult: rbc.Sense(&start, chess.B2), HasMove: true, Requested: chess.Move{From: chess.E2, To: chess.E4},
			Taken: taken, Capture: capture, FENBefore: before, FENAfter: after},
		{Sense: chess.NoSquare, SenseResult: []rbc.SquarePiece{}, Capture: chess.NoSquare},
	}
	before2 := b.FEN()
	rbc.Play(&b, chess.Move{})
	h.Turns[chess.Black] = []rbc.TurnRecord{
		{Sense: chess.H8, SenseResult: rbc.Sense(&b, chess.H8), HasMove: true, Capture: chess.NoSquare, FENBefore: before2, FENAfter: b.FEN()},
	}
	h.Outcome = rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Timeout}
	return h
}

// TestHistoryWritesSenseWithoutMoveAndPythonEscapes: a turn cut short after
// its sense makes the senses lists longer than the move lists, passes are
// null, and strings are escaped exactly as Python's json does.
func TestHistoryWritesSenseWithoutMoveAndPythonEscapes(t *testing.T) {
	h := sampleHistory()
	var buf bytes.Buffer
	if err := WriteHistory(h, &buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	for _, want := range []string{
		`{"type": "GameHistory", "white_name": "Zo\u00eb \"q\" \ud83d\ude00", "black_name": "b\\\n", `,
		`"senses": {"true": [9, null], "false": [63]}`,
		`"requested_moves": {"true": [{"type": "Move", "value": "e2e4"}], "false": [null]}`,
		`"taken_moves": {"true": [{"type": "Move", "value": "e2e4"}], "false": [null]}`,
		`"capture_squares": {"true": [null], "false": [null]}`,
		`[[62, {"type": "Piece", "value": "n"}], [63, {"type": "Piece", "value": "r"}], [54, {"type": "Piece", "value": "p"}], [55, {"type": "Piece", "value": "p"}]]`,
		`"winner_color": false, "win_reason": {"type": "WinReason", "value": "TIMEOUT"}}`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s\n%s", want, s)
		}
	}
	got, err := ReadHistory(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, h) {
		t.Errorf("round trip differs:\n got %+v\nwant %+v", got, h)
	}
}

// TestHistoryIllegalActionIsWrittenAsResignWithDetail: the harness has no
// name for an illegal request, so the record says RESIGN (which its tools
// load) and keeps our reason and detail under an extra key.
func TestHistoryIllegalActionIsWrittenAsResignWithDetail(t *testing.T) {
	h := sampleHistory()
	h.Outcome = rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.IllegalAction, Detail: "white requested e2e5"}
	var buf bytes.Buffer
	if err := WriteHistory(h, &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), `"win_reason": {"type": "WinReason", "value": "RESIGN"}, "blindfish_detail": {"reason": "ILLEGAL_ACTION", "detail": "white requested e2e5"}}`) {
		t.Errorf("bad ending: %s", buf.String())
	}
	got, err := ReadHistory(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Outcome != h.Outcome {
		t.Errorf("outcome %v, want %v", got.Outcome, h.Outcome)
	}
	// A plain harness RESIGN has no detail and stays RESIGN.
	h.Outcome = rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.Resign}
	buf.Reset()
	WriteHistory(h, &buf)
	if strings.Contains(buf.String(), detailKey) {
		t.Errorf("detail key written for a plain resignation")
	}
	if got, err := ReadHistory(&buf); err != nil || got.Outcome != h.Outcome {
		t.Errorf("plain resign: %v %v", got, err)
	}
}

// TestHistoryDrawHasNullWinner: a draw is winner null with a reason.
func TestHistoryDrawHasNullWinner(t *testing.T) {
	h := sampleHistory()
	h.Outcome = rbc.Outcome{Reason: rbc.MoveLimit}
	var buf bytes.Buffer
	WriteHistory(h, &buf)
	if !strings.HasSuffix(buf.String(), `"winner_color": null, "win_reason": {"type": "WinReason", "value": "MOVE_LIMIT"}}`) {
		t.Errorf("bad ending: %s", buf.String())
	}
}

// TestReadHistoryRequiresEveryKey removes each key in turn.
func TestReadHistoryRequiresEveryKey(t *testing.T) {
	var buf bytes.Buffer
	WriteHistory(sampleHistory(), &buf)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range historyKeys {
		m := make(map[string]json.RawMessage)
		for kk, v := range top {
			if kk != k {
				m[kk] = v
			}
		}
		data, _ := json.Marshal(m)
		_, err := ParseHistory(data)
		var he *HistoryError
		if !errors.As(err, &he) || he.Path != k || !strings.Contains(err.Error(), k+": missing key") {
			t.Errorf("without %s: got %v", k, err)
		}
	}
	// Each colour of a per-turn key is required too.
	data := strings.Replace(buf.String(), `"taken_moves": {"true": [{"type": "Move", "value": "e2e4"}], `, `"taken_moves": {`, 1)
	if _, err := ParseHistory([]byte(data)); err == nil || !strings.Contains(err.Error(), `taken_moves["true"]: missing key`) {
		t.Errorf("without taken_moves true: got %v", err)
	}
}

// TestReadHistoryErrorsNameKeyColourAndTurn corrupts single values of a real
// record and checks that the error points at them.
func TestReadHistoryErrorsNameKeyColourAndTurn(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "histories", "attacker_bot-random_bot-3-000.json"))
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]any
	json.Unmarshal(data, &top)
	set := func(key, color string, i int, v any) []byte {
		var m map[string]any
		json.Unmarshal(data, &m)
		if color == "" {
			m[key] = v
		} else {
			m[key].(map[string]any)[color].([]any)[i] = v
		}
		out, _ := json.Marshal(m)
		return out
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"sense off the board", set("senses", "false", 1, 64), `senses["false"][1]: want a square number 0..63 or null, got 64`},
		{"sense not a number", set("senses", "true", 0, "e4"), `senses["true"][0]: want a square number`},
		{"bad move", set("taken_moves", "false", 2, map[string]any{"type": "Move", "value": "e9e4"}), `taken_moves["false"][2]: chess: bad move "e9e4"`},
		{"unwrapped move", set("requested_moves", "true", 3, "e2e4"), `requested_moves["true"][3]: want {"type": "Move", "value": ...}`},
		{"wrong wrapper type", set("requested_moves", "true", 1, map[string]any{"type": "Piece", "value": "e2e4"}), `requested_moves["true"][1]: want {"type": "Move"`},
		{"bad piece", set("sense_results", "true", 0, []any{[]any{24, map[string]any{"type": "Piece", "value": "X"}}}), `sense_results["true"][0][0][1]: chess: bad piece letter "X"`},
		{"sense pair too short", set("sense_results", "false", 2, []any{[]any{24}}), `sense_results["false"][2][0]: want [square, piece or null]`},
		{"bad FEN", set("fens_after_move", "true", 2, "rnbqkbnr/8 w - - 0 1"), `fens_after_move["true"][2]: chess: bad FEN`},
		{"capture square", set("capture_squares", "true", 0, -1), `capture_squares["true"][0]: want a square number`},
		{"winner", set("winner_color", "", 0, "white"), `winner_color: want true, false or null`},
		{"reason", set("win_reason", "", 0, map[string]any{"type": "WinReason", "value": "CHECKMATE"}), `win_reason: unknown reason "CHECKMATE"`},
		{"type", set("type", "", 0, "Board"), `type: want "GameHistory"`},
		{"name", set("white_name", "", 0, nil), `white_name: want a string, got null`},
		{"list", set("senses", "", 0, []any{1, 2}), `senses: want an object with keys "true" and "false"`},
		{"short list", set("fens_before_move", "", 0, map[string]any{"true": []any{}, "false": []any{}}), `fens_before_move["true"]: 0 entries, but requested_moves["true"] has 4`},
		{"turns alternate", set("senses", "", 0, map[string]any{"true": []any{1, 2, 3, 4, 5, 6}, "false": []any{1, 2, 3}}), `senses: white has 6 turns and black 3`},
		{"syntax", []byte(`{"type": "GameHistory",`), `record: bad game history: not a JSON object`},
		{"trailing data", append(append([]byte{}, data...), "{}"...), `extra data after the history object`},
	}
	for _, c := range cases {
		_, err := ParseHistory(c.data)
		var he *HistoryError
		if !errors.As(err, &he) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want it to contain %s", c.name, err, c.want)
		}
	}
}

// TestReadHistoryOnlyLastTurnMayLackMove: a sense without a move is allowed
// for the game's last turn only.
func TestReadHistoryOnlyLastTurnMayLackMove(t *testing.T) {
	var buf bytes.Buffer
	h := sampleHistory()
	// Black gets a second full turn: black moved last, yet white's last
	// turn lacks its move.
	h.Turns[chess.Black] = append(h.Turns[chess.Black], h.Turns[chess.Black][0])
	WriteHistory(h, &buf)
	_, err := ParseHistory(buf.Bytes())
	if err == nil || !strings.Contains(err.Error(), `requested_moves["true"]: 1 moves for 2 senses; only the game's last turn may lack a move`) {
		t.Errorf("got %v", err)
	}
}

// TestSaveAndLoadHistoryFile writes a record to disk and reads it back.
func TestSaveAndLoadHistoryFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	h := sampleHistory()
	if err := SaveHistoryFile(path, h); err != nil {
		t.Fatal(err)
	}
	got, err := LoadHistoryFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, h) {
		t.Errorf("loaded record differs")
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if _, err := LoadHistoryFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

// TestHistoryCloneIsDeep: changing a clone leaves the original alone.
func TestHistoryCloneIsDeep(t *testing.T) {
	h := sampleHistory()
	c := h.Clone()
	c.Turns[chess.White][0].SenseResult[0].Piece = chess.MakePiece(chess.Black, chess.Queen)
	c.Turns[chess.Black][0].Sense = chess.A1
	if !reflect.DeepEqual(h, sampleHistory()) {
		t.Errorf("clone shares memory with the original")
	}
}

// FuzzReadHistory: the reader never panics, every error is a *HistoryError,
// and whatever it accepts writes back to a record that reads the same and
// writes the same bytes again.
func FuzzReadHistory(f *testing.F) {
	for _, name := range []string{"attacker_bot-random_bot-3-000.json", "random_bot-attacker_bot-2-003.json"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "histories", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	var buf bytes.Buffer
	WriteHistory(sampleHistory(), &buf)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"type": "GameHistory"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHistory(data)
		if err != nil {
			var he *HistoryError
			if !errors.As(err, &he) || !strings.HasPrefix(err.Error(), "record: bad game history: ") {
				t.Fatalf("error of type %T without context: %v", err, err)
			}
			return
		}
		var out bytes.Buffer
		if err := WriteHistory(h, &out); err != nil {
			t.Fatalf("accepted record does not write: %v", err)
		}
		h2, err := ParseHistory(out.Bytes())
		if err != nil {
			t.Fatalf("written record does not read: %v\n%s", err, out.Bytes())
		}
		if !reflect.DeepEqual(h, h2) {
			t.Fatalf("record changed in a round trip:\n%+v\n%+v", h, h2)
		}
		var out2 bytes.Buffer
		WriteHistory(h2, &out2)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("second write differs")
		}
	})
}
