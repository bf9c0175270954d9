package kriegspielorg

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// A scoresheet as the site's server sends it to Black in a wild16 game (the
// words are the server's): White's capture with a check, the pawn tries
// that open Black's turn, Black's illegal try and its capture, the tries
// that open White's turn, then White's mate.
const blackSheet = `{"viewer_color": "black", "last_move_number": 2, "turns": [
 {"turn": 1,
  "white": [{"kind": "capture", "actor": "opponent", "prompt": "Opponent move",
             "message": "Opponent move — Pawn captured at E5 · Check on short diagonal",
             "messages": ["Pawn captured at E5", "Check on short diagonal"], "move_uci": null, "question_type": "COMMON"}],
  "black": [{"kind": "status", "actor": "self", "prompt": null, "message": "2 pawn tries", "messages": ["2 pawn tries"], "move_uci": null, "question_type": null},
            {"kind": "illegal_move", "actor": "self", "prompt": "Move attempt", "message": "Move attempt — Illegal move",
             "messages": ["Illegal move"], "move_uci": "d7d5", "question_type": "COMMON"},
            {"kind": "capture", "actor": "self", "prompt": "Move attempt", "message": "Move attempt — Piece captured at D4",
             "messages": ["Piece captured at D4", "Double check", "Check on file", "Check by knight"], "move_uci": "e5d4", "question_type": "COMMON"}]},
 {"turn": 2,
  "white": [{"kind": "status", "actor": "opponent", "message": "No pawn captures", "messages": ["No pawn captures"]},
            {"kind": "move", "actor": "opponent", "message": "Opponent move — Move complete · Checkmate — White wins",
             "messages": ["Move complete", "Checkmate — White wins"], "question_type": "COMMON"}],
  "black": []}]}`

func TestReadScoresheetReadsTheServersWords(t *testing.T) {
	var sc Scoresheet
	if err := json.Unmarshal([]byte(blackSheet), &sc); err != nil {
		t.Fatal(err)
	}
	lines, err := ReadScoresheet(sc, kriegspiel.Wild16())
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) chess.Square { q, _ := chess.ParseSquare(s); return q }
	e5d4, _ := chess.ParseMove("e5d4")
	d7d5, _ := chess.ParseMove("d7d5")
	none := kriegspiel.Answer{Capture: chess.NoSquare, PawnTries: -1}
	want := []Line{
		{Turn: 1, Color: chess.White, Answer: kriegspiel.Answer{Verdict: kriegspiel.Captured, Capture: sq("e5"), Captured: kriegspiel.CapturedPawn,
			Checks: [2]kriegspiel.Check{kriegspiel.CheckShortDiagonal}, PawnTries: 2}},
		{Turn: 1, Color: chess.Black, Status: true, PawnTries: 2, Answer: none},
		{Turn: 1, Color: chess.Black, Question: kriegspiel.TryMove(d7d5), Answer: kriegspiel.Answer{Verdict: kriegspiel.Illegal, Capture: chess.NoSquare, PawnTries: -1}},
		{Turn: 1, Color: chess.Black, Question: kriegspiel.TryMove(e5d4), Answer: kriegspiel.Answer{Verdict: kriegspiel.Captured, Capture: sq("d4"),
			Captured: kriegspiel.CapturedPiece, Checks: [2]kriegspiel.Check{kriegspiel.CheckFile, kriegspiel.CheckKnight}, PawnTries: 0}},
		{Turn: 2, Color: chess.White, Status: true, PawnTries: 0, Answer: none},
		{Turn: 2, Color: chess.White, Answer: kriegspiel.Answer{Verdict: kriegspiel.Moved, Capture: chess.NoSquare, End: kriegspiel.CheckmateWhiteWins, PawnTries: -1}},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n got %+v\nwant %+v", i, lines[i], want[i])
		}
	}
}

// TestReadScoresheetRefusesUnknownWords: words we do not know are an error
// that names them, never a guess.
func TestReadScoresheetRefusesUnknownWords(t *testing.T) {
	for _, bad := range []struct{ sheet, want string }{
		{strings.ReplaceAll(blackSheet, "Pawn captured at E5", "Pawn captured at Z9"), "capture square"},
		{strings.ReplaceAll(blackSheet, "Check on short diagonal", "Check on the moon"), "unknown announcement"},
		{strings.ReplaceAll(blackSheet, `"2 pawn tries"]`, `"lots of pawn tries"]`), "unknown status"},
		{strings.ReplaceAll(blackSheet, `"Check on file", "Check by knight"`, `"Check on file"`), "two directions"},
		{strings.ReplaceAll(blackSheet, `"move_uci": "d7d5"`, `"move_uci": "d7"`), "our own move"},
		{strings.ReplaceAll(blackSheet, `"viewer_color": "black"`, `"viewer_color": "green"`), "viewer"},
	} {
		var sc Scoresheet
		if err := json.Unmarshal([]byte(bad.sheet), &sc); err != nil {
			t.Fatal(err)
		}
		_, err := ReadScoresheet(sc, kriegspiel.Wild16())
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("want an error about %q, got %v", bad.want, err)
		}
	}
}

// TestWriteEntryReadsBack: every answer our referee can give, written in
// the server's words, reads back as itself.
func TestWriteEntryReadsBack(t *testing.T) {
	rules := kriegspiel.Wild16()
	g := kriegspiel.NewGame(rules)
	n := 0
	for ply := 0; ply < 200 && !g.Over(); ply++ {
		qs := g.Questions(nil)
		for _, q := range qs {
			a, err := g.Ask(q)
			if err != nil {
				t.Fatal(err)
			}
			if a.Verdict == kriegspiel.Impossible {
				continue
			}
			e := WriteEntry(q, a, true)
			l, err := readEntry(e, chess.White, chess.White, rules)
			if err != nil {
				t.Fatalf("%v: %v", a, err)
			}
			want := a
			want.PawnTries = -1 // carried by the status line, not the entry
			if l.Answer != want || l.Question != q {
				t.Fatalf("%v %v read back as %v %v", q, a, l.Question, l.Answer)
			}
			n++
			if a.Verdict.Done() {
				if a.PawnTries >= 0 {
					st, err := readEntry(WriteStatus(a.PawnTries, false), chess.Black, chess.White, rules)
					if err != nil || st.PawnTries != a.PawnTries {
						t.Fatalf("status %d read back as %d (%v)", a.PawnTries, st.PawnTries, err)
					}
				}
				break
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d answers checked", n)
	}
}

// FuzzReadScoresheet: any JSON either reads or gets an error; never a panic.
func FuzzReadScoresheet(f *testing.F) {
	f.Add([]byte(blackSheet))
	f.Add([]byte(`{"viewer_color":"white","turns":[{"turn":1,"white":[{"kind":"status","messages":[]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sc Scoresheet
		if json.Unmarshal(data, &sc) != nil {
			return
		}
		for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.BerkeleyAny()} {
			ReadScoresheet(sc, rules)
		}
	})
}
