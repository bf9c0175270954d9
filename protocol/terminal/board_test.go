package terminal

import (
	"bytes"
	"context"
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

// TestOwnPiecesOverTheSenseWindow: the last sense window is older than our
// last move and the opponent's reply, so it must not redraw our pieces where
// they were: a piece that left the window is drawn once, where it went; a
// piece that entered it is drawn; one captured in it is an x; the
// opponent's piece seen in it stays.
func TestOwnPiecesOverTheSenseWindow(t *testing.T) {
	b, err := rbc.ParseFEN("rnbqkb1r/pppppppp/8/8/8/3n4/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	h := NewPlayer(strings.NewReader(""), &out)
	ctx := context.Background()
	steps := []func() error{
		func() error { return h.HandleGameStart(ctx, rbc.White, b, "x") },
		func() error { return h.HandleSenseResult(ctx, rbc.Sense(&b, rbc.E2)) },
		func() error {
			e2e4 := rbc.Move{From: rbc.E2, To: rbc.E4}
			return h.HandleMoveResult(ctx, e2e4, e2e4, false, rbc.NoSquare)
		},
		func() error { return h.HandleOpponentMoveResult(ctx, true, rbc.D2) },
		func() error {
			g1f3 := rbc.Move{From: rbc.G1, To: rbc.F3}
			return h.HandleMoveResult(ctx, g1f3, g1f3, false, rbc.NoSquare)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	h.draw()
	got := whiteCells(t, out.String())
	for s, want := range map[rbc.Square]string{
		rbc.E2: "[ ]", // the pawn left the window...
		rbc.E4: " P ", // ...and is drawn once, where it went
		rbc.F3: "[N]", // the knight entered the window
		rbc.G1: " . ",
		rbc.D2: " x ", // captured since the sense
		rbc.D3: "[n]", // the opponent's knight the sense saw
		rbc.E1: "[K]", // unmoved, still in the window
		rbc.F2: "[P]",
		rbc.E3: "[ ]",
		rbc.A2: " P ",
		rbc.E7: " . ",
	} {
		if got[s] != want {
			t.Errorf("%s drawn %q, want %q", s, got[s], want)
		}
	}
	if t.Failed() {
		t.Log("\n" + out.String())
	}
}

// whiteCells reads the cells of a board drawn from White's side.
func whiteCells(t *testing.T, text string) map[rbc.Square]string {
	t.Helper()
	lines := strings.Split(text, "\n")
	if len(lines) < 9 {
		t.Fatalf("no board in %q", text)
	}
	cells := map[rbc.Square]string{}
	for i := 1; i <= 8; i++ {
		rank := 8 - i
		for file := range 8 {
			cells[rbc.MakeSquare(file, rank)] = lines[i][3+3*file : 6+3*file]
		}
	}
	return cells
}
