package main

import (
	"context"
	"strings"
	"testing"
)

// TestCalibrateOpponent: --opponent keeps the games against that player and
// measures only the side that faced it; a name no record holds is an error.
func TestCalibrateOpponent(t *testing.T) {
	games := []string{
		"../../testdata/histories/attacker_bot-trout_bot-7-000.json",  // TroutBot is black
		"../../testdata/histories/trout_bot-attacker_bot-8-000.json",  // TroutBot is white
		"../../testdata/histories/random_bot-attacker_bot-2-000.json", // no TroutBot
	}
	args := append([]string{"belief", "--calibrate", "--opponent", "TroutBot"}, games...)
	code, out, errs := runBlindfish(t, context.Background(), args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if !strings.HasPrefix(out, "2 games, ") || !strings.Contains(out, "the sides playing TroutBot") {
		t.Errorf("header:\n%s", out)
	}
	if !strings.Contains(out, "\nking ") {
		t.Errorf("no row for a king left en prise:\n%s", out)
	}
	args = append([]string{"belief", "--calibrate", "--opponent", "Nobody"}, games...)
	code, _, errs = runBlindfish(t, context.Background(), args...)
	if code == 0 || !strings.Contains(errs, `no record of a game against "Nobody" among 3`) {
		t.Errorf("unknown opponent: exit %d, stderr %q", code, errs)
	}
}
