package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/terminal"
	"github.com/blindfish-rbc/blindfish/rbc"
)

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
	g := terminal.Game{OpponentName: *bot, In: stdin, Out: stdout, Logger: newLogger(stderr, slog.LevelError, *verbose)}
	switch *color {
	case "random":
		g.Color = chess.Color(rand.IntN(2))
	default:
		c, err := chess.ParseColor(*color)
		if err != nil {
			return usageError{err.Error()}
		}
		g.Color = c
	}
	var err error
	if g.Initial, g.Increment, err = match.ParseClock(*clock); err != nil {
		return usageError{err.Error()}
	}
	if *seed == 0 {
		*seed = rand.Int64()
	}
	_, err = playHuman(ctx, g, *seed, *out, stderr)
	return err
}

// playHuman plays g (protocol/terminal) against the bot g.OpponentName
// names, seeded with seed (an external bot's stderr goes to stderr; nil
// discards it), saves its record in dir if set, and returns it.
func playHuman(ctx context.Context, g terminal.Game, seed int64, dir string, stderr io.Writer) (*rbc.History, error) {
	bot, err := botspec.NewResolver(stderr, "").NewPlayer(g.OpponentName, seed)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	botspec.LimitMemory([]string{g.OpponentName}, 1, g.Initial)
	defer match.ClosePlayer(bot, g.Logger)
	g.Opponent = bot
	h, err := terminal.Play(ctx, g)
	if err != nil || dir == "" {
		return h, err
	}
	name, err := match.SaveRecord(dir, h, seed)
	if err != nil {
		return h, err
	}
	fmt.Fprintf(g.Out, "Game record saved to %s\n", name)
	return h, nil
}
