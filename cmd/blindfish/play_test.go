package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestPlayScriptedHuman drives a game from scripted input: help texts, every
// kind of bad input with its explanation, a sense, a move, and the end of
// input, which resigns cleanly.
func TestPlayScriptedHuman(t *testing.T) {
	script := strings.Join([]string{
		"help", "e9", "E7", // sense: help, a bad square, then e7 (case-insensitive)
		"help", "xyz", "e3e4", "e2e5", "e1e2", "e2e4", // move: help, junk, no piece, not an action, blocked king, then e2e4
	}, "\n") + "\n"
	var out bytes.Buffer
	cfg := playConfig{color: rbc.White, bot: "random", initial: 60 * time.Second, incr: time.Second, seed: 7}
	h, err := playHuman(context.Background(), cfg, strings.NewReader(script), &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"You play white against random, clock 60+1 s.",
		"   a  b  c  d  e  f  g  h",
		"Name a square: you will see the 3×3 window",
		`"e9" is not a square`,
		"Sense: opponent's",
		"[k]", // e8's king in the window around e7
		"Your move actions",
		"  P e2: e3 e4 d3 f3",
		`"xyz" is not a move`,
		"You have no piece on e3.",
		"e2e5 is not one of your move actions. Your pawn on e2 may request: e2e3 e2e4 e2d3 e2f3.",
		"Your king on e1 has no move actions now.",
		"You played e2e4.",
		"End of input: you resign.",
		"You lose by RESIGN.",
		"The real board at the end:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(text)
	}
	w := h.Turns[rbc.White]
	if len(w) != 1 || w[0].Sense != rbc.E7 || w[0].Requested != (rbc.Move{From: rbc.E2, To: rbc.E4}) {
		t.Fatalf("White's record: %+v", w)
	}
	if o := h.Outcome; !o.HasWinner || o.Winner != rbc.Black || o.Reason != rbc.Resign {
		t.Errorf("outcome %v, want Black wins by resignation", o)
	}
}

// TestPlayHumanPassingLosesToAttacker: as Black, passing every sense and
// move, the human loses to the Attacker's rush by king capture, and is shown
// its captured pieces and its view from Black's side.
func TestPlayHumanPassingLosesToAttacker(t *testing.T) {
	script := strings.Repeat("pass\n", 200)
	var out bytes.Buffer
	cfg := playConfig{color: rbc.Black, bot: "attacker", initial: 60 * time.Second, incr: time.Second, seed: 1}
	h, err := playHuman(context.Background(), cfg, strings.NewReader(script), &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if o := h.Outcome; o.Winner != rbc.White || o.Reason != rbc.KingCapture {
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
	if got := clockText(59999 * time.Millisecond); got != "1:00.0" {
		t.Errorf("clockText = %q", got)
	}
}
