package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/match"
)

// colIndex returns the column of a header name in a table's first line.
func colIndex(t *testing.T, out, name string) int {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "bot ") {
			// Headers may contain single spaces; columns are two apart.
			cols := strings.Split(line, "  ")
			i := 0
			for _, c := range cols {
				if c = strings.TrimSpace(c); c == "" {
					continue
				}
				if c == name {
					return i
				}
				i++
			}
		}
	}
	t.Fatalf("no column %q in\n%s", name, out)
	return -1
}

// TestMatchAlternatesByDefaultAndLogsResults: two different bots alternate
// colours without --alternate, every game gets a results-log line, and the
// table shows each colour and both.
func TestMatchAlternatesByDefaultAndLogsResults(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "attacker", "--black", "random",
		"--games", "6", "--clock", "10+0.1", "--seed", "5", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	for _, as := range []string{"white", "black", "both"} {
		if row := tableRow(t, out, as); as == "both" && row[3] != "6" {
			t.Errorf("both row: %v", row)
		}
	}
	lines, err := match.ReadLog(filepath.Join(dir, match.LogName))
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 6 {
		t.Fatalf("%d result lines, want 6", len(lines))
	}
	for _, r := range lines {
		if r.Bot() != "attacker" || r.Clock != "10+0.1" || !r.Timed || r.Used[0] <= 0 {
			t.Errorf("result line %+v", r)
		}
		if _, err := os.Stat(filepath.Join(dir, r.Record)); err != nil {
			t.Errorf("record of a result line: %v", err)
		}
	}
	// Self-play does not alternate.
	code, out, _ = runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "random", "--games", "2", "--out", "")
	if code != 0 || strings.Contains(out, "both") {
		t.Errorf("self-play alternated (exit %d):\n%s", code, out)
	}
}

// TestMatchMergeSumsFolders: merging two match folders gives the sums of
// their tables; a folder of bare harness histories merges too, with games of
// either colour order in one pairing.
func TestMatchMergeSumsFolders(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	var wins, games int
	for i, dir := range []string{a, b} {
		code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
			"--games", "4", "--clock", "10+0.1", "--seed", strconv.Itoa(20+i), "--out", dir)
		if code != 0 {
			t.Fatalf("exit %d\n%s%s", code, out, errs)
		}
		row := tableRow(t, out, "both")
		w, _ := strconv.Atoi(row[4])
		wins += w
		games += 4
	}
	code, out, errs := runBlindfish(t, context.Background(), "match", "--merge", a, b, a)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.HasPrefix(out, "merged 8 games from 3 folders\n") {
		t.Errorf("header: %s", out)
	}
	row := tableRow(t, out, "both")
	// With the clock column: bot opponent as clock games wins …
	if row[3] != "10+0.1" || row[4] != strconv.Itoa(games) || row[5] != strconv.Itoa(wins) {
		t.Errorf("merged both row %v, want %d games %d wins\n%s", row, games, wins, out)
	}
	if i := colIndex(t, out, "time/turn bot"); row[i] == "-" {
		t.Errorf("merged times missing: %v", row)
	}

	// Harness histories: no results log, so no times and clock "?"; the
	// trout_bot/random_bot games of both colour orders form one pairing.
	hist := "../../testdata/histories"
	code, out, errs = runBlindfish(t, context.Background(), "match", "--merge", hist)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(hist, "*.json"))
	if !strings.Contains(out, "merged "+strconv.Itoa(len(files))+" games from 1 folder ("+strconv.Itoa(len(files))+" from records") {
		t.Errorf("header: %s", out)
	}
	pairs := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 4 && f[2] == "both" && (f[0] == "TroutBot" && f[1] == "RandomBot" || f[0] == "RandomBot" && f[1] == "TroutBot") {
			pairs++
			if n, _ := strconv.Atoi(f[4]); n != 14 {
				t.Errorf("Trout–Random games: %s, want 14 (7 + 7)", f[4])
			}
		}
	}
	if pairs != 1 {
		t.Errorf("%d Trout–Random 'both' rows, want 1:\n%s", pairs, out)
	}

	if code, _, errs := runBlindfish(t, context.Background(), "match", "--merge"); code != 2 || !strings.Contains(errs, "at least one folder") {
		t.Errorf("merge without folders: exit %d %q", code, errs)
	}
	if code, _, _ := runBlindfish(t, context.Background(), "match", "--merge", t.TempDir()); code != 1 {
		t.Errorf("merge of an empty folder: exit %d", code)
	}
}

// TestMatchAllBaselinesShortClock: every pairing of the baselines, Trout
// included (with a short Stockfish budget), finishes cleanly at a short
// clock: no losses on time, no errors, only king captures and move limits.
func TestMatchAllBaselinesShortClock(t *testing.T) {
	bots := []string{"random", "attacker"}
	if _, ok := stockfishtest.Optional(t); ok {
		bots = append(bots, "trout:movetime=40ms")
	} else {
		t.Log("Trout left out")
	}
	for i, x := range bots {
		for _, y := range bots[i:] {
			games := "2"
			if x == y {
				games = "1"
			}
			dir := t.TempDir()
			code, out, errs := runBlindfish(t, context.Background(), "match", "--white", x, "--black", y,
				"--games", games, "--clock", "30+0.5", "--concurrency", "2", "--out", dir)
			if code != 0 {
				t.Fatalf("%s vs %s: exit %d\n%s%s", x, y, code, out, errs)
			}
			as := "both"
			if x == y {
				as = "white"
			}
			row := tableRow(t, out, as)
			if tl, e := row[colIndex(t, out, "time losses")], row[colIndex(t, out, "errors")]; tl != "0/0" || e != "0/0" {
				t.Errorf("%s vs %s: time losses %s, errors %s\n%s", x, y, tl, e, out)
			}
			for _, r := range strings.Split(strings.Join(row[colIndex(t, out, "end reasons"):], " "), ", ") {
				if !strings.HasPrefix(r, "KING_CAPTURE") && !strings.HasPrefix(r, "MOVE_LIMIT") {
					t.Errorf("%s vs %s: ended by %s", x, y, r)
				}
			}
		}
	}
}
