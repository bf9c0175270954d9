package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/terminal"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestPlayHumanPassingLosesToAttacker: as Black, passing every sense and
// move, the human loses to the Attacker's rush by king capture, and the game
// is saved under the match's naming scheme. The terminal itself is
// protocol/terminal's test.
func TestPlayHumanPassingLosesToAttacker(t *testing.T) {
	script := strings.Repeat("pass\n", 200)
	var out bytes.Buffer
	dir := t.TempDir()
	g := terminal.Game{Color: chess.Black, OpponentName: "attacker", Initial: 60 * time.Second, Increment: time.Second,
		In: strings.NewReader(script), Out: &out}
	h, err := playHuman(context.Background(), g, 1, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if o := h.Outcome; o.Winner != chess.White || o.Reason != rbc.KingCapture {
		t.Fatalf("outcome %v\n%s", o, text)
	}
	for _, want := range []string{"You play black against attacker", "    h  g  f  e  d  c  b  a", "You passed.", "You lose by KING_CAPTURE."} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q\n%s", want, text)
		}
	}
	if strings.Contains(text, "End of input") {
		t.Error("the game outlasted the script")
	}
	name := filepath.Join(dir, match.RecordName("attacker", "you", 1, 0, 1))
	if !strings.Contains(text, "Game record saved to "+name) {
		t.Errorf("output does not name the record %s:\n%s", name, text)
	}
	saved, err := record.LoadHistoryFile(name)
	if err != nil {
		entries, _ := os.ReadDir(dir)
		t.Fatalf("%v (the folder holds %v)", err, entries)
	}
	if saved.WhiteName != "attacker" || saved.BlackName != "you" || saved.Outcome != h.Outcome {
		t.Errorf("saved record: %s vs %s, %v", saved.WhiteName, saved.BlackName, saved.Outcome)
	}
}

// TestPlayCommandLine: flag errors are usage errors.
func TestPlayCommandLine(t *testing.T) {
	for want, args := range map[string][]string{
		`unknown colour "green"`: {"play", "--color", "green"},
		`bad --clock "x"`:        {"play", "--clock", "x"},
		`unexpected argument`:    {"play", "extra"},
	} {
		if code, _, errs := runBlindfish(t, context.Background(), args...); code != 2 || !strings.Contains(errs, want) {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestPlayEndOfInputResignsCleanly: closing the input (Ctrl-D) resigns
// with a plain message, nothing on stderr, and exit status 0: the game was
// played to its end.
func TestPlayEndOfInputResignsCleanly(t *testing.T) {
	var out, errb bytes.Buffer
	err := runPlayFrom(context.Background(), []string{"--color", "black", "--bot", "attacker", "--clock", "60+1", "--seed", "1"},
		strings.NewReader("pass\n"), &out, &errb)
	if err != nil {
		t.Fatalf("runPlay: %v, want nil (exit status 0)", err)
	}
	text := out.String()
	if !strings.Contains(text, "You lose: you resigned (end of input).") || strings.Contains(text, "failed") {
		t.Errorf("stdout:\n%s", text)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %q", errb.String())
	}
}
