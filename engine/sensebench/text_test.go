package sensebench

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWriteText: the heading, the notes only when they apply, and a row
// per strategy and reference; a row with no turn shows dashes.
func TestWriteText(t *testing.T) {
	r := newResult()
	r.Games, r.Turns, r.Missing = 2, 10, 1
	r.Strategies = []*Row{{Name: "entropy", Timed: true, Turns: 10, Best: 5, Time: 30 * time.Millisecond, Decisions: 10}}
	var buf bytes.Buffer
	if err := r.WriteText(&buf, Config{Budget: time.Second, MaxBoards: 100}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "sense benchmark: 2 games, 10 player-turns") || !strings.Contains(out, "1s per decision") {
		t.Errorf("heading:\n%s", out)
	}
	if !strings.Contains(out, "warning: on 1 turns") || strings.Contains(out, "note:") {
		t.Errorf("notes:\n%s", out)
	}
	if !strings.Contains(out, "50.0%") || !strings.Contains(out, "3.0ms") {
		t.Errorf("strategy row:\n%s", out)
	}
	if !strings.Contains(out, "(no sense)            0") {
		t.Errorf("empty reference row:\n%s", out)
	}
}
