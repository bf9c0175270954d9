package terminal

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
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
	cell := func(s chess.Square) string {
		if s == chess.A1 {
			return " X "
		}
		return " . "
	}
	white := strings.Split(renderBoard(chess.White, cell), "\n")
	black := strings.Split(renderBoard(chess.Black, cell), "\n")
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
	b, err := chess.ParseFEN("rnbqkb1r/pppppppp/8/8/8/3n4/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	h := NewPlayer(strings.NewReader(""), &out)
	ctx := context.Background()
	steps := []func() error{
		func() error { return h.HandleGameStart(ctx, chess.White, b, "x") },
		func() error { return h.HandleSenseResult(ctx, rbc.Sense(&b, chess.E2)) },
		func() error {
			e2e4 := chess.Move{From: chess.E2, To: chess.E4}
			return h.HandleMoveResult(ctx, e2e4, e2e4, false, chess.NoSquare)
		},
		func() error { return h.HandleOpponentMoveResult(ctx, true, chess.D2) },
		func() error {
			g1f3 := chess.Move{From: chess.G1, To: chess.F3}
			return h.HandleMoveResult(ctx, g1f3, g1f3, false, chess.NoSquare)
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
	for s, want := range map[chess.Square]string{
		chess.E2: "[ ]", // the pawn left the window...
		chess.E4: " P ", // ...and is drawn once, where it went
		chess.F3: "[N]", // the knight entered the window
		chess.G1: " . ",
		chess.D2: " x ", // captured since the sense
		chess.D3: "[n]", // the opponent's knight the sense saw
		chess.E1: "[K]", // unmoved, still in the window
		chess.F2: "[P]",
		chess.E3: "[ ]",
		chess.A2: " P ",
		chess.E7: " . ",
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
func whiteCells(t *testing.T, text string) map[chess.Square]string {
	t.Helper()
	lines := strings.Split(text, "\n")
	if len(lines) < 9 {
		t.Fatalf("no board in %q", text)
	}
	cells := map[chess.Square]string{}
	for i := 1; i <= 8; i++ {
		rank := 8 - i
		for file := range 8 {
			cells[chess.MakeSquare(file, rank)] = lines[i][3+3*file : 6+3*file]
		}
	}
	return cells
}
