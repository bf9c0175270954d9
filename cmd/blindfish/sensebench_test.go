package main

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestSenseBenchOnARecordedGame runs the command on one short Trout game and
// reads its table back: a row per strategy and per reference, each over the
// same turns, the references' columns as they must be. What the numbers mean
// is engine/sensebench's test.
func TestSenseBenchOnARecordedGame(t *testing.T) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", "--sense", "random,size,hsuc", "--time", "500ms", "-q",
		"../../testdata/histories/trout_bot-trout_bot-gen-003.json")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) >= 7 {
			name := f[0]
			if strings.HasPrefix(name, "(") {
				name = f[0] + " " + f[1]
				f = append([]string{name}, f[2:]...)
			}
			rows[name] = f
		}
	}
	num := func(col int, name string) float64 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(rows[name][col], "%"), 64)
		if err != nil {
			t.Fatalf("row %q column %d: %v\n%s", name, col, err, out)
		}
		return v
	}
	names := []string{"random", "size", "hsuc", "(recorded sense)", "(hindsight best)", "(no sense)"}
	turns := num(1, "size")
	for _, n := range names {
		if rows[n] == nil {
			t.Fatalf("no row %q:\n%s", n, out)
		}
		if num(1, n) != turns || turns == 0 {
			t.Errorf("row %q covers %v turns, size covers %v", n, num(1, n), turns)
		}
	}
	if num(4, "(no sense)") != 0 || num(5, "(hindsight best)") != 100 {
		t.Errorf("reference rows wrong:\n%s", out)
	}
	for _, args := range [][]string{{"belief", "--sense", "bogus", "x.json"}, {"belief", "sense", "--strategies", "bogus", "x.json"}} {
		if code, _, errs := runBlindfish(t, context.Background(), args...); code != 2 || !strings.Contains(errs, `unknown sense strategy "bogus"`) {
			t.Errorf("%q: exit %d %q", args, code, errs)
		}
	}
	if code, _, errs := runBlindfish(t, context.Background(), "belief", "sense", "x.json"); code != 2 || !strings.Contains(errs, "--strategies needs") {
		t.Errorf("no strategy: exit %d %q", code, errs)
	}
}
