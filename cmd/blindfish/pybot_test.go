package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/botspec"
)

// pyBots copies the host's test bots into a temporary folder (Python's
// byte-code caches stay out of the source tree), points the build cache,
// where the host is written, at another, and returns the bots' folder. It
// skips without python3, except under CI=true, where that is a failure.
func pyBots(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 not found, and CI=true requires it: %v", err)
		}
		t.Skipf("python3 not found (%v); py: bots need it", err)
	}
	t.Setenv(botspec.BuildCacheEnv, t.TempDir())
	dir := t.TempDir()
	for _, name := range []string{"tiny_bot.py", "raising_bot.py"} {
		src, err := os.ReadFile(filepath.Join("../../protocol/reconchess/testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMatchPythonBot plays `blindfish match` with a py: bot against a
// built-in one: the games finish, their records replay exactly, and the
// bot's prints to its stdout do not disturb the protocol.
func TestMatchPythonBot(t *testing.T) {
	bots := pyBots(t)
	out := filepath.Join(t.TempDir(), "games")
	code, stdout, stderr := runCmd(t, "match", "--white", "py:"+filepath.Join(bots, "tiny_bot.py"), "--black", "attacker",
		"--games", "2", "--clock", "10+0.1", "--turn-limit", "60", "--out", out)
	if code != 0 || !strings.Contains(stdout, "2 games") {
		t.Fatalf("match: exit %d\n%s\n%s", code, stdout, stderr)
	}
	log, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(log); strings.Contains(s, `"RESIGN"`) || strings.Contains(s, `"TIMEOUT"`) || strings.Contains(s, "ILLEGAL") {
		t.Fatalf("a game did not end by the rules:\n%s", s)
	}
	records, _ := filepath.Glob(filepath.Join(out, "*.json"))
	if len(records) != 2 {
		t.Fatalf("records %q", records)
	}
	if code, stdout, stderr := runCmd(t, "replay", "--check", out); code != 0 {
		t.Fatalf("replay --check: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestMatchPythonBotRaises: a py: bot that raises in choose_move voids that
// game (never a win for its opponent; the table's errors column counts it),
// the results log names the exception, the match goes on to its end, and
// it exits non-zero since every game of the bot failed.
func TestMatchPythonBotRaises(t *testing.T) {
	bots := pyBots(t)
	out := filepath.Join(t.TempDir(), "games")
	code, stdout, stderr := runCmd(t, "match", "--white", "py:"+filepath.Join(bots, "raising_bot.py"), "--black", "random",
		"--games", "2", "--clock", "10+0.1", "--out", out)
	if code != 1 || !strings.Contains(stdout, "2 void") || !strings.Contains(stderr, "KeyError") {
		t.Fatalf("match: exit %d (want 1: every game of the bot failed)\n%s\n%s", code, stdout, stderr)
	}
	log, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	if len(lines) != 2 {
		t.Fatalf("results log:\n%s", log)
	}
	for _, l := range lines {
		if !strings.Contains(l, `"reason":"ERROR"`) || !strings.Contains(l, "choose_move: KeyError") {
			t.Errorf("a game of the raising bot: %s", l)
		}
	}
}
