package ksrecord

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// foolsMate is a short berkeley_any game with every kind of answer but a
// capture: White tries a pawn capture onto nothing (illegal, public), asks
// "any?" (no), and is mated.
func foolsMate(t testing.TB) *kriegspiel.Record {
	t.Helper()
	g := kriegspiel.NewGame(kriegspiel.BerkeleyAny())
	for _, q := range []string{"f2f3", "e7e5", "e2d3", "any", "g2g4", "d8h4"} {
		question, err := kriegspiel.ParseQuestion(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Ask(question); err != nil {
			t.Fatal(err)
		}
	}
	r := kriegspiel.NewRecord(g)
	r.White, r.Black = "w", "b"
	r.Turns[0].ClockLeft = 905 * time.Second
	return r
}

func recordJSON(t testing.TB, r *kriegspiel.Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRecordOfAGame(t *testing.T) {
	r := foolsMate(t)
	if len(r.Turns) != 4 || len(r.Turns[2].Tries) != 3 || r.Result.End != kriegspiel.CheckmateBlackWins || !r.Result.HasWinner || r.Result.Winner != chess.Black {
		t.Fatalf("record %+v", r)
	}
	if got := r.Moves(); len(got) != 4 || got[3] != (chess.Move{From: chess.D8, To: chess.H4}) {
		t.Errorf("moves %v", got)
	}
	// Black heard every answer to White's questions (berkeley: illegal tries
	// are public), but not the moves themselves.
	heard := r.Heard(chess.Black)
	if len(heard) != 6 {
		t.Fatalf("black heard %v", heard)
	}
	if h := heard[2]; h.Own || h.Answer.Verdict != kriegspiel.Illegal || h.Question != (kriegspiel.Question{}) {
		t.Errorf("black heard %+v of e2d3", h)
	}
	if h := heard[3]; h.Own || h.Answer.Verdict != kriegspiel.NoAny || !h.Question.AskAny {
		t.Errorf("black heard %+v of any?", h)
	}
	if h := heard[5]; !h.Own || h.Answer.End != kriegspiel.CheckmateBlackWins {
		t.Errorf("black heard %+v of its mate", h)
	}
	if _, err := r.Replay(); err != nil {
		t.Error(err)
	}
	got, err := Read(bytes.NewReader(recordJSON(t, r)))
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(r) {
		t.Errorf("read back %+v\nwant %+v", got, r)
	}
}

// TestRecordReplayFindsTampering changes one thing in a record at a time
// and checks that Replay names it.
func TestRecordReplayFindsTampering(t *testing.T) {
	for _, c := range []struct {
		field  string
		tamper func(r *kriegspiel.Record)
	}{
		{"pawn_tries", func(r *kriegspiel.Record) { r.PawnTries = 3 }},
		{"turns[0].tries[0].a", func(r *kriegspiel.Record) { r.Turns[0].Tries[0].Answer.Checks[0] = kriegspiel.CheckFile }},
		{"turns[1].tries[0].public", func(r *kriegspiel.Record) { r.Turns[1].Tries[0].Public = false }},
		{"turns[2].tries[0].a", func(r *kriegspiel.Record) { r.Turns[2].Tries[0].Answer = kriegspiel.VerdictOnly(kriegspiel.Impossible) }},
		{"turns[2].fen_after", func(r *kriegspiel.Record) { r.Turns[2].FENAfter = chess.StartFEN }},
		{"turns[1].color", func(r *kriegspiel.Record) { r.Turns[1].Color = chess.White }},
		{"turns[4]", func(r *kriegspiel.Record) { r.Turns = append(r.Turns, kriegspiel.Turn{Color: chess.White}) }},
		{"final_fen", func(r *kriegspiel.Record) { r.FinalFEN = chess.StartFEN }},
		{"result", func(r *kriegspiel.Record) {
			r.Result = kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: chess.White, HasWinner: true}
		}},
		{"result", func(r *kriegspiel.Record) { r.Result = kriegspiel.Result{} }},
	} {
		r := foolsMate(t)
		c.tamper(r)
		_, err := r.Replay()
		var m *kriegspiel.Mismatch
		if !errors.As(err, &m) || m.Field != c.field {
			t.Errorf("tampered %s: %v", c.field, err)
		}
	}
	// A game that stopped (on time) in the middle is not for the rules to judge.
	r := foolsMate(t)
	r.Turns = r.Turns[:3]
	r.Turns[2].Tries = r.Turns[2].Tries[:2]
	r.Turns[2].Move, r.Turns[2].FENAfter = chess.Move{}, ""
	r.FinalFEN = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq e6 0 2"
	r.Result = kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: chess.Black, HasWinner: true}
	if _, err := r.Replay(); err != nil {
		t.Errorf("a loss on time mid-turn: %v", err)
	}
}

// TestReadRecordErrors checks that bad records are refused with an error
// naming the field.
func TestReadRecordErrors(t *testing.T) {
	base := recordJSON(t, foolsMate(t))
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	turn := func(m map[string]any, i int) map[string]any { return m["turns"].([]any)[i].(map[string]any) }
	try := func(m map[string]any, i, j int) map[string]any {
		return turn(m, i)["tries"].([]any)[j].(map[string]any)
	}
	ans := func(m map[string]any, i, j int) map[string]any { return try(m, i, j)["a"].(map[string]any) }
	for _, c := range []struct {
		field string
		json  string
	}{
		{"", "{"},
		{"", "[]"},
		{"", string(base) + "{}"},
		{"", edit(func(m map[string]any) { m["colour"] = "white" })},
		{"format", edit(func(m map[string]any) { m["format"] = "reconchess" })},
		{"version", edit(func(m map[string]any) { m["version"] = 2 })},
		{"version", edit(func(m map[string]any) { m["version"] = "1" })},
		{"ruleset", edit(func(m map[string]any) { m["ruleset"] = "english" })},
		{"start_fen", edit(func(m map[string]any) { m["start_fen"] = "8/8/8/8/8/8/8/8 w - - 0 1" })},
		{"pawn_tries", edit(func(m map[string]any) { m["pawn_tries"] = -2 })},
		{"final_fen", edit(func(m map[string]any) { m["final_fen"] = "" })},
		{"turns[1].color", edit(func(m map[string]any) { turn(m, 1)["color"] = "white" })},
		{"turns[1].color", edit(func(m map[string]any) { turn(m, 1)["color"] = "b" })},
		{"turns[1].tries", edit(func(m map[string]any) { turn(m, 1)["tries"] = []any{} })},
		{"turns[2].tries", edit(func(m map[string]any) {
			turn(m, 2)["tries"] = turn(m, 2)["tries"].([]any)[:2]
			delete(turn(m, 2), "move")
		})},
		{"turns[2].tries[3]", edit(func(m map[string]any) {
			turn(m, 2)["tries"] = append(turn(m, 2)["tries"].([]any), try(m, 2, 0))
		})},
		{"turns[2].move", edit(func(m map[string]any) { turn(m, 2)["move"] = "g2g3" })},
		{"turns[2].move", edit(func(m map[string]any) { turn(m, 2)["move"] = "g2" })},
		{"turns[2].fen_after", edit(func(m map[string]any) { turn(m, 2)["fen_after"] = "rnbqkbnr" })},
		{"turns[0].clock_left_ms", edit(func(m map[string]any) { turn(m, 0)["clock_left_ms"] = -5 })},
		{"turns.clock_left_ms", edit(func(m map[string]any) { turn(m, 0)["clock_left_ms"] = "905000" })},
		{"turns[2].tries[0].q", edit(func(m map[string]any) { try(m, 2, 0)["q"] = "e2e2" })},
		{"turns[2].tries[0].q", edit(func(m map[string]any) { try(m, 2, 0)["q"] = "0000" })},
		{"turns[2].tries[0].a.verdict", edit(func(m map[string]any) { ans(m, 2, 0)["verdict"] = "NONSENSE" })},
		{"turns[2].tries[1].a.verdict", edit(func(m map[string]any) { ans(m, 2, 1)["verdict"] = "ILLEGAL_MOVE" })},
		{"turns[2].tries[0].a.verdict", edit(func(m map[string]any) { ans(m, 2, 0)["verdict"] = "HAS_ANY" })},
		{"turns[2].tries[0].a.capture", edit(func(m map[string]any) { ans(m, 2, 0)["capture"] = "d3" })},
		{"turns[2].tries[2].a.capture", edit(func(m map[string]any) { ans(m, 2, 2)["verdict"] = "CAPTURE_DONE" })},
		{"turns[2].tries[2].a.capture", edit(func(m map[string]any) {
			ans(m, 2, 2)["verdict"], ans(m, 2, 2)["capture"] = "CAPTURE_DONE", "z9"
		})},
		{"turns[2].tries[2].a.captured", edit(func(m map[string]any) { ans(m, 2, 2)["captured"] = "PAWN" })},
		{"turns[2].tries[2].a.checks[0]", edit(func(m map[string]any) { ans(m, 2, 2)["checks"] = []any{"CHECK_DIAGONAL"} })},
		{"turns[2].tries[2].a.checks", edit(func(m map[string]any) {
			ans(m, 2, 2)["checks"] = []any{"CHECK_FILE", "CHECK_FILE", "CHECK_FILE"}
		})},
		{"turns[2].tries[0].a.checks", edit(func(m map[string]any) { ans(m, 2, 0)["checks"] = []any{"CHECK_FILE"} })},
		{"turns[3].tries[0].a.checks", edit(func(m map[string]any) { ans(m, 3, 0)["checks"] = []any{"CHECK_FILE"} })},
		{"turns[3].tries[0].a.end", edit(func(m map[string]any) { ans(m, 3, 0)["end"] = "NONE" })},
		{"turns[2].tries[0].a.end", edit(func(m map[string]any) { ans(m, 2, 0)["end"] = "DRAW_STALEMATE" })},
		{"turns[3].tries[0].a.pawn_tries", edit(func(m map[string]any) { ans(m, 3, 0)["pawn_tries"] = 1 })},
		{"turns[2].tries[2].a.pawn_tries", edit(func(m map[string]any) { ans(m, 2, 2)["pawn_tries"] = -1 })},
		{"result.reason", edit(func(m map[string]any) { m["result"].(map[string]any)["reason"] = "MATE" })},
		{"result.winner", edit(func(m map[string]any) { m["result"].(map[string]any)["winner"] = "white" })},
		{"result.winner", edit(func(m map[string]any) { m["result"].(map[string]any)["winner"] = "nobody" })},
		{"result.winner", edit(func(m map[string]any) { m["result"] = map[string]any{"reason": "TIMEOUT"} })},
		{"result.winner", edit(func(m map[string]any) { m["result"] = map[string]any{"reason": "TURN_LIMIT", "winner": "black"} })},
		{"result.detail", edit(func(m map[string]any) { m["result"] = map[string]any{"reason": "UNFINISHED", "detail": "x"} })},
	} {
		_, err := Read(strings.NewReader(c.json))
		var re *Error
		if !errors.As(err, &re) {
			t.Errorf("want an error at %q, got %v for %.200s", c.field, err, c.json)
			continue
		}
		if re.Field != c.field {
			t.Errorf("error %q names %q, want %q", err, re.Field, c.field)
		}
		if c.field != "" && !strings.Contains(err.Error(), c.field) {
			t.Errorf("error %q does not name %q", err, c.field)
		}
	}
}

// FuzzReadRecord checks that any input is read or refused without a panic,
// that what is read writes out and reads back the same, and that replaying
// it does not panic. Cases the fuzzer finds go to testdata/fuzz/FuzzReadRecord.
func FuzzReadRecord(f *testing.F) {
	base := recordJSON(f, foolsMate(f))
	f.Add(base)
	f.Add([]byte(`{"format":"blindfish-kriegspiel","version":1,"ruleset":"wild16","start_fen":"` + chess.StartFEN +
		`","pawn_tries":0,"turns":[],"result":{"reason":"UNFINISHED"},"final_fen":"` + chess.StartFEN + `"}`))
	f.Add([]byte(`{"format":"blindfish-kriegspiel","version":1,"ruleset":"wild16","start_fen":"` + chess.StartFEN +
		`","turns":[{"color":"white","tries":[{"q":"e2e4","a":{"verdict":"REGULAR_MOVE","pawn_tries":0},"public":true}],"move":"e2e4"},` +
		`{"color":"black","tries":[{"q":"any","a":{"verdict":"IMPOSSIBLE_TO_ASK"},"public":false}]}],` +
		`"result":{"reason":"RESIGN","winner":"white","detail":"gave up"},"final_fen":"` + chess.StartFEN + `"}`))
	f.Add([]byte(`{"turns":[{"tries":[{"a":{"checks":["CHECK_KNIGHT","CHECK_FILE"],"capture":"e4"}}]}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(bytes.NewReader(data))
		if err != nil {
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("error %v is not a *Error", err)
			}
			return
		}
		out := recordJSON(t, r)
		back, err := Read(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("written record does not read back: %v\n%s", err, out)
		}
		if !back.Equal(r) {
			t.Fatalf("record read back differs\n%s", out)
		}
		_, _ = r.Replay()
	})
}

// SaveFile writes a record that Read reads back, and leaves no
// temporary file when it fails (here on a name too long for the file
// system).
func TestSaveRecordFile(t *testing.T) {
	dir := t.TempDir()
	rec := foolsMate(t)
	path := filepath.Join(dir, "game.json")
	if err := SaveFile(path, rec); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	back, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Turns) != len(rec.Turns) || back.Result != rec.Result {
		t.Fatalf("read back %d turns, %v; want %d, %v", len(back.Turns), back.Result, len(rec.Turns), rec.Result)
	}
	if err := SaveFile(filepath.Join(dir, strings.Repeat("y", 300)+".json"), rec); err == nil {
		t.Fatal("saved under a 300-byte file name")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d files in the folder, want only the record", len(entries))
	}
}

// TestOverheard: the opponent hears a turn's public tries only, and of each
// question only whether it was "any?", never the move tried.
func TestOverheard(t *testing.T) {
	e2e4, _ := chess.ParseMove("e2e4")
	d2d4, _ := chess.ParseMove("d2d4")
	turn := kriegspiel.Turn{Color: chess.White, Tries: []kriegspiel.Try{
		{Question: kriegspiel.TryMove(d2d4), Answer: kriegspiel.VerdictOnly(kriegspiel.Illegal), Public: false},
		{Question: kriegspiel.Any(), Answer: kriegspiel.VerdictOnly(kriegspiel.NoAny), Public: true},
		{Question: kriegspiel.TryMove(e2e4), Answer: kriegspiel.Answer{Verdict: kriegspiel.Captured, Capture: chess.E5, PawnTries: 1}, Public: true},
	}}
	want := []kriegspiel.Heard{
		{Question: kriegspiel.Any(), Answer: kriegspiel.VerdictOnly(kriegspiel.NoAny)},
		{Answer: kriegspiel.Answer{Verdict: kriegspiel.Captured, Capture: chess.E5, PawnTries: 1}},
	}
	if got := turn.Overheard(); !reflect.DeepEqual(got, want) {
		t.Errorf("Overheard = %+v, want %+v", got, want)
	}
	rec := kriegspiel.Record{Turns: []kriegspiel.Turn{turn}}
	if got := rec.Heard(chess.Black); !reflect.DeepEqual(got, want) {
		t.Errorf("Heard(Black) = %+v, want what White's turn lets Black overhear, %+v", got, want)
	}
	if got := rec.Heard(chess.White); len(got) != 3 || !got[0].Own || got[0].Question.Move != d2d4 {
		t.Errorf("Heard(White) = %+v, want White's own three tries", got)
	}
}
