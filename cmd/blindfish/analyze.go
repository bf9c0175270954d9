package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// runAnalyze replays a recorded game through a bot on one side: the bot gets
// every observation that side got, is asked at each turn where it would
// sense and what it would move, is shown what its own window holds on the
// recorded true board, and is then told of the recorded move's result, so
// the game stays the recorded one. It prints the two side by side and how
// often they agree. With -v the bot's own decision logs (the values
// behind each choice) go to stderr for the turns shown: the way to see why a
// game was lost.
func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyze", "--color white|black [--bot SPEC] [--from N] [--to N] [--clock D] [-v] GAME.json|ARCHIVE.tar.gz:GAME.json", stderr)
	bot := fs.String("bot", "blindfish", "the bot to ask (a bot spec, as in match)")
	colorFlag := fs.String("color", "", "the side the bot takes: white or black (required)")
	from := fs.Int("from", 1, "first turn to show (the bot still follows the game from the start)")
	to := fs.Int("to", 0, "last turn to show and ask (0: to the end)")
	clock := fs.String("clock", "60", "clock time the bot is told it has left at every turn (seconds or a duration)")
	seed := fs.Int64("seed", 1, "the bot's random seed")
	verbose := fs.Bool("v", false, "log the bot's decisions on the turns shown to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"give exactly one game record"}
	}
	color, err := rbc.ParseColor(*colorFlag)
	if err != nil {
		return usageError{"--color must be white or black"}
	}
	left, err := parseSeconds(*clock)
	if err != nil || left <= 0 {
		return usageError{fmt.Sprintf("bad --clock %q", *clock)}
	}
	if *from < 1 || (*to != 0 && *to < *from) {
		return usageError{"need 1 ≤ --from ≤ --to"}
	}
	h, err := rbc.LoadHistoryFile(fs.Arg(0))
	if err != nil {
		return err
	}
	level := &slog.LevelVar{}
	level.Set(slog.LevelWarn)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	p, err := analysisPlayer(*bot, *seed, log)
	if err != nil {
		return usageError{err.Error()}
	}
	defer closePlayer(p, log)

	fmt.Fprintf(stdout, "game: %s (%s vs %s, %s)\n", fs.Arg(0), h.WhiteName, h.BlackName, h.Outcome)
	fmt.Fprintf(stdout, "bot:  %s as %s, told %v left each turn\n\n", *bot, color, left)
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\tsensed\tbot senses\tplayed\tbot moves\tbot took")
	a := analysis{p: p, h: h, color: color, left: left}
	var senseSame, moveSame, shown int
	err = a.run(ctx, func(turn int) bool {
		show := turn >= *from && (*to == 0 || turn <= *to)
		if show && *verbose {
			level.Set(slog.LevelDebug)
		} else {
			level.Set(slog.LevelWarn)
		}
		return *to == 0 || turn <= *to
	}, func(d decision) {
		if d.turn < *from {
			return
		}
		shown++
		if d.sense == d.rec.Sense {
			senseSame++
		}
		played, moved := "-", "-"
		if d.rec.HasMove {
			played, moved = moveText(d.rec.Requested), moveText(d.move)
			if d.move == d.rec.Requested {
				moveSame++
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%.2fs\n", d.turn, d.rec.Sense, mark(d.sense.String(), d.sense == d.rec.Sense),
			played, mark(moved, !d.rec.HasMove || d.move == d.rec.Requested), d.took.Seconds())
	})
	if ferr := tw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if shown > 0 {
		fmt.Fprintf(stdout, "\nagreement over %d turns: sense %d (%.0f%%), move %d (%.0f%%)\n", shown,
			senseSame, 100*float64(senseSame)/float64(shown), moveSame, 100*float64(moveSame)/float64(shown))
	}
	return nil
}

// analysisPlayer builds the bot; the blindfish bot gets log, so that -v
// shows its decisions.
func analysisPlayer(spec string, seed int64, log *slog.Logger) (rbc.Player, error) {
	name, params, err := engine.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	if name != "blindfish" {
		return engine.NewPlayer(spec, seed)
	}
	cfg, err := engine.ParseConfig(params)
	if err != nil {
		return nil, err
	}
	return engine.NewBlindfish(cfg, engine.Options{Seed: seed, Logger: log})
}

// analysis feeds a recorded game to a player on one side.
type analysis struct {
	p     rbc.Player
	h     *rbc.History
	color rbc.Color
	left  time.Duration
}

// decision is what the player chose at one recorded turn.
type decision struct {
	turn  int
	rec   rbc.TurnRecord
	sense rbc.Square
	move  rbc.Move
	took  time.Duration
}

// run plays the recorded game to the player; before each turn it asks next
// whether to go on, and after each turn it reports the player's choices.
func (a *analysis) run(ctx context.Context, next func(turn int) bool, report func(decision)) error {
	start := rbc.StartBoard()
	opponent := a.h.BlackName
	if a.color == rbc.Black {
		opponent = a.h.WhiteName
	}
	if err := a.call(ctx, func(ctx context.Context) error {
		return a.p.HandleGameStart(ctx, a.color, start, opponent)
	}); err != nil {
		return fmt.Errorf("game start: %w", err)
	}
	theirs := a.h.Turns[a.color.Other()]
	for i, rec := range a.h.Turns[a.color] {
		turn := i + 1
		if !next(turn) {
			return nil
		}
		// The opponent's move before this turn (none before White's first).
		capture := rbc.NoSquare
		if j := i - 1 + int(a.color); j >= 0 && j < len(theirs) {
			capture = theirs[j].Capture
		}
		if err := a.call(ctx, func(ctx context.Context) error {
			return a.p.HandleOpponentMoveResult(ctx, capture != rbc.NoSquare, capture)
		}); err != nil {
			return fmt.Errorf("turn %d: opponent's move: %w", turn, err)
		}
		before, err := rbc.ParseFEN(rec.FENBefore)
		if err != nil {
			return fmt.Errorf("turn %d: the record's board: %w", turn, err)
		}
		actions := before.MoveActions()
		d := decision{turn: turn, rec: rec}
		began := time.Now()
		if err := a.call(ctx, func(ctx context.Context) (err error) {
			d.sense, err = a.p.ChooseSense(ctx, allSquares(), slices.Clone(actions), a.left)
			return err
		}); err != nil {
			return fmt.Errorf("turn %d: sense: %w", turn, err)
		}
		// The window the player chose, seen on the recorded true board: a
		// true fact of this game, so its belief stays consistent with the
		// recorded moves that follow.
		var result []rbc.SquarePiece
		if d.sense != rbc.NoSquare {
			result = before.Sense(d.sense)
		}
		if err := a.call(ctx, func(ctx context.Context) error {
			return a.p.HandleSenseResult(ctx, result)
		}); err != nil {
			return fmt.Errorf("turn %d: sense result: %w", turn, err)
		}
		if rec.HasMove {
			if err := a.call(ctx, func(ctx context.Context) (err error) {
				d.move, err = a.p.ChooseMove(ctx, slices.Clone(actions), a.left)
				return err
			}); err != nil {
				return fmt.Errorf("turn %d: move: %w", turn, err)
			}
		}
		d.took = time.Since(began)
		report(d)
		if !rec.HasMove {
			return nil
		}
		if err := a.call(ctx, func(ctx context.Context) error {
			return a.p.HandleMoveResult(ctx, rec.Requested, rec.Taken, rec.Capture != rbc.NoSquare, rec.Capture)
		}); err != nil {
			return fmt.Errorf("turn %d: move result: %w", turn, err)
		}
	}
	return nil
}

// call runs one callback with the clock the player was told it has as its
// deadline, as a referee would.
func (a *analysis) call(ctx context.Context, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, a.left)
	defer cancel()
	return f(ctx)
}

func allSquares() []rbc.Square {
	s := make([]rbc.Square, 64)
	for i := range s {
		s[i] = rbc.Square(i)
	}
	return s
}

func moveText(m rbc.Move) string {
	if m.IsNull() {
		return "pass"
	}
	return m.String()
}

// mark flags a choice that differs from the record.
func mark(s string, same bool) string {
	if same {
		return s
	}
	return s + " *"
}
