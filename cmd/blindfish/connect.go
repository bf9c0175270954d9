package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/internal/shutdown"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// defaultServer is the public tournament server the reference client uses.
const defaultServer = "https://rbc.jhuapl.edu"

// runConnect plays on a reconchess tournament server as one user, the way
// the reference rc-connect does, but natively: Blindfish (or any bot spec)
// accepts the server's invitations and plays them, several at once.
// `connect kriegspiel ...` plays on kriegspiel.org instead (kconnect.go);
// `--game kriegspiel` anywhere in the arguments is its older spelling, kept
// for the scripts that use it.
func runConnect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	gameName, rest, hasGame := takeFlag(args, "game", true)
	subs := []command{{"kriegspiel", "play on kriegspiel.org", runKriegspielConnect}} // the other games' servers
	for _, c := range subs {
		switch {
		case len(args) > 0 && args[0] == c.name:
			return c.run(ctx, args[1:], stdout, stderr)
		case hasGame && gameName == c.name:
			return c.run(ctx, rest, stdout, stderr)
		}
	}
	if hasGame && gameName != game.Names()[0] {
		return usageError{fmt.Sprintf("--game %q: want %s", gameName, strings.Join(game.Names()[:1+len(subs)], " or "))}
	}
	args = rest
	fs := newFlagSet("connect", "--username NAME [--server URL] [--password-env VAR] [--ranked] [--max-games N] [--bot SPEC] [--out DIR]\n       blindfish connect kriegspiel --help (kriegspiel.org's flags; --game kriegspiel is the same)", stderr)
	serverURL := fs.String("server", defaultServer, "the tournament server's URL")
	username := fs.String("username", "", "the account's username (required)")
	passwordEnv := fs.String("password-env", "RBC_PASSWORD", "the environment variable holding the account's password")
	ranked := fs.Bool("ranked", false, "take part in ranked games (otherwise only games we are invited to by name)")
	newVersion := fs.Bool("new-version", false, "with --ranked: start a new version of the bot on the server's ranking")
	maxGames := fs.Int("max-games", 4, "games played at once")
	games := fs.Int("games", 0, "stop after this many games (0: play until interrupted)")
	bot := fs.String("bot", botspec.DefaultBot, `the bot that plays: a bot spec, or "cmd:PROGRAM ARGS" for an external engine`)
	out := fs.String("out", "games", `directory for the game records ("" saves nothing)`)
	poll := fs.Duration("poll", 5*time.Second, "pause between polls for invitations")
	anyVersion := fs.Bool("any-version", false, "play even if the server's reconchess version is not "+rbcclient.HarnessVersion)
	verbose := fs.Bool("v", false, "log every call and retry")
	if err := parseListenFlags(fs, args, username, maxGames, games, poll); err != nil {
		return err
	}
	password := os.Getenv(*passwordEnv)
	if password == "" {
		return usageError{fmt.Sprintf("set the password in the environment variable %s (or name another with --password-env)", *passwordEnv)}
	}
	bots := botspec.NewResolver(stderr, "")
	if err := bots.Probe(ctx, *bot); err != nil {
		return usageError{err.Error()}
	}
	botspec.LimitMemory([]string{*bot}, *maxGames, botspec.LongestClock)

	log := newLogger(stderr, slog.LevelInfo, *verbose)
	client, err := rbcclient.NewClient(rbcclient.Config{URL: *serverURL, Username: *username, Password: password, Logger: log})
	if err != nil {
		return usageError{err.Error()}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
	}

	gameCtx, abandon := shutdown.Games(ctx, log, "shutting down: setting unranked, finishing the running games (interrupt again to resign them)")
	defer abandon()

	tally := rbcclient.NewTally(*out, stdout, log)
	err = rbcclient.Listen(ctx, rbcclient.ListenConfig{
		Client: client,
		NewPlayer: func() (rbc.Player, error) {
			return bots.NewPlayer(*bot, rand.Int64())
		},
		Ranked:       *ranked,
		NewVersion:   *newVersion,
		AnyVersion:   *anyVersion,
		MaxGames:     *maxGames,
		StopAfter:    *games,
		PollInterval: *poll,
		GameContext:  gameCtx,
		OnGame:       tally.Record,
		Logger:       log,
	})
	tally.WriteSummary()
	if err != nil && ctx.Err() != nil {
		fmt.Fprintln(stderr, "blindfish connect: interrupted before connecting")
		return nil
	}
	return err
}

// parseListenFlags parses connect's flags (no arguments may be left over)
// and checks those that both games share: the account, how many games at
// once and in all, the pause between polls.
func parseListenFlags(fs *flag.FlagSet, args []string, username *string, maxGames, games *int, poll *time.Duration) error {
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	switch {
	case *username == "":
		return usageError{"--username is required"}
	case *maxGames < 1 || *games < 0 || *poll <= 0:
		return usageError{"--max-games must be at least 1, --games not negative, --poll positive"}
	}
	return nil
}
