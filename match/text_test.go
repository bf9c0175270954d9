package match

import (
	"bytes"
	"testing"
	"time"
)

// TestParseClock reads seconds and Go durations.
func TestParseClock(t *testing.T) {
	cases := []struct {
		in         string
		init, incr time.Duration
		ok         bool
	}{
		{"900+5", 900 * time.Second, 5 * time.Second, true},
		{"0.5+0", 500 * time.Millisecond, 0, true},
		{"60", time.Minute, 0, true},
		{"2s+100ms", 2 * time.Second, 100 * time.Millisecond, true},
		{"0+5", 0, 0, false},
		{"10+-1", 0, 0, false},
		{"+5", 0, 0, false},
		{"1e30+0", 0, 0, false},
	}
	for _, c := range cases {
		i, n, err := ParseClock(c.in)
		if (err == nil) != c.ok || (c.ok && (i != c.init || n != c.incr)) {
			t.Errorf("%q: %v %v %v", c.in, i, n, err)
		}
	}
}

// TestProgressLine renders the bar, the count and an estimate.
func TestProgressLine(t *testing.T) {
	got := ProgressLine(5, 0, 10, 10, 20*time.Second, "x: +1 =0 -4")
	if want := "[#####.....] 5/10  20s (about 20s left)  x: +1 =0 -4"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	// Resumed steps took none of the time: 2 steps in 20s, 4 to go.
	if got, want := ProgressLine(6, 4, 10, 10, 20*time.Second, ""), "[######....] 6/10  20s (about 40s left)"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
	if NewProgressBar(&bytes.Buffer{}, 3) != nil {
		t.Error("a progress bar on a buffer")
	}
	var bar *ProgressBar // what a pipe gets: every call does nothing
	bar.Update(1, "x")
	bar.Clear()
}

// TestProgressStatus: the bot's score, void games and the SPRT's LLR.
func TestProgressStatus(t *testing.T) {
	if s := (Progress{Total: 4}).Status("a", nil); s != "" {
		t.Errorf("before any game: %q", s)
	}
	sprt := &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	got := Progress{Done: 4, Total: 9, Void: 1, Wins: 2, Draws: 1, HasLLR: true, LLR: 0.5}.Status("a", sprt)
	if want := "a: +2 =1 -0 (83.3%) void 1  LLR 0.50 (-2.94, 2.94)"; got != want {
		t.Errorf("got %q want %q", got, want)
	}
}
