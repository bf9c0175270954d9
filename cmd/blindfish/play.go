package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/terminal"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// playConfig is a parsed play command line.
type playConfig struct {
	color         rbc.Color
	bot           string
	initial, incr time.Duration
	seed          int64
	out           string
	logger        *slog.Logger
	stderr        io.Writer // an external bot's stderr (nil: discarded)
}

// runPlay lets a person play one game against a bot in the terminal, under
// the referee and its clocks, so that anyone can feel how a bot plays. The
// game itself is protocol/terminal; this reads its flags and makes the bot.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return runPlayFrom(ctx, args, os.Stdin, stdout, stderr)
}

// runPlayFrom is runPlay reading the person's lines from stdin. A game
// played to its end returns nil (exit status 0) whatever its result, a
// resignation or the end of the input included; an error is a game that
// could not be played or saved.
func runPlayFrom(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "[--color white|black|random] [--bot SPEC] [--clock 900+5] [--seed S] [--out DIR]", stderr)
	color := fs.String("color", "white", "your colour: white, black or random")
	bot := fs.String("bot", "blindfish", "the bot you play against (a bot spec, as for match)")
	clock := fs.String("clock", "900+5", "each clock as INITIAL+INCREMENT in seconds")
	seed := fs.Int64("seed", 0, "seed of the bot's random choices (0: a random seed)")
	out := fs.String("out", "", "directory to save the game record in (\"\": not saved)")
	verbose := fs.Bool("v", false, "log the referee's and the bot's details to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	cfg := playConfig{bot: *bot, seed: *seed, out: *out, stderr: stderr}
	switch *color {
	case "random":
		cfg.color = rbc.Color(rand.IntN(2))
	default:
		c, err := rbc.ParseColor(*color)
		if err != nil {
			return usageError{err.Error()}
		}
		cfg.color = c
	}
	var err error
	if cfg.initial, cfg.incr, err = match.ParseClock(*clock); err != nil {
		return usageError{err.Error()}
	}
	if cfg.seed == 0 {
		cfg.seed = rand.Int64()
	}
	cfg.logger = newLogger(stderr, slog.LevelError, *verbose)
	_, err = playHuman(ctx, cfg, stdin, stdout)
	return err
}

// playHuman plays one game between a person reading in and writing to out
// and the bot cfg.bot (protocol/terminal), saves its record in cfg.out if
// set, and returns it.
func playHuman(ctx context.Context, cfg playConfig, in io.Reader, out io.Writer) (*rbc.History, error) {
	bot, err := botspec.NewResolver(cfg.stderr, "").NewPlayer(cfg.bot, cfg.seed)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	botspec.LimitMemory([]string{cfg.bot}, 1, cfg.initial)
	defer closePlayer(bot, cfg.logger)
	h, err := terminal.Play(ctx, terminal.Game{Color: cfg.color, Opponent: bot, OpponentName: cfg.bot,
		Initial: cfg.initial, Increment: cfg.incr, In: in, Out: out, Logger: cfg.logger})
	if err != nil {
		return nil, err
	}
	if cfg.out != "" {
		if err := os.MkdirAll(cfg.out, 0o755); err != nil {
			return h, fmt.Errorf("create the records directory: %w", err)
		}
		name := filepath.Join(cfg.out, match.RecordName(h.WhiteName, h.BlackName, cfg.seed, 0, 1))
		if err := rbc.SaveHistoryFile(name, h); err != nil {
			return h, err
		}
		fmt.Fprintf(out, "Game record saved to %s\n", name)
	}
	return h, nil
}
