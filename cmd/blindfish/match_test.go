package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// tableRow returns the fields of the table row for colour as ("white", …).
func tableRow(t *testing.T, out, as string) []string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 3 && f[2] == as && f[0] != "bot" {
			return f
		}
	}
	t.Fatalf("no %q row in:\n%s", as, out)
	return nil
}

// TestMatchRandomVsAttackerTable plays ten games at a short clock and checks
// the saved records and the table against each other.
func TestMatchRandomVsAttackerTable(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
		"--games", "10", "--clock", "5+0.1", "--seed", "3", "--out", dir, "--concurrency", "2", "--alternate=false")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if errs != "" {
		t.Errorf("stderr not empty (no terminal, no progress bar): %q", errs)
	}
	var wins, draws, losses, turns int
	reasons := map[string]int{}
	for i := range 10 {
		name := filepath.Join(dir, fmt.Sprintf("random-attacker-3-%03d.json", i))
		h, err := record.LoadHistoryFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if h.WhiteName != "random" || h.BlackName != "attacker" {
			t.Errorf("%s: names %q %q", name, h.WhiteName, h.BlackName)
		}
		switch {
		case !h.Outcome.HasWinner:
			draws++
		case h.Outcome.Winner == chess.White:
			wins++
		default:
			losses++
		}
		reasons[h.Outcome.Reason.String()]++
		turns += len(h.Turns[chess.White]) + len(h.Turns[chess.Black])
		if h.Outcome.Reason != rbc.KingCapture && h.Outcome.Reason != rbc.MoveLimit {
			t.Errorf("%s: %v", name, h.Outcome)
		}
	}
	if !strings.HasPrefix(out, "random vs attacker: 10 games, clock 5+0.1 s, seed 3, records in "+dir+"\n") {
		t.Errorf("header: %s", out)
	}
	row := tableRow(t, out, "white")
	score := 100 * (float64(wins) + float64(draws)/2) / 10
	want := []string{"random", "attacker", "white", "10", strconv.Itoa(wins), strconv.Itoa(draws), strconv.Itoa(losses),
		strconv.FormatFloat(score, 'f', 1, 64) + "%"}
	e := match.EstimateElo(wins, draws, losses)
	want = append(want, match.FormatElo(e.Elo), e.Interval(), strconv.FormatFloat(float64(turns)/10, 'f', 1, 64))
	for i, w := range want {
		if row[i] != w {
			t.Errorf("column %d: %q, want %q\n%s", i, row[i], w, out)
		}
	}
	var rs []string
	for _, r := range []string{"KING_CAPTURE", "MOVE_LIMIT"} {
		if reasons[r] > 0 {
			rs = append(rs, r+" "+strconv.Itoa(reasons[r]))
		}
	}
	if got := strings.Join(row[16:], " "); got != strings.Join(rs, ", ") {
		t.Errorf("reasons %q, want %q", got, strings.Join(rs, ", "))
	}
	if row[15] != "-/-" {
		t.Errorf("degraded %q, want -/- (the baselines report none)", row[15])
	}
	if strings.Contains(out, "both") {
		t.Errorf("a 'both' row without --alternate")
	}
}

// TestMatchSameSeedSameGames: a seed replays its games exactly.
func TestMatchSameSeedSameGames(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "attacker", "--black", "random",
			"--games", "4", "--seed", "11", "--out", dir, "--concurrency", "2", "--alternate=false"); code != 0 {
			t.Fatalf("exit %d %s %s", code, out, errs)
		}
	}
	for i := range 4 {
		name := fmt.Sprintf("attacker-random-11-%03d.json", i)
		x, _ := os.ReadFile(filepath.Join(a, name))
		y, _ := os.ReadFile(filepath.Join(b, name))
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s differs between runs with one seed", name)
		}
	}
}

// TestMatchAlternateSwapsColours: every other game swaps colours; the table
// has a row per colour and one for both.
func TestMatchAlternateSwapsColours(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "attacker",
		"--games", "4", "--alternate", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	for _, name := range []string{"random-attacker-1-000.json", "attacker-random-1-001.json", "random-attacker-1-002.json", "attacker-random-1-003.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	w, b, both := tableRow(t, out, "white"), tableRow(t, out, "black"), tableRow(t, out, "both")
	if w[3] != "2" || b[3] != "2" || both[3] != "4" {
		t.Errorf("games per row %s %s %s", w[3], b[3], both[3])
	}
	for col := 4; col <= 6; col++ {
		x, _ := strconv.Atoi(w[col])
		y, _ := strconv.Atoi(b[col])
		z, _ := strconv.Atoi(both[col])
		if x+y != z {
			t.Errorf("column %d: %d + %d != %d", col, x, y, z)
		}
	}
}

// TestMatchInterruptKeepsFinishedGames: a cancelled match stops, prints the
// table of the games it finished (the records on disk) and exits 1.
func TestMatchInterruptKeepsFinishedGames(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) >= 3 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	code, out, errs := runBlindfish(t, ctx, "match", "--white", "random", "--black", "random", "--games", "5000", "--out", dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if code != 1 || !strings.Contains(errs, fmt.Sprintf("interrupted after %d of 5000 games", len(files))) {
		t.Errorf("exit %d, stderr %q, %d records", code, errs, len(files))
	}
	if row := tableRow(t, out, "white"); row[3] != strconv.Itoa(len(files)) {
		t.Errorf("table counts %s games, %d records saved\n%s", row[3], len(files), out)
	}
	if !strings.Contains(out, fmt.Sprintf("%d of 5000 games finished", len(files))) {
		t.Errorf("header: %s", out)
	}
}

// TestMatchCommandLineErrors: bad flags are usage errors (exit 2) that say why.
func TestMatchCommandLineErrors(t *testing.T) {
	cases := map[string][]string{
		"--white and --black are required":    {"match", "--white", "random"},
		`unknown bot "trout2" (known: random`: {"match", "--white", "trout2", "--black", "random"},
		`bad --clock "abc"`:                   {"match", "--white", "random", "--black", "random", "--clock", "abc"},
		"--games and --concurrency":           {"match", "--white", "random", "--black", "random", "--games", "0"},
	}
	for want, args := range cases {
		if code, _, errs := runBlindfish(t, context.Background(), args...); code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// withoutTimes returns the table rows of out (header line dropped) without
// the time/turn columns, which depend on the machine's speed.
func withoutTimes(t *testing.T, out string) []string {
	t.Helper()
	bot, opp := colIndex(t, out, "time/turn bot"), colIndex(t, out, "time/turn opp")
	var rows []string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[0] == "bot" || f[0] == "merged" {
			continue
		}
		if strings.HasPrefix(line, "SPRT ") {
			rows = append(rows, line)
			continue
		}
		rows = append(rows, strings.Join(append(f[:bot:bot], f[opp+1:]...), " "))
	}
	return rows
}

// TestMatchShardsMergeToOneRun: --shard 0/2 and 1/2 into one folder merge
// into the table and SPRT line of one run, with the same records; a shard
// run again finds its games in the folder and plays none.
func TestMatchShardsMergeToOneRun(t *testing.T) {
	flags := []string{"match", "--white", "random", "--black", "attacker", "--games", "8", "--clock", "60+1", "--seed", "9"}
	one, shards := t.TempDir(), t.TempDir()
	if code, out, errs := runBlindfish(t, context.Background(), append(flags, "--out", one)...); code != 0 {
		t.Fatalf("one run: exit %d\n%s%s", code, out, errs)
	}
	for k := range 2 {
		// An SPRT that would stop one run after a pair or two: a shard plays
		// its games.
		code, out, errs := runBlindfish(t, context.Background(), append(flags, "--out", shards, "--shard", fmt.Sprintf("%d/2", k),
			"--sprt", "-400,400,0.45,0.45")...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d\n%s%s", k, code, out, errs)
		}
		want := fmt.Sprintf("random vs attacker: 4 games (shard %d/2 of 8 games), clock 60+1 s, seed 9, records in %s\n", k, shards)
		if !strings.HasPrefix(out, want) || !strings.Contains(out, "not tested on one shard") {
			t.Errorf("shard %d printed\n%s\nwant the header\n%s", k, out, want)
		}
	}
	records, _ := filepath.Glob(filepath.Join(one, "*.json"))
	if len(records) != 8 {
		t.Fatalf("%d records in one run", len(records))
	}
	for _, r := range records {
		x, _ := os.ReadFile(r)
		y, err := os.ReadFile(filepath.Join(shards, filepath.Base(r)))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: not the same in the shards' folder (%v)", filepath.Base(r), err)
		}
	}
	_, a, _ := runBlindfish(t, context.Background(), "match", "--merge", "--sprt", "0,10", one)
	code, b, errs := runBlindfish(t, context.Background(), "match", "--merge", "--sprt", "0,10", shards)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, b, errs)
	}
	if x, y := withoutTimes(t, a), withoutTimes(t, b); strings.Join(x, "\n") != strings.Join(y, "\n") || len(x) != 4 {
		t.Errorf("one run merged:\n%s\nshards merged:\n%s", a, b)
	}

	code, out, errs := runBlindfish(t, context.Background(), append(flags, "--out", shards, "--shard", "1/2")...)
	if code != 0 || !strings.Contains(out, "4 games (shard 1/2 of 8 games; 4 already in "+shards+")") {
		t.Errorf("shard 1/2 again: exit %d\n%s%s", code, out, errs)
	}
	lines, err := match.ReadLog(filepath.Join(shards, "results.shard-1-of-2.jsonl"))
	if err != nil || len(lines) != 4 {
		t.Errorf("shard 1/2's log: %d lines, %v", len(lines), err)
	}

	for want, args := range map[string][]string{
		"--shard: shard \"2/2\"": {"--shard", "2/2", "--out", shards},
		"--shard needs --out":    {"--shard", "0/2", "--out", ""},
	} {
		if code, _, errs := runBlindfish(t, context.Background(), append(flags, args...)...); code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}
