package view

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// scriptedGame plays questions under wild16 (each "e2e4", "any") and
// returns the record, named. The default script has an illegal try heard
// by its asker only, a pawn capture with its kind, pawn tries announced, a
// recapture by a queen and a check along the long diagonal:
// 1. e4 e5 2. (e5?) d4 exd4 3. Qxd4 Bb4+.
func scriptedGame(t testing.TB, questions ...string) *kriegspiel.Record {
	t.Helper()
	if len(questions) == 0 {
		questions = []string{"e2e4", "e7e5", "e4e5", "d2d4", "e5d4", "d1d4", "f8b4"}
	}
	g := kriegspiel.NewGame(kriegspiel.Wild16())
	for _, s := range questions {
		q, err := kriegspiel.ParseQuestion(s)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Ask(q); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	rec := kriegspiel.NewRecord(g)
	rec.White, rec.Black = "scripted-w", "scripted-b"
	return rec
}

// TestKriegspielPage checks the data of a Kriegspiel page against a game
// whose every answer is known: the true board and every answer in words,
// and each side's exact belief counted square by square.
func TestKriegspielPage(t *testing.T) {
	rec := scriptedGame(t)
	p, err := BuildKriegspiel(context.Background(), rec, Options{Colors: both, Source: "g.json"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteKriegspiel(&buf, p); err != nil {
		t.Fatal(err)
	}
	p = pageData[KriegspielPage](t, buf.Bytes()) // what the page's script reads
	if p.Game != "kriegspiel" || p.Ruleset != "wild16" || p.White != "scripted-w" || p.Side != "" || p.Belief != "exact" {
		t.Errorf("header: %+v", p)
	}
	if len(p.Turns) != 6 {
		t.Fatalf("%d turns, want 6", len(p.Turns))
	}
	type want struct {
		color     string
		turn      int
		move      string
		pawnTries int
		tries     []KriegspielTry
	}
	wants := []want{
		{"white", 0, "e2e4", 0, []KriegspielTry{{Q: "e2e4", Verdict: "REGULAR_MOVE", Says: "legal; black's pawn tries: 0", Public: true}}},
		{"black", 0, "e7e5", 0, []KriegspielTry{{Q: "e7e5", Verdict: "REGULAR_MOVE", Says: "legal; white's pawn tries: 0", Public: true}}},
		{"white", 1, "d2d4", 0, []KriegspielTry{
			{Q: "e4e5", Verdict: "ILLEGAL_MOVE", Says: "illegal"},
			{Q: "d2d4", Verdict: "REGULAR_MOVE", Says: "legal; black's pawn tries: 1", Public: true}}},
		{"black", 1, "e5d4", 1, []KriegspielTry{{Q: "e5d4", Verdict: "CAPTURE_DONE", Says: "legal, captures on d4 (a pawn); white's pawn tries: 0", Capture: "d4", Public: true}}},
		{"white", 2, "d1d4", 0, []KriegspielTry{{Q: "d1d4", Verdict: "CAPTURE_DONE", Says: "legal, captures on d4 (a pawn); black's pawn tries: 0", Capture: "d4", Public: true}}},
		{"black", 2, "f8b4", 0, []KriegspielTry{{Q: "f8b4", Verdict: "REGULAR_MOVE", Says: "legal, check on the long diagonal; white's pawn tries: 0",
			Check: "check on the long diagonal", Public: true}}},
	}
	for i, w := range wants {
		got := p.Turns[i]
		if got.Color != w.color || got.Turn != w.turn || got.Move != w.move || got.PawnTries != w.pawnTries {
			t.Errorf("turn %d: %s %d move %q tries %d, want %s %d %q %d", i, got.Color, got.Turn, got.Move, got.PawnTries, w.color, w.turn, w.move, w.pawnTries)
		}
		if len(got.Tries) != len(w.tries) {
			t.Errorf("turn %d: tries %+v, want %+v", i, got.Tries, w.tries)
			continue
		}
		for j := range w.tries {
			if got.Tries[j] != w.tries[j] {
				t.Errorf("turn %d, try %d: %+v, want %+v", i, j, got.Tries[j], w.tries[j])
			}
		}
	}
	if p.Turns[0].Before != chess.StartFEN || p.Turns[1].Before != rec.Turns[0].FENAfter || p.Final != rec.FinalFEN {
		t.Errorf("boards: first %q, second %q, final %q", p.Turns[0].Before, p.Turns[1].Before, p.Final)
	}

	// The beliefs: one per frame, all followed, each holding the truth.
	for _, side := range []string{"white", "black"} {
		frames := p.Beliefs[side]
		if len(frames) != 7 {
			t.Fatalf("%s: %d belief frames, want 7", side, len(frames))
		}
		for k, b := range frames {
			if b == nil || !b.Exact || !b.Truth || len(b.Counts) != 64 || b.Boards < 1 {
				t.Fatalf("%s's belief at frame %d: %+v", side, k+1, b)
			}
			for sq, n := range b.Counts {
				if n < 0 || n > b.Boards {
					t.Errorf("%s, frame %d: %d of %d boards on %v", side, k+1, n, b.Boards, chess.Square(sq))
				}
			}
		}
	}
	if len(p.Stopped) != 0 {
		t.Errorf("stopped: %v", p.Stopped)
	}
	// At the start, the opponent's men on their squares in the one board.
	start := p.Beliefs["white"][0]
	for sq := range 64 {
		want := 0
		if sq >= 48 {
			want = 1
		}
		if start.Boards != 1 || start.Counts[sq] != want {
			t.Fatalf("white's belief at the start: %d boards, %d on %v, want 1 and %d", start.Boards, start.Counts[sq], chess.Square(sq), want)
		}
	}
	// After White's first move (legal, no pawn try for Black): each of its
	// 20 moves is possible. a2 stays in the 18 that do not move it, a3 is
	// reached by a2a3 and b1a3, e4 by e2e4 only.
	b := p.Beliefs["black"][1]
	for sq, want := range map[string]int{"a2": 18, "a3": 2, "b1": 18, "e2": 18, "e4": 1, "e1": 20, "e5": 0} {
		s, _ := chess.ParseSquare(sq)
		if b.Boards != 20 || b.Counts[s] != want {
			t.Errorf("black's belief after 1. e4: %d boards, %d with a man on %s, want 20 and %d", b.Boards, b.Counts[s], sq, want)
		}
	}
}

// TestKriegspielPageSide: a player's page holds what it knew: its own men
// only, its opponent's answers it heard without the moves they answered,
// and not its opponent's illegal tries under wild16.
func TestKriegspielPageSide(t *testing.T) {
	rec := scriptedGame(t)
	p, err := BuildKriegspiel(context.Background(), rec, Options{Colors: []chess.Color{chess.Black}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Side != "black" || p.Beliefs["black"] == nil || p.Beliefs["white"] != nil {
		t.Fatalf("side %q, beliefs %v", p.Side, p.Beliefs)
	}
	for i, turn := range append(p.Turns, KriegspielTurn{Before: p.Final}) {
		placement, _, _ := strings.Cut(turn.Before, " ")
		if strings.ContainsAny(placement, "PNBRQK") || !strings.ContainsAny(placement, "k") {
			t.Errorf("frame %d: black's board %q", i+1, turn.Before)
		}
		if turn.Color != "white" {
			continue
		}
		if turn.Move != "" {
			t.Errorf("turn %d: White's move %q shown to Black", i, turn.Move)
		}
		for _, try := range turn.Tries {
			if try.Q != "" || !try.Public {
				t.Errorf("turn %d: black heard %+v", i, try)
			}
		}
	}
	if n := len(p.Turns[2].Tries); n != 1 || p.Turns[2].Tries[0].Says != "legal; black's pawn tries: 1" {
		t.Errorf("White's second turn as Black heard it: %+v", p.Turns[2].Tries)
	}
	if n := len(p.Turns[4].Tries); n != 1 || p.Turns[4].Tries[0].Capture != "d4" {
		t.Errorf("White's capture as Black heard it: %+v", p.Turns[4].Tries)
	}
	if p.Turns[3].Move != "e5d4" {
		t.Errorf("Black's own move %q", p.Turns[3].Move)
	}
}

// TestKriegspielPageLimit: a belief that would pass the limit is not
// followed further, and the page says so instead of drawing a wrong one.
func TestKriegspielPageLimit(t *testing.T) {
	rec := scriptedGame(t)
	p, err := BuildKriegspiel(context.Background(), rec, Options{Colors: []chess.Color{chess.Black}, MaxBoards: 30})
	if err != nil {
		t.Fatal(err)
	}
	frames := p.Beliefs["black"]
	// 20 boards after White's first move, 20 after Black's; White's second
	// (a move after a refused try) leaves 41, past 30.
	for k, b := range frames {
		if (k < 3) != (b != nil) {
			t.Errorf("frame %d: belief %+v", k+1, b)
		}
	}
	if note := p.Stopped["black"]; note != "not followed from frame 4 on: the belief would pass 30 boards (view --max-boards)" {
		t.Errorf("note %q", note)
	}
	// A game that ends in the middle of a turn: the last frame has none.
	rec = scriptedGame(t, "e2e4", "e7e5", "e4e5")
	rec.Result = kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: chess.Black, HasWinner: true}
	p, err = BuildKriegspiel(context.Background(), rec, Options{Colors: both})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Turns) != 3 || p.Beliefs["white"][2] == nil || p.Beliefs["white"][3] != nil || p.Turns[2].Move != "" ||
		!strings.Contains(p.Stopped["white"], "frame 4: the game ended") {
		t.Errorf("unfinished turn: %d turns, beliefs %v, stopped %v", len(p.Turns), p.Beliefs["white"], p.Stopped)
	}
}

// TestKriegspielPageRefuses: options the Kriegspiel page cannot honour are
// errors, not a page that silently ignores them.
func TestKriegspielPageRefuses(t *testing.T) {
	rec := scriptedGame(t)
	if _, err := BuildKriegspiel(context.Background(), rec, Options{Colors: both, Sampler: "particle"}); err == nil {
		t.Error("the particle belief (RBC only) was accepted")
	}
	if _, err := BuildKriegspiel(context.Background(), rec, Options{Bot: &BotOptions{Spec: "x"}}); err == nil {
		t.Error("a bot was accepted")
	}
}

// TestKriegspielSampledPage: a Kriegspiel page from a sampling belief
// counts its sample.
func TestKriegspielSampledPage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.json")
	if err := ksrecord.SaveFile(path, scriptedGame(t)); err != nil {
		t.Fatal(err)
	}
	rec, err := record.LoadRecord(path)
	if err != nil {
		t.Fatal(err)
	}
	kr, err := ksrecord.Read(bytes.NewReader(rec.Data))
	if err != nil || len(kr.Turns) != 6 {
		t.Fatalf("Kriegspiel record: %v", err)
	}
	p, err := BuildKriegspiel(context.Background(), kr, Options{Colors: []chess.Color{chess.White}, Sampler: "aosp", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "g.html")
	if err := WriteKriegspielFile(page, p); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	got := pageData[KriegspielPage](t, html)
	if got.Belief != "aosp" || len(got.Beliefs["white"]) != 7 || got.Beliefs["white"][6] == nil || got.Beliefs["white"][6].Exact {
		t.Errorf("aosp page: belief %q, frames %v", got.Belief, got.Beliefs["white"])
	}
}

// TestKriegspielPageWithoutBoards: a record without the optional boards
// after the moves gives the same page, the boards replayed by the referee.
func TestKriegspielPageWithoutBoards(t *testing.T) {
	rec := scriptedGame(t)
	want, err := BuildKriegspiel(context.Background(), rec, Options{Colors: both})
	if err != nil {
		t.Fatal(err)
	}
	bare := *rec
	bare.Turns = slices.Clone(rec.Turns)
	for i := range bare.Turns {
		bare.Turns[i].FENAfter = ""
	}
	got, err := BuildKriegspiel(context.Background(), &bare, Options{Colors: both})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("without the boards:\n%+v\nwant\n%+v", got, want)
	}
	if rec.Turns[0].FENAfter == "" {
		t.Error("the record given was changed")
	}
}
