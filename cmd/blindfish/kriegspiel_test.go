package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestMatchKriegspiel plays `match --game kriegspiel` (the sampling player
// on the embedded evaluator against random), checks its pages (the folder's
// index and --html: the table, the plots, every game linked to its record
// and offered to the viewer), checks its records with `replay --check`,
// follows them with `belief --game kriegspiel` (the exact belief holds the
// true board at every turn it follows), merges its folder, and makes a
// game's viewer page.
func TestMatchKriegspiel(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(t.TempDir(), "match.html")
	bot := "sampling:eval=embedded,depth=1,samples=8"
	code, out, errs := runBlindfish(t, context.Background(), "match", "--game", "kriegspiel", "--ruleset", "berkeley_any",
		"--white", bot, "--black", "random", "--games", "2", "--clock", "60+1", "--turn-limit", "80", "--out", dir, "--html", page)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "kriegspiel/berkeley_any, clock 60+1 s") || !strings.Contains(out, "\npeak memory: ") {
		t.Errorf("header:\n%s", out)
	}
	// The scores, the score over the games and the time per turn.
	first := "sampling_eval=embedded_depth=1_samples=8-random-1-000.json"
	for p, html := range matchPages(t, out, 3, first, filepath.Join(dir, "index.html"), page) {
		if !strings.Contains(html, "blindfish view") || strings.Contains(html, "The viewer draws RBC") {
			t.Errorf("%s: the Kriegspiel games are not offered to the viewer", p)
		}
	}
	row := tableRow(t, out, "both")
	if row[3] != "2" || row[colIndex(t, out, "errors")] != "0/0" || row[colIndex(t, out, "time losses")] != "0/0" {
		t.Errorf("row %v", row)
	}
	code, out, errs = runBlindfish(t, context.Background(), "replay", "--check", dir)
	if code != 0 || !strings.Contains(out, "2/2 games reproduced") || !strings.Contains(out, "ok, kriegspiel/berkeley_any") {
		t.Errorf("replay: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runBlindfish(t, context.Background(), "belief", "--game", "kriegspiel", "--view", "exact,hybrid", "--size", "50", "--limit", "100000", dir)
	if code != 0 || !strings.Contains(out, "exact: 4 games followed") || !strings.Contains(out, "the true board held at 100.0%") ||
		!strings.Contains(out, "hybrid: 4 games followed") {
		t.Errorf("belief: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runBlindfish(t, context.Background(), "match", "--merge", dir)
	if code != 0 || !strings.Contains(out, "kriegspiel/berkeley_any 60+1") {
		t.Errorf("merge: exit %d\n%s%s", code, out, errs)
	}
	// The viewer takes the Kriegspiel record as it is (no flag says which
	// game it is) and writes the page where the index looks for it.
	code, out, errs = runBlindfish(t, context.Background(), "view", "--color", "white", "--max-boards", "2000", filepath.Join(dir, first))
	viewer := filepath.Join(dir, strings.TrimSuffix(first, ".json")+".html")
	if code != 0 || !strings.HasPrefix(out, viewer+": ") || !strings.Contains(readPage(t, viewer), `"game":"kriegspiel"`) {
		t.Errorf("view: exit %d\n%s%s", code, out, errs)
	}
}

// TestMatchKriegspielUsage: an unknown game, ruleset or Kriegspiel bot is a
// usage error that says what is wanted.
func TestMatchKriegspielUsage(t *testing.T) {
	cases := map[string][]string{
		"want rbc or kriegspiel": {"--game", "chess", "--white", "random", "--black", "random"},
		"unknown ruleset":        {"--game", "kriegspiel", "--ruleset", "english", "--white", "random", "--black", "random"},
		"unknown kriegspiel bot": {"--game", "kriegspiel", "--white", "trout", "--black", "random"},
		"sampling has samples":   {"--game", "kriegspiel", "--white", "sampling:speed=3", "--black", "random"},
	}
	for want, args := range cases {
		code, _, errs := runBlindfish(t, context.Background(), append([]string{"match", "--out", ""}, args...)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
