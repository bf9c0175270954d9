package main

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/record"
)

// runAnalyze replays a recorded game through a bot on one side, the game
// the record's (game.Of). In RBC the bot gets every observation that side
// got, is asked at each turn where it would sense and what it would move,
// is shown what its own window holds on the recorded true board, and is
// then told of the recorded move's result, so the game stays the recorded
// one; in invisible chess it is asked its tries, beside the side's belief.
// It prints the two side by side and how often they agree. With -v the
// bot's own decision logs go to stderr for the turns shown: why a game was
// lost.
//
// With --swings no bot is asked: the true board before every move is scored
// by an engine and the course of the game printed, the swings of at least
// --swing centipawns marked: where to look first.
func runAnalyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("analyze", "--color white|black [--bot SPEC] [--from N] [--to N] [--clock D] [-v] GAME.json|ARCHIVE.tar.gz:GAME.json\n       blindfish analyze --swings [--swing CP] [--depth N] [--engine auto|stockfish|embedded] GAME.json", stderr)
	bot := fs.String("bot", "blindfish", "the bot to ask (a bot spec of the record's game, as in match)")
	colorFlag := fs.String("color", "", "the side the bot takes: white or black (required)")
	from := fs.Int("from", 1, "first turn to show (the bot still follows the game from the start)")
	to := fs.Int("to", 0, "last turn to show and ask (0: to the end)")
	botClock := botClockFlag(fs)
	seed := fs.Int64("seed", 1, "the bot's random seed")
	verbose := fs.Bool("v", false, "log the bot's decisions on the turns shown to stderr")
	swings := fs.Bool("swings", false, "ask no bot: score the true board before every move with an engine and mark the swings")
	swing := fs.Int("swing", 200, "with --swings: the least change of the score, in centipawns, marked as a swing")
	depth := fs.Int("depth", 12, "with --swings: the engine's search depth")
	engineKind := fs.String("engine", "auto", "with --swings: auto (Stockfish if found, else embedded), stockfish or embedded")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"give exactly one game record"}
	}
	if *swings {
		if *swing <= 0 || *depth <= 0 {
			return usageError{"--swing and --depth must be positive"}
		}
		kind, err := evaluator.ParseKind(*engineKind)
		if err != nil {
			return usageError{err.Error()}
		}
		h, err := record.LoadHistoryFile(fs.Arg(0))
		if err != nil {
			return err
		}
		ev, err := evaluator.Open(ctx, kind, evaluator.OpenConfig{Engines: 1, Logger: newLogger(stderr, slog.LevelWarn, false)})
		if err != nil {
			return err
		}
		defer ev.Close()
		return analysis.WriteSwings(ctx, stdout, ev, fs.Arg(0), h, *depth, *swing)
	}
	color, err := chess.ParseColor(*colorFlag)
	if err != nil {
		return usageError{"--color must be white or black"}
	}
	left, err := botClock()
	if err != nil {
		return err
	}
	if *from < 1 || (*to != 0 && *to < *from) {
		return usageError{"need 1 ≤ --from ≤ --to"}
	}
	rec, err := record.LoadRecord(fs.Arg(0))
	if err != nil {
		return err
	}
	g, _ := game.Of(rec) // never an error: a record no other game owns is RBC's
	level := &slog.LevelVar{}
	level.Set(slog.LevelWarn)
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	err = g.Analyze(ctx, stdout, rec, game.Analysis{Bot: *bot, Seed: *seed, Logger: log, Table: analysis.Table{Game: fs.Arg(0), Bot: *bot, Color: color, Left: left,
		From: *from, To: *to, Shown: func(shown bool) {
			if shown && *verbose {
				level.Set(slog.LevelDebug)
			} else {
				level.Set(slog.LevelWarn)
			}
		}}})
	if errors.Is(err, game.ErrBadBot) {
		return usageError{err.Error()}
	}
	return err
}
