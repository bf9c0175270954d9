package analysis

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// recorder is a player that remembers the observations it is given and
// always senses a1 and passes.
type recorder struct {
	color    chess.Color
	captures []chess.Square
	senses   [][]rbc.SquarePiece
	moves    []chess.Move // the taken moves it was told of
}

func (r *recorder) HandleGameStart(_ context.Context, c chess.Color, _ chess.Board, _ string) error {
	r.color = c
	return nil
}
func (r *recorder) HandleOpponentMoveResult(_ context.Context, _ bool, sq chess.Square) error {
	r.captures = append(r.captures, sq)
	return nil
}
func (r *recorder) ChooseSense(context.Context, []chess.Square, []chess.Move, time.Duration) (chess.Square, error) {
	return chess.Square(0), nil
}
func (r *recorder) HandleSenseResult(_ context.Context, res []rbc.SquarePiece) error {
	r.senses = append(r.senses, res)
	return nil
}
func (r *recorder) ChooseMove(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
	return chess.Move{}, nil
}
func (r *recorder) HandleMoveResult(_ context.Context, _, taken chess.Move, _ bool, _ chess.Square) error {
	r.moves = append(r.moves, taken)
	return nil
}
func (r *recorder) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }

// TestAnalysisFeedsTheRecordedObservations: each side gets the observations
// the record says it got, in order, and for its own sense the window it chose
// as it was on the recorded true board.
func TestAnalysisFeedsTheRecordedObservations(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []chess.Color{chess.White, chess.Black} {
		r := &recorder{}
		var turns int
		if err := Follow(context.Background(), r, h, c, time.Minute, func(int) bool { return true }, func(Decision) { turns++ }); err != nil {
			t.Fatal(err)
		}
		mine, theirs := h.Turns[c], h.Turns[c.Other()]
		if r.color != c || turns != len(mine) || len(r.captures) != len(mine) || len(r.senses) != len(mine) {
			t.Fatalf("%v: colour %v, %d turns, %d captures, %d senses; want %d of each", c, r.color, turns, len(r.captures), len(r.senses), len(mine))
		}
		for i, rec := range mine {
			want := chess.NoSquare
			if j := i - 1 + int(c); j >= 0 {
				want = theirs[j].Capture
			}
			if r.captures[i] != want {
				t.Errorf("%v turn %d: told of a capture on %v, want %v", c, i+1, r.captures[i], want)
			}
			// The recorder senses a1: it must see a1's window on the true board.
			before := chess.MustParseFEN(rec.FENBefore)
			if got, want := r.senses[i], rbc.Sense(&before, chess.Square(0)); !slices.Equal(got, want) {
				t.Errorf("%v turn %d: sense result %v, want %v", c, i+1, got, want)
			}
			if rec.HasMove && r.moves[i] != rec.Taken {
				t.Errorf("%v turn %d: told of move %v, want the recorded %v", c, i+1, r.moves[i], rec.Taken)
			}
		}
	}
}

// TestFollowStopsWhenAsked: next stops the replay before the turn it
// refuses, and the decisions reported are those before it.
func TestFollowStopsWhenAsked(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	err = Follow(context.Background(), &recorder{}, h, chess.White, time.Minute, func(turn int) bool { return turn <= 2 },
		func(d Decision) {
			got = append(got, d.Turn)
			if d.Sense != chess.Square(0) || d.SenseAgrees() != (d.Record.Sense == chess.Square(0)) {
				t.Errorf("turn %d: sense %v, agrees %v with the record's %v", d.Turn, d.Sense, d.SenseAgrees(), d.Record.Sense)
			}
		})
	if err != nil || !slices.Equal(got, []int{1, 2}) {
		t.Errorf("decisions %v (%v), want turns 1 and 2", got, err)
	}
}

// TestCapture: lines at the level and above are kept as text without time
// and level, with the record's own attributes (not With's); With and
// WithGroup share the store; past the limit lines are counted, not kept;
// Take empties it.
func TestCapture(t *testing.T) {
	c := NewCapture(slog.LevelDebug, 3)
	log := slog.New(c).With("bot", "x")
	log.Debug("move chosen", "move", "e2e4", "next", "e2e4:12 d2d4:-3")
	log.WithGroup("g").Info("inner", "k", 1)
	slog.New(c.WithAttrs(nil)).Log(context.Background(), slog.LevelDebug-4, "too fine")
	entries, dropped := c.Take()
	if len(entries) != 2 || dropped != 0 {
		t.Fatalf("entries %+v, dropped %d", entries, dropped)
	}
	if e := entries[0]; e.Text != `move chosen move=e2e4 next="e2e4:12 d2d4:-3"` || e.Message != "move chosen" || e.Attrs["next"] != "e2e4:12 d2d4:-3" || e.Attrs["bot"] != "" {
		t.Errorf("first entry %+v", e)
	}
	if e := entries[1]; e.Text != "inner g.k=1" {
		t.Errorf("second entry %q", e.Text)
	}
	for i := range 5 {
		log.Debug("loop", "i", i)
	}
	if entries, dropped := c.Take(); len(entries) != 3 || dropped != 2 {
		t.Errorf("past the limit: %d entries, %d dropped; want 3 and 2", len(entries), dropped)
	}
	if entries, dropped := c.Take(); len(entries) != 0 || dropped != 0 {
		t.Errorf("after Take: %d entries, %d dropped", len(entries), dropped)
	}
}
