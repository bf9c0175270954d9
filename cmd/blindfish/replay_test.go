package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runBlindfish(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestReplayCheckReproducesRecordedGames: every harness game kept as test
// data replays exactly.
func TestReplayCheckReproducesRecordedGames(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/histories/*.json")
	if len(files) == 0 {
		t.Fatal("no recorded games")
	}
	code, out, errs := runBlindfish(t, context.Background(), "replay", "--check", "../../testdata/histories")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if want := fmt.Sprintf("%d/%d games reproduced", len(files), len(files)); lastLine(out) != want {
		t.Errorf("last line %q, want %q", lastLine(out), want)
	}
	if !strings.Contains(out, "attacker_bot-random_bot-3-000.json: ok, 7 turns, white wins by KING_CAPTURE\n") {
		t.Errorf("no ok line for a known game:\n%s", out)
	}
}

// TestReplayCheckReportsDivergenceAndUnreadableFiles: a tampered record
// shows its first divergence with turn, colour and both values; unreadable
// files are reported and counted; the exit status is 1.
func TestReplayCheckReportsDivergenceAndUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	src := "../../testdata/histories/attacker_bot-random_bot-3-000.json"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(data, &m)
	taken := m["taken_moves"].(map[string]any)["false"].([]any)
	taken[1] = map[string]any{"type": "Move", "value": "f7f5"}
	tampered, _ := json.Marshal(m)
	good := filepath.Join(dir, "a-good.json")
	bad := filepath.Join(dir, "b-tampered.json")
	broken := filepath.Join(dir, "c-broken.json")
	os.WriteFile(good, data, 0o644)
	os.WriteFile(bad, tampered, 0o644)
	os.WriteFile(broken, data[:len(data)/2], 0o644)
	missing := filepath.Join(dir, "d-missing.json")

	code, out, _ := runBlindfish(t, context.Background(), "replay", "--check", good, bad, broken, missing)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		good + ": ok, 7 turns, white wins by KING_CAPTURE\n",
		bad + ": diverges at turn 2 (black): taken move: recorded f7f5, replayed 0000\n",
		broken + ": unreadable: record: bad game history: not a JSON object",
		missing + ": unreadable: open " + missing,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if lastLine(out) != "1/4 games reproduced" {
		t.Errorf("last line %q", lastLine(out))
	}
	// -q keeps only the failures and the summary.
	_, out, _ = runBlindfish(t, context.Background(), "replay", "--check", "-q", good, bad)
	if strings.Contains(out, good) || !strings.Contains(out, bad) || lastLine(out) != "1/2 games reproduced" {
		t.Errorf("-q output:\n%s", out)
	}
}

// TestReplayNeedsCheckAndFiles: the command line is checked (exit 2).
func TestReplayNeedsCheckAndFiles(t *testing.T) {
	if code, _, errs := runBlindfish(t, context.Background(), "replay", "x.json"); code != 2 || !strings.Contains(errs, "--check is required") {
		t.Errorf("without --check: exit %d %s", code, errs)
	}
	if code, _, errs := runBlindfish(t, context.Background(), "replay", "--check"); code != 2 || !strings.Contains(errs, "no game records") {
		t.Errorf("without files: exit %d %s", code, errs)
	}
	if code, _, errs := runBlindfish(t, context.Background(), "replay", "--help"); code != 0 || !strings.Contains(errs, "N/M games reproduced") {
		t.Errorf("--help: exit %d %s", code, errs)
	}
}
