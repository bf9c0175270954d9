package kriegspielorg_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// A Tally says one line per game, saves the true records under names made
// safe, and sums up.
func TestTally(t *testing.T) {
	rec := kriegspiel.NewRecord(kriegspiel.NewGame(kriegspiel.Wild16()))
	rec.White, rec.Black = "us", "red\x1b[31m"
	rec.Result = kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: chess.White, HasWinner: true}
	dir := t.TempDir()
	var out strings.Builder
	tally := kriegspielorg.NewTally(dir, &out, nil)
	tally.Record("ab/cd", &kriegspielorg.Result{GameID: "ab/cd", Color: chess.White, Result: rec.Result, Record: rec}, nil)
	tally.Record("x2", &kriegspielorg.Result{GameID: "x2", Color: chess.Black, Result: kriegspiel.Result{Reason: kriegspiel.TurnLimit}}, nil)
	tally.Record("x3", &kriegspielorg.Result{GameID: "x3", Color: chess.Black}, errors.New("the bot failed"))
	tally.Record("x4", nil, errors.New("gone"))
	tally.WriteSummary()

	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines, want 5:\n%s", len(lines), out.String())
	}
	for i, want := range []string{
		"game ab/cd as white: won (" + rec.Result.String() + "), saved " + dir,
		"game x2 as black: draw (",
		"game x3 as black: resigned after an error: the bot failed",
		"game x4: not played: gone",
		"4 games: 1 won, 1 drawn, 0 lost, 2 failed",
	} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want it to start with %q", i+1, lines[i], want)
		}
	}
	_, saved, _ := strings.Cut(lines[0], ", saved ")
	if !strings.HasSuffix(saved, "-kriegspiel-ab_cd-us-red__31m.json") {
		t.Errorf("record name %q not made safe", saved)
	}
	f, err := os.Open(saved)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if back, err := ksrecord.Read(f); err != nil || back.Black != rec.Black {
		t.Errorf("the saved record does not read back: %v", err)
	}
}
