package analysis

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Table is what WriteFollow shows of a game followed by a bot.
type Table struct {
	Game string // the record's name, for the heading
	Bot  string // the bot's spec, for the heading
	// Color is the bot's side; Left the clock it is told it has at every
	// turn.
	Color chess.Color
	Left  time.Duration
	// From and To are the first and last turns shown (To 0: to the end);
	// the bot still follows the game from the start, and is not asked past
	// To.
	From, To int
	// Shown, if set, is told before each turn whether it is shown: how
	// to log the bot's decisions on those turns only.
	Shown func(bool)
}

// WriteFollow follows h with p (Follow) and prints, as `blindfish analyze`
// does, a row per turn shown: the recorded sense and move next to the
// bot's, its choices that differ marked with *, and at the end how often
// they agreed.
func WriteFollow(ctx context.Context, w io.Writer, p rbc.Player, h *rbc.History, t Table) error {
	fmt.Fprintf(w, "game: %s (%s vs %s, %s)\n", t.Game, h.WhiteName, h.BlackName, h.Outcome)
	fmt.Fprintf(w, "bot:  %s as %s, told %v left each turn\n\n", t.Bot, t.Color, t.Left)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\tsensed\tbot senses\tplayed\tbot moves\tbot took")
	var senseSame, moveSame, shown int
	err := Follow(ctx, p, h, t.Color, t.Left, func(turn int) bool {
		if t.Shown != nil {
			t.Shown(turn >= t.From && (t.To == 0 || turn <= t.To))
		}
		return t.To == 0 || turn <= t.To
	}, func(d Decision) {
		if d.Turn < t.From {
			return
		}
		shown++
		if d.SenseAgrees() {
			senseSame++
		}
		played, moved := "-", "-"
		if d.Record.HasMove {
			played, moved = MoveText(d.Record.Requested), MoveText(d.Move)
			if d.Move == d.Record.Requested {
				moveSame++
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.2fs\n", d.Turn, d.Record.Sense, mark(d.Sense.String(), d.SenseAgrees()),
			played, mark(moved, d.MoveAgrees()), d.Took.Seconds())
	})
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if shown > 0 {
		fmt.Fprintf(w, "\nagreement over %d turns: sense %d (%.0f%%), move %d (%.0f%%)\n", shown,
			senseSame, 100*float64(senseSame)/float64(shown), moveSame, 100*float64(moveSame)/float64(shown))
	}
	return nil
}

// mark flags a choice that differs from the record.
func mark(s string, same bool) string {
	if same {
		return s
	}
	return s + " *"
}

// WriteSwings scores the true board before every move of h with ev at
// depth (Scores) and prints, as `blindfish analyze --swings` does, the
// course of the game, the moves that changed the score by swing
// centipawns or more marked with *. game names the record in the heading.
// What was scored is printed even when scoring stops with an error.
func WriteSwings(ctx context.Context, w io.Writer, ev evaluator.Evaluator, game string, h *rbc.History, depth, swing int) error {
	plies, err := Scores(ctx, ev, h, evaluator.Limits{Depth: depth})
	fmt.Fprintf(w, "game: %s (%s vs %s, %s)\n", game, h.WhiteName, h.BlackName, h.Outcome)
	fmt.Fprintf(w, "the true board after each move, %s at depth %d, centipawns from White's side; * a move that changed it by %d or more\n\n", ev.Name(), depth, swing)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\tside\tsensed\trequested\ttaken\tcapture\tscore\tchange\t")
	marked := 0
	for _, p := range plies {
		d := p.Swing()
		flag := ""
		if d >= swing || -d >= swing {
			flag = "*"
			marked++
		}
		capture := "-"
		if p.Record.Capture != chess.NoSquare {
			capture = p.Record.Capture.String()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%+d\t%+d\t%s\n", p.Turn, p.Color, p.Record.Sense, MoveText(p.Record.Requested),
			MoveText(p.Record.Taken), capture, p.After, d, flag)
	}
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	fmt.Fprintf(w, "\n%d moves scored, %d changed the score by %d cp or more\n", len(plies), marked, swing)
	return err
}
