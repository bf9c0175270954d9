package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/shutdown"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/bots"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

// runKriegspielConnect is `connect kriegspiel` (or `connect --game
// kriegspiel`): it plays Kriegspiel on kriegspiel.org as a bot. It
// registers one (--register), or plays its games with a bot of
// kriegspiel/bots, keeping a lobby game open and joining others' as told.
func runKriegspielConnect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("connect kriegspiel", "--username NAME [--url URL] [--token-env VAR] [--bot SPEC] [--rules LIST] [--create] [--join-open] [--join CODES] [--max-games N] [--games N] [--out DIR] | --register --username NAME --owner-email ADDR", stderr)
	serverURL := fs.String("url", kriegspielorg.DefaultURL, "the site's API")
	username := fs.String("username", "", "the bot's username on the site (required)")
	tokenEnv := fs.String("token-env", "KRIEGSPIEL_BOT_TOKEN", "the environment variable holding the bot's bearer token")
	register := fs.Bool("register", false, "register the bot and print its token")
	keyEnv := fs.String("key-env", "KRIEGSPIEL_BOT_REGISTRATION_KEY", "with --register: the environment variable holding the registration key, if the server wants one (kriegspiel.org does not: unset, none is sent)")
	email := fs.String("owner-email", "", "with --register: the owner's e-mail address")
	display := fs.String("display-name", "Blindfish", "with --register: the bot's display name")
	bot := fs.String("bot", "sampling", "the Kriegspiel bot that plays: "+strings.Join(bots.Names(), ", ")+" (sampling takes samples=, depth=, eval=, belief=, size=, limit=, recover=, movetime=; mcts takes boards=, c=, depth= and the same belief settings)")
	rules := fs.String("rules", "wild16", "the rulesets we play, comma-separated ("+strings.Join(kriegspiel.RulesetNames(), ", ")+"); our lobby games use the first")
	create := fs.Bool("create", false, "keep one lobby game of ours open")
	playAs := fs.String("play-as", "random", "our colour in the games we create: white, black or random")
	joinOpen := fs.Bool("join-open", false, "join other players' open lobby games of our rulesets")
	join := fs.String("join", "", "codes of games to join at the start, comma-separated")
	maxGames := fs.Int("max-games", 1, "games played at once")
	games := fs.Int("games", 0, "stop after this many games (0: play until interrupted)")
	out := fs.String("out", "games", `directory for the game records ("" saves nothing)`)
	poll := fs.Duration("poll", 2*time.Second, "pause between polls of our games and the lobby")
	verbose := fs.Bool("v", false, "log every call and retry")
	if err := parseListenFlags(fs, args, username, maxGames, games, poll); err != nil {
		return err
	}
	log := newLogger(stderr, slog.LevelInfo, *verbose)
	variants := strings.Split(*rules, ",")

	if *register {
		// kriegspiel.org registers bots without a key today; a server that
		// wants one (ksserver by default) answers 401 without it.
		key := os.Getenv(*keyEnv)
		if *email == "" {
			return usageError{"--register needs --owner-email"}
		}
		listed := true
		reg, err := kriegspielorg.Register(ctx, kriegspielorg.Config{URL: *serverURL, Logger: log}, key, kriegspielorg.BotProfile{
			Username: *username, DisplayName: *display, OwnerEmail: *email, Listed: &listed, Variants: variants,
			Description: "Blindfish: an exact belief over every board consistent with what it heard, moves scored by Stockfish.",
		})
		var se *kriegspielorg.StatusError
		if errors.As(err, &se) && se.Code == http.StatusUnauthorized && key == "" {
			return fmt.Errorf("%w (this server wants a registration key: set it in %s, or name another variable with --key-env)", err, *keyEnv)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "registered %s; keep its token secret and set it in %s:\n%s\n", reg.Username, *tokenEnv, reg.APIToken)
		return nil
	}

	token := os.Getenv(*tokenEnv)
	if token == "" {
		return usageError{fmt.Sprintf("set the bot's token in the environment variable %s (or name another with --token-env; --register gets one)", *tokenEnv)}
	}
	if err := bots.Check(*bot, log); err != nil {
		return usageError{err.Error()}
	}
	client, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: *serverURL, Token: token, Logger: log})
	if err != nil {
		return usageError{err.Error()}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
	}
	var codes []string
	if *join != "" {
		codes = strings.Split(*join, ",")
	}
	gameCtx, abandon := shutdown.Games(ctx, log, "shutting down: no new games, finishing the running ones (interrupt again to resign them)")
	defer abandon()

	tally := kriegspielorg.NewTally(*out, stdout, log)
	err = kriegspielorg.Listen(ctx, kriegspielorg.ListenConfig{
		Client: client, Username: *username, Variants: variants,
		NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) {
			return bots.New(*bot, rand.Int64(), log)
		},
		Create: *create, PlayAs: *playAs, JoinOpen: *joinOpen, Join: codes,
		MaxGames: *maxGames, StopAfter: *games, PollInterval: *poll,
		GameContext: gameCtx, OnGame: tally.Record, Logger: log,
	})
	tally.WriteSummary()
	if err != nil && ctx.Err() != nil {
		fmt.Fprintln(stderr, "blindfish connect: interrupted before connecting")
		return nil
	}
	return err
}
