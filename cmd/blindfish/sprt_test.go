package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/match"
)

// sprtPart returns what follows "pairs " in the SPRT line of out.
func sprtPart(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "SPRT ") {
			if _, rest, ok := strings.Cut(line, " pairs "); ok {
				return rest
			}
		}
	}
	t.Fatalf("no SPRT line with pairs in:\n%s", out)
	return ""
}

// TestMatchSPRTStopsEarly: attacker against random passes 0,100 long before
// 200 games; the match stops, counts and saves every finished game, and
// merging its folder gives the same SPRT line.
func TestMatchSPRTStopsEarly(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "attacker", "--black", "random",
		"--games", "200", "--clock", "5+0.1", "--seed", "7", "--concurrency", "2", "--sprt", "0,100", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "(of at most 200: stopped by the SPRT)") {
		t.Errorf("header:\n%s", out)
	}
	line := sprtPart(t, out)
	if !strings.Contains(line, "(-2.94, 2.94) H1 accepted") {
		t.Errorf("SPRT line: %s", line)
	}
	f := strings.Fields(line) // N [a b c d e] LLR x (lo, hi) H1 accepted ...
	llr, err := strconv.ParseFloat(f[7], 64)
	if err != nil || llr < 2.94 {
		t.Errorf("LLR %q in %s", f[7], line)
	}
	games, _ := strconv.Atoi(tableRow(t, out, "both")[3])
	records, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	lines, err := match.ReadLog(filepath.Join(dir, match.LogName))
	if err != nil {
		t.Fatal(err)
	}
	if games >= 200 || games != len(records) || games != len(lines) {
		t.Errorf("%d games in the table, %d records, %d log lines", games, len(records), len(lines))
	}
	pairs, _ := strconv.Atoi(f[0])
	if 2*pairs > games || 2*pairs < games-2 {
		t.Errorf("%d pairs of %d games", pairs, games)
	}

	code, merged, errs := runBlindfish(t, context.Background(), "match", "--merge", "--sprt", "0,100", dir)
	if code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, merged, errs)
	}
	if !strings.Contains(merged, "SPRT elo0=0 elo1=100 alpha=0.05 beta=0.05: attacker vs random at 5+0.1: pairs ") {
		t.Errorf("merged SPRT line:\n%s", merged)
	}
	if got := sprtPart(t, merged); got != line {
		t.Errorf("merged SPRT line %q, match printed %q", got, line)
	}
}

// TestMatchSPRTCommandLineErrors: a bad test or a match that cannot form
// pairs is a usage error.
func TestMatchSPRTCommandLineErrors(t *testing.T) {
	cases := []struct {
		want string
		args []string
	}{
		{`--sprt: SPRT "10,0": ELO0 (10) must be below ELO1 (0)`, []string{"match", "--white", "random", "--black", "attacker", "--sprt", "10,0"}},
		{"want ELO0,ELO1[,ALPHA,BETA]", []string{"match", "--merge", "--sprt", "5", "."}},
		{"needs two different bots and alternating colours", []string{"match", "--white", "random", "--black", "random", "--sprt", "0,10"}},
		{"needs two different bots and alternating colours", []string{"match", "--white", "random", "--black", "attacker", "--alternate=false", "--sprt", "0,10"}},
	}
	for _, c := range cases {
		if code, _, errs := runBlindfish(t, context.Background(), c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errs)
		}
	}
}

// inGitRepo skips a test that needs the repository's git history.
func inGitRepo(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("no git repository here: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// TestPinnedBuildPlays builds the committed HEAD into an empty build cache,
// plays one game of its random bot, and reuses the binary the next time.
func TestPinnedBuildPlays(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the repository (short mode)")
	}
	head := inGitRepo(t)
	cache := t.TempDir()
	t.Setenv(botspec.BuildCacheEnv, cache)

	dir := t.TempDir()
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", "build:HEAD:random",
		"--games", "1", "--clock", "5+0.1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	spec := "build:" + head[:12] + ":random"
	if !strings.HasPrefix(out, "random vs "+spec+": 1 games") || !strings.Contains(errs, "msg=built") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, errs)
	}
	row := tableRow(t, out, "white")
	if row[1] != spec || row[3] != "1" || row[colIndex(t, out, "errors")] != "0/0" || row[colIndex(t, out, "time losses")] != "0/0" {
		t.Errorf("row %v", row)
	}
	if _, err := os.Stat(filepath.Join(dir, match.RecordName("random", spec, 1, 0, 1))); err != nil {
		t.Error(err)
	}
	binary := filepath.Join(cache, head, "blindfish")
	fi, err := os.Stat(binary)
	if err != nil {
		t.Fatal(err)
	}

	// The second match (a new process's resolver) finds the build in the cache.
	start := time.Now()
	code, out, errs = runBlindfish(t, context.Background(), "match", "--white", "random", "--black", spec,
		"--games", "1", "--clock", "5+0.1", "--out", "")
	if code != 0 || strings.Contains(errs, "msg=built") || !strings.Contains(errs, `msg="pinned build"`) {
		t.Errorf("second match (exit %d, %s):\n%s%s", code, time.Since(start), out, errs)
	}
	if fi2, err := os.Stat(binary); err != nil || !fi2.ModTime().Equal(fi.ModTime()) {
		t.Errorf("the cached binary was rebuilt: %v", err)
	}
}

// TestPinnedBuildErrors: an unknown revision or a malformed spec is a usage
// error that names the spec.
func TestPinnedBuildErrors(t *testing.T) {
	inGitRepo(t)
	t.Setenv(botspec.BuildCacheEnv, t.TempDir())
	cases := map[string]string{
		"build:no-such-rev-xyz":   `bot "build:no-such-rev-xyz": unknown revision "no-such-rev-xyz"`,
		"build:":                  "want build:REV[:BOTSPEC]",
		"build:HEAD:cmd:./x":      "BOTSPEC must be a bot of that build",
		"build:HEAD:build:HEAD~1": "BOTSPEC must be a bot of that build",
	}
	for spec, want := range cases {
		code, _, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", spec, "--out", "")
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q", spec, code, errs)
		}
	}
	if _, err := botspec.Engine("build:HEAD", 0, nil); err == nil {
		t.Error("engine --bot build:HEAD accepted")
	}
}
