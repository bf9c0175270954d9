package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/report"
)

// writeGames writes a results log of games of a against b into a new
// folder: wins, draws and losses of a, colours alternating.
func writeGames(t *testing.T, dir, a, b string, wins, draws, losses int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	log := match.NewLog(dir, match.Shard{})
	game := 0
	add := func(k int, winner string) {
		for range k {
			r := &match.Result{White: a, Black: b, BotColor: chess.White, Clock: "1+0", Game: game}
			if game%2 == 1 {
				r.White, r.Black, r.BotColor = b, a, chess.Black
			}
			switch winner {
			case "a":
				r.Outcome = match.Outcome{Winner: r.BotColor, HasWinner: true, Reason: "KING_CAPTURE"}
			case "b":
				r.Outcome = match.Outcome{Winner: r.BotColor.Other(), HasWinner: true, Reason: "KING_CAPTURE"}
			default:
				r.Outcome = match.Outcome{Reason: "MOVE_LIMIT"}
			}
			if err := log.Append(r.Line(time.Unix(0, 0))); err != nil {
				t.Fatal(err)
			}
			game++
		}
	}
	add(wins, "a")
	add(draws, "")
	add(losses, "b")
}

// ratingRow returns the fields of bot's row in a rating table.
func ratingRow(t *testing.T, out, bot string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 6 && f[1] == bot {
			return f
		}
	}
	t.Fatalf("no row of %s in:\n%s", bot, out)
	return nil
}

// TestMatchMergeRatings runs match --merge --ratings on folders of known
// results: the two-bot closed form, the anchor at 0, a group apart, the page.
func TestMatchMergeRatings(t *testing.T) {
	root := t.TempDir()
	one, two, apart := filepath.Join(root, "one"), filepath.Join(root, "two"), filepath.Join(root, "apart")
	// 75 % over 40 games: 400·log10(3) = +191, ±1.96/(c·sqrt(40·¾·¼)) = 124.
	writeGames(t, one, "x", "random", 25, 10, 5)
	code, out, errs := runBlindfish(t, context.Background(), "match", "--merge", "--ratings", "--prior", "0", one)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if f := ratingRow(t, out, "x"); f[0] != "1" || f[2] != "+191" || f[3] != "124" || f[4] != "40" || f[5] != "75.0%" {
		t.Errorf("x: %v\n%s", f, out)
	}
	if f := ratingRow(t, out, "random"); f[2] != "0" || f[3] != "-" {
		t.Errorf("random: %v", f)
	}
	if !strings.Contains(out, "rating list: 2 bots, 40 games; random = 0") {
		t.Errorf("heading:\n%s", out)
	}

	writeGames(t, two, "y", "x", 20, 0, 20)
	writeGames(t, apart, "p", "q", 9, 0, 1)
	page := filepath.Join(root, "page.html")
	code, out, errs = runBlindfish(t, context.Background(), "match", "--merge", "--ratings", "--anchor", "x", "--html", page, one, two, apart)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if f := ratingRow(t, out, "x"); f[2] != "0" || f[3] != "-" {
		t.Errorf("the anchor x: %v\n%s", f, out)
	}
	if !strings.Contains(out, "not linked to x by any game: 2 bots, 10 games") || !strings.Contains(out, "rating list: 3 bots, 80 games; x = 0") {
		t.Errorf("groups:\n%s", out)
	}
	if f := ratingRow(t, out, "p"); strings.Index(out, "not linked") > strings.Index(out, "  p  ") || !strings.HasPrefix(f[2], "+") {
		t.Errorf("p is not in the group apart, above q:\n%s", out)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), `id="ratings"`) || !strings.Contains(string(html), "Ratings with 95% interval") {
		t.Errorf("the page has no rating list")
	}

	code, _, errs = runBlindfish(t, context.Background(), "match", "--ratings", one)
	if code != 2 || !strings.Contains(errs, "add --merge") {
		t.Errorf("--ratings without --merge: exit %d, %q", code, errs)
	}
}

// TestFolderIndexRatings checks that a folder's index.html shows the rating
// list once the folder's games rate three bots or more.
func TestFolderIndexRatings(t *testing.T) {
	dir := t.TempDir()
	writeGames(t, dir, "x", "random", 6, 2, 2)
	has := func() bool {
		t.Helper()
		index, err := report.WriteFolderIndex(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(index)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(data), `id="ratings"`)
	}
	if has() {
		t.Errorf("two bots: the page has a rating list")
	}
	writeGames(t, dir, "y", "x", 3, 0, 3)
	if !has() {
		t.Errorf("three bots: the page has no rating list")
	}
}
