package main

import (
	"context"
	"io"
	"log/slog"
	"os"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
)

// runEngine serves a bot over the rbcp line protocol (docs/protocol.md) on
// standard input and output, so that harnesses in any language, and the
// reconchess bridge, can play Blindfish as a separate process.
func runEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("engine", "[--bot SPEC] [--seed N] [-v]\n\nSpeaks the rbcp line protocol (docs/protocol.md) on stdin and stdout.", stderr)
	bot := fs.String("bot", botspec.DefaultBot, "the bot to serve, a bot spec (the harness can change it with the bot option)")
	seed := fs.Int64("seed", 0, "seed of the bot's random choices (0: a new seed each game)")
	verbose := fs.Bool("v", false, "log the session's diagnostics to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	log := newLogger(stderr, slog.LevelWarn, *verbose)
	eng, err := botspec.Engine(*bot, *seed, log)
	if err != nil {
		return usageError{err.Error()}
	}
	return rbcp.Serve(ctx, os.Stdin, stdout, eng)
}
