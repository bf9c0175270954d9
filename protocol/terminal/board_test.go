package terminal

import (
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestClockText: clocks show as m:ss.s, rounded to a tenth, never negative.
func TestClockText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		59999 * time.Millisecond:  "1:00.0",
		754300 * time.Millisecond: "12:34.3",
		-time.Second:              "0:00.0",
	} {
		if got := clockText(d); got != want {
			t.Errorf("clockText(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestRenderBoardFromEachSide: each side sees its own pieces at the bottom.
func TestRenderBoardFromEachSide(t *testing.T) {
	cell := func(s rbc.Square) string {
		if s == rbc.A1 {
			return " X "
		}
		return " . "
	}
	white := strings.Split(renderBoard(rbc.White, cell), "\n")
	black := strings.Split(renderBoard(rbc.Black, cell), "\n")
	if white[8] != " 1  X  .  .  .  .  .  .  .  1" || white[0] != "    a  b  c  d  e  f  g  h" {
		t.Errorf("white's view:\n%s", strings.Join(white, "\n"))
	}
	if black[1] != " 1  .  .  .  .  .  .  .  X  1" || black[0] != "    h  g  f  e  d  c  b  a" {
		t.Errorf("black's view:\n%s", strings.Join(black, "\n"))
	}
}
