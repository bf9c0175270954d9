package match

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testNow is the end of the games of hand-made log lines.
var testNow = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)

// jsonLine is a log line as Append writes it.
func jsonLine(l LogLine) (string, error) {
	data, err := json.Marshal(l)
	return string(data) + "\n", err
}

// notices collects what Play tells through Config.Notice.
type notices struct {
	mu   sync.Mutex
	msgs []string
}

func (n *notices) add(msg string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, msg)
}

func (n *notices) all() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return strings.Join(n.msgs, "\n")
}

// playedFolder plays a short match into a new folder and returns its config
// (Resume set) and the log's bytes.
func playedFolder(t *testing.T, games int) (Config, []byte) {
	t.Helper()
	cfg := testConfig(t.TempDir(), games)
	cfg.Resume = true
	if _, err := Play(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(cfg.Out, LogName))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte{'\n'}); n != games {
		t.Fatalf("%d lines logged for %d games", n, games)
	}
	return cfg, data
}

// lines splits a log into its lines, without their newlines.
func lines(data []byte) [][]byte {
	return bytes.Split(bytes.TrimSuffix(data, []byte{'\n'}), []byte{'\n'})
}

// tear writes the log with its last line cut in half and no newline after
// it, as a full disk leaves it, and returns the line's game number and the
// bytes left of it.
func tear(t *testing.T, cfg Config, data []byte) (int, []byte) {
	t.Helper()
	ls := lines(data)
	last := ls[len(ls)-1]
	r, err := parseLine(last)
	if err != nil {
		t.Fatal(err)
	}
	torn := last[:len(last)/2]
	kept := append(bytes.Join(ls[:len(ls)-1], []byte{'\n'}), '\n')
	if err := os.WriteFile(filepath.Join(cfg.Out, LogName), append(kept, torn...), 0o644); err != nil {
		t.Fatal(err)
	}
	return r.Game, torn
}

// checkLog fails unless every line of dir's log reads, each game of the
// schedule once.
func checkLog(t *testing.T, cfg Config) {
	t.Helper()
	logged, err := ReadLog(filepath.Join(cfg.Out, LogName))
	if err != nil {
		t.Fatalf("log after the run: %v", err)
	}
	var numbers []int
	for _, r := range logged {
		numbers = append(numbers, r.Game)
	}
	slices.Sort(numbers)
	numbers = slices.Compact(numbers)
	if len(numbers) != cfg.Games || len(logged) < cfg.Games {
		t.Errorf("games logged %v, want all %d", numbers, cfg.Games)
	}
}

// TestResumeAfterTornLastLine: a log whose last line a full disk cut short
// resumes: the line is set aside in results.jsonl.torn with a notice naming
// it, the log is cut back to the line before, and its game is played again.
func TestResumeAfterTornLastLine(t *testing.T) {
	const games = 4
	cfg, data := playedFolder(t, games)
	game, torn := tear(t, cfg, data)

	var told notices
	var built atomic.Int64
	cfg.Notice = told.add
	cfg.NewBot = countingBots(&built)
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatalf("resume after a torn line: %v", err)
	}
	if rep.Resumed != games-1 || rep.Finished() != games || built.Load() != 2 || rep.Results[game] == nil {
		t.Errorf("resumed %d, finished %d, %d players built (want the torn game %d played again)",
			rep.Resumed, rep.Finished(), built.Load(), game)
	}
	path := filepath.Join(cfg.Out, LogName)
	if msg := told.all(); !strings.Contains(msg, path+":4: torn last line") || !strings.Contains(msg, LogName+TornSuffix) {
		t.Errorf("notices %q do not name the torn line %s:4", msg, path)
	}
	set, err := os.ReadFile(path + TornSuffix)
	if err != nil || !bytes.Equal(set, append(torn, '\n')) {
		t.Errorf("%s holds %q (%v), want the torn bytes %q", LogName+TornSuffix, set, err, torn)
	}
	checkLog(t, cfg)
}

// TestResumeSkipsBadMiddleLine: a damaged line in the middle of a log is
// told with its number and skipped, not fatal; its game is played again.
func TestResumeSkipsBadMiddleLine(t *testing.T) {
	const games = 4
	cfg, data := playedFolder(t, games)
	ls := lines(data)
	bad, err := parseLine(ls[1])
	if err != nil {
		t.Fatal(err)
	}
	ls[1] = ls[1][:len(ls[1])/3]
	if err := os.WriteFile(filepath.Join(cfg.Out, LogName), append(bytes.Join(ls, []byte{'\n'}), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}

	var told notices
	cfg.Notice = told.add
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatalf("resume with a bad line: %v", err)
	}
	if rep.Resumed != games-1 || rep.Finished() != games || rep.Results[bad.Game] == nil {
		t.Errorf("resumed %d, finished %d (want game %d played again)", rep.Resumed, rep.Finished(), bad.Game)
	}
	if msg := told.all(); !strings.Contains(msg, filepath.Join(cfg.Out, LogName)+":2: ") || !strings.Contains(msg, "skipped") {
		t.Errorf("notices %q do not name line 2", msg)
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, LogName+TornSuffix)); err == nil {
		t.Error("a bad line in the middle was set aside as torn")
	}
	// The damaged line stays (it is not the last): readers skip it.
	f, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord)
	if err != nil || len(f.Results) != games || len(f.Skipped) != 1 || f.Skipped[0].Line != 2 {
		t.Errorf("read back %d games, skipped %v: %v", len(f.Results), f.Skipped, err)
	}
}

// TestReadMatchFoldersSkipsBadLines: merging reads folders with a torn last
// line and a damaged middle line, naming both, and counts the other games.
func TestReadMatchFoldersSkipsBadLines(t *testing.T) {
	a, data := playedFolder(t, 4)
	tear(t, a, data)
	b, data := playedFolder(t, 4)
	ls := lines(data)
	ls[2] = []byte(`{"bot": "random", "winner": "purple"}`)
	os.WriteFile(filepath.Join(b.Out, LogName), append(bytes.Join(ls, []byte{'\n'}), '\n'), 0o644)

	f, err := ReadMatchFolders([]string{a.Out, b.Out}, ReadRBCRecord)
	if err != nil {
		t.Fatalf("merge: %v", err)
	}
	// Each folder's fourth record has no readable line: bare in the
	// first folder (its line is torn), in the second too (line 3 is bad).
	if len(f.Results) != 8 || f.Bare != 2 || len(f.Skipped) != 2 {
		t.Fatalf("%d games, %d bare, skipped %v", len(f.Results), f.Bare, f.Skipped)
	}
	want := []string{filepath.Join(a.Out, LogName) + ":4: ", filepath.Join(b.Out, LogName) + ":3: "}
	for i, e := range f.Skipped {
		if !strings.HasPrefix(e.Error(), want[i]) {
			t.Errorf("skipped line %d: %q, want it to start %q", i, e, want[i])
		}
	}
	if _, err := ReadLog(filepath.Join(b.Out, LogName)); err == nil || !strings.Contains(err.Error(), LogName+":3: ") {
		t.Errorf("ReadLog of a log with a bad line: %v", err)
	}
}

// TestNoResumeAfterTornLineStartsFresh: a match that does not resume into a
// folder whose log ends in a torn line does not glue its first line onto it.
func TestNoResumeAfterTornLineStartsFresh(t *testing.T) {
	const games = 4
	cfg, data := playedFolder(t, games)
	tear(t, cfg, data)
	cfg.Resume = false
	var told notices
	cfg.Notice = told.add
	if _, err := Play(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	f, err := ReadMatchFolders([]string{cfg.Out}, ReadRBCRecord)
	if err != nil || len(f.Skipped) != 0 || len(f.Results) != 2*games-1 {
		t.Errorf("after a run without resume: %d games, skipped %v, %v", len(f.Results), f.Skipped, err)
	}
	if !strings.Contains(told.all(), ":4: torn last line") {
		t.Errorf("notices %q", told.all())
	}
}

// TestAppendStartsOnAFreshLine: a line is never appended onto a log whose
// last line lacks its newline (another writer's torn line after Repair), and
// Repair gives a whole last line its missing newline instead of setting it
// aside.
func TestAppendStartsOnAFreshLine(t *testing.T) {
	dir := t.TempDir()
	log := NewLog(dir, Shard{})
	r := &Result{White: "random", Black: "attacker", BotColor: 0, Clock: "1+0", Game: 0}
	line := r.Line(testNow)
	whole, _ := jsonLine(line)

	os.WriteFile(log.Path(), []byte(`{"record": "x.json", "bo`), 0o644)
	if err := log.Append(line); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log.Path())
	if want := `{"record": "x.json", "bo` + "\n" + whole; string(data) != want {
		t.Errorf("log %q, want %q", data, want)
	}

	os.WriteFile(log.Path(), bytes.TrimSuffix([]byte(whole), []byte{'\n'}), 0o644)
	if torn, err := log.Repair(); torn != nil || err != nil {
		t.Fatalf("Repair of a whole line without its newline: %v, %v", torn, err)
	}
	if data, _ := os.ReadFile(log.Path()); string(data) != whole {
		t.Errorf("repaired log %q, want %q", data, whole)
	}
}
