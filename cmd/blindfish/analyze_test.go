package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestAnalyzeCommand: one row per turn shown, the agreement line, and clear
// usage errors.
func TestAnalyzeCommand(t *testing.T) {
	const game = "../../testdata/histories/attacker_bot-random_bot-3-000.json"
	ctx := context.Background()
	code, out, errs := runBlindfish(t, ctx, "analyze", "--bot", "random", "--color", "black", "--from", "2", "--to", "3", game)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := 0
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "1" || f[0] == "2" || f[0] == "3" || f[0] == "4") {
			rows++
			if f[0] == "1" || f[0] == "4" {
				t.Errorf("turn %s shown outside --from 2 --to 3", f[0])
			}
		}
	}
	if rows != 2 || !strings.Contains(out, "agreement over 2 turns") {
		t.Errorf("want 2 rows and the agreement line:\n%s", out)
	}
	for _, args := range [][]string{
		{"analyze", game},                                       // no colour
		{"analyze", "--color", "red", game},                     // bad colour
		{"analyze", "--color", "white", "--bot", "nobot", game}, // unknown bot
		{"analyze", "--color", "white"},                         // no game
	} {
		if code, _, _ := runBlindfish(t, ctx, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runBlindfish(t, ctx, "analyze", "--color", "white", "../../testdata/histories/missing.json"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}

// TestAnalyzeSwings: with --swings, a row a move with the score after it and
// its change; the move that left Black's king to be captured is marked, and
// the summary line counts the marks.
func TestAnalyzeSwings(t *testing.T) {
	const game = "../../testdata/histories/attacker_bot-random_bot-3-000.json"
	ctx := context.Background()
	code, out, errs := runBlindfish(t, ctx, "analyze", "--swings", "--engine", "embedded", "--depth", "1", "--swing", "300", game)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var rows []string
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) >= 8 && (f[1] == "white" || f[1] == "black") {
			rows = append(rows, line)
		}
	}
	if len(rows) != 7 || !strings.HasSuffix(strings.TrimSpace(rows[5]), "*") {
		t.Fatalf("want 7 rows, the 6th (Black's h7h5, its king left en prise) marked:\n%s", out)
	}
	marks := 0
	for _, r := range rows {
		if strings.HasSuffix(strings.TrimSpace(r), "*") {
			marks++
		}
	}
	if want := fmt.Sprintf("7 moves scored, %d changed the score by 300 cp or more", marks); !strings.Contains(out, want) {
		t.Errorf("no summary line %q:\n%s", want, out)
	}
	for _, args := range [][]string{
		{"analyze", "--swings", "--swing", "0", game},
		{"analyze", "--swings", "--engine", "nothing", game},
	} {
		if code, _, _ := runBlindfish(t, ctx, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestAnalyzeInvisible: an invisible-chess record, told by its content,
// gets the invisible table through the table of games: a row per turn
// shown with the belief's size and entropy, and a bot of another game is a
// usage error.
func TestAnalyzeInvisible(t *testing.T) {
	const game = "../../testdata/invisible/games.tar.gz:1B-1N/advisor-random-6-000.json"
	ctx := context.Background()
	code, out, errs := runBlindfish(t, ctx, "analyze", "--bot", "advisor", "--color", "white", "--from", "2", "--to", "4", game)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := 0
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) >= 6 && (f[0] == "2" || f[0] == "3" || f[0] == "4") {
			rows++
		}
	}
	if rows != 3 || !strings.Contains(out, "placements  entropy") || !strings.Contains(out, "first try agrees:") {
		t.Errorf("want 3 rows, the belief's columns and the agreement line:\n%s", out)
	}
	if code, _, _ := runBlindfish(t, ctx, "analyze", "--bot", "attacker", "--color", "white", game); code != 2 {
		t.Errorf("an RBC bot on an invisible record: exit %d, want 2", code)
	}
}
