package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/sampler/beliefbench"
)

const beliefTestGame = "../../testdata/histories/trout_bot-attacker_bot-8-000.json"

// TestBeliefTable replays a short game through every sampler: a row per turn
// and sampler, a totals row per sampler, and the recall line last (exact
// keeps the true board at every turn).
func TestBeliefTable(t *testing.T) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--sampler", "all", "--color", "both", "--pool", "300", beliefTestGame)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !regexp.MustCompile(`^recall \d+\.\d% over \d+ turns$`).MatchString(lastLine(out)) {
		t.Errorf("last line %q", lastLine(out))
	}
	if !regexp.MustCompile(`(?m)^exact +2 +\d+ +100\.0% `).MatchString(out) {
		t.Errorf("no exact totals row with 100%% recall over 2 game sides:\n%s", out)
	}
	for _, name := range []string{"aosp", "los", "hybrid", "particle"} {
		if !regexp.MustCompile(`(?m)^` + name + ` +2 +\d+ `).MatchString(out) {
			t.Errorf("no totals row for %s", name)
		}
	}
	if !regexp.MustCompile(`(?m)^trout_bot-attacker_bot-8-000\.json +black +exact +1 +21 +21 `).MatchString(out) {
		t.Errorf("black's first turn should show White's 21 options:\n%s", out)
	}
}

// TestBeliefJSON checks the JSON report's shape and its agreement with the
// table's numbers.
func TestBeliefJSON(t *testing.T) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--color", "white", "--json", beliefTestGame)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	var rep beliefbench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 1 || rep.Games[0].Color != "white" || rep.Games[0].Sampler != "exact" {
		t.Fatalf("games %+v", rep.Games)
	}
	g := rep.Games[0]
	if len(g.Turns) != rep.Turns || rep.Recall != 100 || len(rep.Samplers) != 1 || rep.Samplers[0].Turns != rep.Turns {
		t.Errorf("turns %d, recall %v, samplers %+v", rep.Turns, rep.Recall, rep.Samplers)
	}
	if g.Turns[0].SizeBefore != 1 || g.Turns[1].SizeBefore != 21 {
		t.Errorf("white's first two turns hold %d and %d boards, want 1 and 21", g.Turns[0].SizeBefore, g.Turns[1].SizeBefore)
	}
	for _, bt := range g.Turns {
		if !bt.Present || bt.SizeAfter > bt.SizeBefore {
			t.Errorf("turn %+v", bt)
		}
	}
}

// TestBeliefUsage checks the command-line errors.
func TestBeliefUsage(t *testing.T) {
	for _, args := range [][]string{
		{"belief"},
		{"belief", "--sampler", "nope", beliefTestGame},
		{"belief", "--color", "red", beliefTestGame},
		{"belief", "--pool", "0", beliefTestGame},
		{"belief", "--disk", "-1", beliefTestGame},
		{"belief", "--replay", "-5", beliefTestGame},
	} {
		if code, _, _ := runBlindfish(t, context.Background(), args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runBlindfish(t, context.Background(), "belief", "no-such-file.json"); code != 1 || !strings.Contains(errs, "no-such-file.json") {
		t.Errorf("missing file: exit %d, %q", code, errs)
	}
}

// TestBeliefFolder replays every record of a folder, with a memory budget so
// small that exact defers boards and spills them (the game is copied twice so
// that the folder holds two records).
func TestBeliefFolder(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(beliefTestGame)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.json", "b.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--turns=false", "--budget", "1", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^exact +4 +\d+ +100\.0% `).MatchString(out) {
		t.Errorf("want exact over 2 records × 2 sides with full recall:\n%s", out)
	}
	if code, _, errs := runBlindfish(t, context.Background(), "belief", t.TempDir()); code != 1 || !strings.Contains(errs, "no *.json") {
		t.Errorf("empty folder: exit %d, %q", code, errs)
	}
}

// TestBeliefCalibrate: the calibration mode, by its subcommand and by its
// older flag, counts the game's turns from both sides and prints both
// feature tables.
func TestBeliefCalibrate(t *testing.T) {
	for _, mode := range []string{"calibrate", "--calibrate"} {
		t.Run(mode, func(t *testing.T) { testBeliefCalibrate(t, mode) })
	}
}

func testBeliefCalibrate(t *testing.T, mode string) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", mode, beliefTestGame)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	m := regexp.MustCompile(`^1 games, (\d+) turns`).FindStringSubmatch(out)
	if m == nil || m[1] == "0" {
		t.Fatalf("no turn count:\n%s", out)
	}
	for _, row := range []string{`(?m)^none +\d`, `(?m)^queen +\d`, `(?m)^checked +\d`, `(?m)^king +\d`, `(?m)^4\+ +\d`} {
		if !regexp.MustCompile(row).MatchString(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
}

// TestBeliefDispatch: the first argument names belief's subcommand, and the
// older flag forms, wherever they stand, select the same one with the rest
// of the command line left to it.
func TestBeliefDispatch(t *testing.T) {
	for _, tc := range []struct {
		args []string
		name string
		rest []string
		bad  bool
	}{
		{args: []string{"a.json"}, rest: []string{"a.json"}},
		{args: []string{"--sampler", "all", "a.json"}, rest: []string{"--sampler", "all", "a.json"}},
		{args: []string{"sense", "--strategies", "all", "a.json"}, name: "sense", rest: []string{"--strategies", "all", "a.json"}},
		{args: []string{"calibrate", "a.json"}, name: "calibrate", rest: []string{"a.json"}},
		{args: []string{"kriegspiel", "--view", "all", "d"}, name: "kriegspiel", rest: []string{"--view", "all", "d"}},
		{args: []string{"--sense", "random,size", "-q", "a.json"}, name: "sense", rest: []string{"--strategies=random,size", "-q", "a.json"}},
		{args: []string{"a.json", "-sense=all"}, name: "sense", rest: []string{"--strategies=all", "a.json"}},
		{args: []string{"--sense"}, name: "sense", rest: []string{"--strategies="}},
		{args: []string{"--calibrate", "--opponent", "X", "d"}, name: "calibrate", rest: []string{"--opponent", "X", "d"}},
		{args: []string{"d", "-calibrate"}, name: "calibrate", rest: []string{"d"}},
		{args: []string{"--calibrate=false", "d"}, rest: []string{"--calibrate=false", "d"}},
		{args: []string{"--game", "kriegspiel", "--size", "50", "d"}, name: "kriegspiel", rest: []string{"--size", "50", "d"}},
		{args: []string{"d", "--game=kriegspiel"}, name: "kriegspiel", rest: []string{"d"}},
		{args: []string{"--game", "rbc", "d"}, bad: true},
		{args: []string{"--", "--calibrate"}, rest: []string{"--", "--calibrate"}},
	} {
		name, rest, err := beliefDispatch(tc.args)
		if tc.bad {
			if !errors.As(err, new(usageError)) {
				t.Errorf("%q: err %v, want a usage error", tc.args, err)
			}
			continue
		}
		if err != nil || name != tc.name || !slices.Equal(rest, tc.rest) {
			t.Errorf("%q: %q %q %v, want %q %q", tc.args, name, rest, err, tc.name, tc.rest)
		}
	}
}

// TestBeliefHelp: belief --help lists the subcommands, and each subcommand's
// --help its own flags.
func TestBeliefHelp(t *testing.T) {
	_, _, errs := runBlindfish(t, context.Background(), "belief", "--help")
	for _, want := range []string{"blindfish belief sense --strategies", "blindfish belief calibrate", "blindfish belief kriegspiel",
		"\n  sense ", "\n  calibrate ", "\n  kriegspiel ", "--sense STRATEGIES, --calibrate and --game kriegspiel", "-sampler"} {
		if !strings.Contains(errs, want) {
			t.Errorf("belief --help lacks %q:\n%s", want, errs)
		}
	}
	for sub, flag := range map[string]string{"sense": "-strategies", "calibrate": "-opponent", "kriegspiel": "-view"} {
		_, _, errs := runBlindfish(t, context.Background(), "belief", sub, "--help")
		if !strings.Contains(errs, "Usage: blindfish belief "+sub+" ") || !strings.Contains(errs, flag) {
			t.Errorf("belief %s --help:\n%s", sub, errs)
		}
	}
}

// belief refuses a record whose first board no RBC game reaches (here
// three kings), saying why, rather than measuring beliefs of it.
func TestBeliefRefusesImpossibleRecord(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "testdata", "histories", "attacker_bot-random_bot-3-000.json"))
	if err != nil {
		t.Fatal(err)
	}
	from := `"fens_before_move": {"true": ["rnbqkbnr/pppppppp/8/8/8/8/`
	bad := strings.Replace(string(good), from, `"fens_before_move": {"true": ["rnbqkbnr/pppppppp/8/8/8/3K4/`, 1)
	if bad == string(good) {
		t.Fatalf("record does not contain %q", from)
	}
	rec := filepath.Join(t.TempDir(), "three-kings.json")
	if err := os.WriteFile(rec, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runBlindfish(t, context.Background(), "belief", rec)
	if code == 0 || !strings.Contains(errs, "white has 2 kings") {
		t.Fatalf("exit %d, want an error saying white has 2 kings\n%s%s", code, out, errs)
	}
}
