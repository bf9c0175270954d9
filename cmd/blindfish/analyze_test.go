package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// recorder is a player that remembers the observations it is given and
// always senses a1 and passes.
type recorder struct {
	color    rbc.Color
	captures []rbc.Square
	senses   [][]rbc.SquarePiece
	moves    []rbc.Move // the taken moves it was told of
}

func (r *recorder) HandleGameStart(_ context.Context, c rbc.Color, _ rbc.Board, _ string) error {
	r.color = c
	return nil
}
func (r *recorder) HandleOpponentMoveResult(_ context.Context, _ bool, sq rbc.Square) error {
	r.captures = append(r.captures, sq)
	return nil
}
func (r *recorder) ChooseSense(context.Context, []rbc.Square, []rbc.Move, time.Duration) (rbc.Square, error) {
	return rbc.Square(0), nil
}
func (r *recorder) HandleSenseResult(_ context.Context, res []rbc.SquarePiece) error {
	r.senses = append(r.senses, res)
	return nil
}
func (r *recorder) ChooseMove(context.Context, []rbc.Move, time.Duration) (rbc.Move, error) {
	return rbc.Move{}, nil
}
func (r *recorder) HandleMoveResult(_ context.Context, _, taken rbc.Move, _ bool, _ rbc.Square) error {
	r.moves = append(r.moves, taken)
	return nil
}
func (r *recorder) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }

// TestAnalysisFeedsTheRecordedObservations: each side gets the observations
// the record says it got, in order, and for its own sense the window it chose
// as it was on the recorded true board.
func TestAnalysisFeedsTheRecordedObservations(t *testing.T) {
	h, err := rbc.LoadHistoryFile("../../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []rbc.Color{rbc.White, rbc.Black} {
		r := &recorder{}
		a := analysis{p: r, h: h, color: c, left: time.Minute}
		var turns int
		if err := a.run(context.Background(), func(int) bool { return true }, func(decision) { turns++ }); err != nil {
			t.Fatal(err)
		}
		mine, theirs := h.Turns[c], h.Turns[c.Other()]
		if r.color != c || turns != len(mine) || len(r.captures) != len(mine) || len(r.senses) != len(mine) {
			t.Fatalf("%v: colour %v, %d turns, %d captures, %d senses; want %d of each", c, r.color, turns, len(r.captures), len(r.senses), len(mine))
		}
		for i, rec := range mine {
			want := rbc.NoSquare
			if j := i - 1 + int(c); j >= 0 {
				want = theirs[j].Capture
			}
			if r.captures[i] != want {
				t.Errorf("%v turn %d: told of a capture on %v, want %v", c, i+1, r.captures[i], want)
			}
			// The recorder senses a1: it must see a1's window on the true board.
			before := rbc.MustParseFEN(rec.FENBefore)
			if got, want := r.senses[i], before.Sense(rbc.Square(0)); !slices.Equal(got, want) {
				t.Errorf("%v turn %d: sense result %v, want %v", c, i+1, got, want)
			}
			if rec.HasMove && r.moves[i] != rec.Taken {
				t.Errorf("%v turn %d: told of move %v, want the recorded %v", c, i+1, r.moves[i], rec.Taken)
			}
		}
	}
}

// TestAnalyzeCommand: one row per turn shown, the agreement line, and clear
// usage errors.
func TestAnalyzeCommand(t *testing.T) {
	const game = "../../testdata/histories/attacker_bot-random_bot-3-000.json"
	ctx := context.Background()
	code, out, errs := runBlindfish(t, ctx, "analyze", "--bot", "random", "--color", "black", "--from", "2", "--to", "3", game)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rows := 0
	for line := range strings.Lines(out) {
		if f := strings.Fields(line); len(f) > 0 && (f[0] == "1" || f[0] == "2" || f[0] == "3" || f[0] == "4") {
			rows++
			if f[0] == "1" || f[0] == "4" {
				t.Errorf("turn %s shown outside --from 2 --to 3", f[0])
			}
		}
	}
	if rows != 2 || !strings.Contains(out, "agreement over 2 turns") {
		t.Errorf("want 2 rows and the agreement line:\n%s", out)
	}
	for _, args := range [][]string{
		{"analyze", game},                                       // no colour
		{"analyze", "--color", "red", game},                     // bad colour
		{"analyze", "--color", "white", "--bot", "nobot", game}, // unknown bot
		{"analyze", "--color", "white"},                         // no game
	} {
		if code, _, _ := runBlindfish(t, ctx, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, errs := runBlindfish(t, ctx, "analyze", "--color", "white", "../../testdata/histories/missing.json"); code != 1 || errs == "" {
		t.Errorf("missing file: exit %d, stderr %q", code, errs)
	}
}
