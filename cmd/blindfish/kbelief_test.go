package main

import (
	"context"
	"strings"
	"testing"
)

// TestBeliefKriegspielCut: --cut follows the committed games past the
// limit (with --memory and --spill-dir set; the spill itself is tested in
// package kriegspiel), and the totals say how many turns were exact and how
// often a cut kept the true board.
func TestBeliefKriegspielCut(t *testing.T) {
	code, out, errs := runBlindfish(t, context.Background(), "belief", "kriegspiel", "--cut", "--limit", "2000",
		"--workers", "2", "--memory", "1", "--spill-dir", t.TempDir(), "--color", "white",
		"../../testdata/kriegspiel/records/simple-local-2.tar.gz")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"cut recall", "exact: 8 games followed", "turns exact ("} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "past the limit") {
		t.Errorf("a game stopped at the limit with --cut:\n%s", out)
	}
	if code, _, _ := runBlindfish(t, context.Background(), "belief", "kriegspiel", "--workers", "0", "x.json"); code != 2 {
		t.Errorf("--workers 0: exit %d, want 2", code)
	}
}

// TestBeliefKriegspielCutWeighted: --cut-weighted reaches the belief: the
// same games followed with it keep other boards than the uniform cut does.
func TestBeliefKriegspielCutWeighted(t *testing.T) {
	var outs [2]string
	for i, extra := range [][]string{nil, {"--cut-weighted"}} {
		args := append([]string{"belief", "kriegspiel", "--cut", "--limit", "500", "--color", "black"}, extra...)
		code, out, errs := runBlindfish(t, context.Background(), append(args, "../../testdata/kriegspiel/records/simple-local-2.tar.gz")...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		if !strings.Contains(out, "cut recall") {
			t.Errorf("%v: no cut recall in\n%s", extra, out)
		}
		// The ms/turn column varies from run to run; the recall columns do not.
		var rows []string
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) > 7 && f[2] == "exact" {
				rows = append(rows, strings.Join(f[:8], " "))
			}
		}
		outs[i] = strings.Join(rows, "\n")
	}
	if outs[0] == outs[1] {
		t.Errorf("the weighted cut followed the games exactly as the uniform one:\n%s", outs[0])
	}
}
