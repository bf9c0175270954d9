package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/sampler"
	"github.com/blindfish-rbc/blindfish/view"
)

// runPlay lets a person play a bot of any game in a browser: a page on
// the loopback interface (protocol/web), the game refereed here under the
// clocks, its record saved and its replay page opened at the end.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "[--game rbc|kriegspiel|invisible] [--color white|black|random] [--bot SPEC] [--clock 900+5] [--seed S] [--out DIR] [--listen 127.0.0.1:0] [--open=false] [--linger 10m]", stderr)
	gameName := fs.String("game", game.Names()[0], game.Usage())
	option := game.OptionFlags(fs)
	color := fs.String("color", "white", "your colour: white, black or random")
	bot := fs.String("bot", "", "the bot you play against, a bot spec as for match (default: blindfish for RBC, the first of the game's bots)")
	clock := fs.String("clock", "900+5", "each clock as INITIAL+INCREMENT in seconds")
	turnLimit := fs.Int("turn-limit", 0, "a draw after this many full turns (0: none)")
	seed := fs.Int64("seed", 0, "seed of the bot's random choices (0: a random seed)")
	out := fs.String("out", "games", "directory for the game record and its replay page")
	listen := fs.String("listen", "127.0.0.1:0", "the page's address: a loopback address, port 0 for any free one")
	linger := fs.Duration("linger", 10*time.Minute, "after the game, serve its replay page until it is read or this long")
	open := fs.Bool("open", true, "open the page in the default browser ($BROWSER, or xdg-open when a display is there)")
	verbose := fs.Bool("v", false, "log the referee's and the bot's details to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	g, err := game.Named(*gameName)
	if err != nil {
		return usageError{err.Error()}
	}
	wg := web.Game{Bot: *bot, TurnLimit: *turnLimit, Logger: newLogger(stderr, slog.LevelError, *verbose)}
	if wg.Bot == "" {
		wg.Bot = g.DefaultBot()
	}
	if wg.Color, err = chess.ParseColor(*color); *color == "random" {
		wg.Color, err = chess.Color(rand.IntN(2)), nil
	}
	if err != nil {
		return usageError{err.Error()}
	}
	if wg.Initial, wg.Increment, err = match.ParseClock(*clock); err != nil {
		return usageError{err.Error()}
	}
	if *seed == 0 {
		*seed = rand.Int64()
	}
	desk := web.NewDesk(g.Name(), wg.Color, wg.Bot)
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	srv, served, err := web.Host(ctx, *listen, desk, *open, stdout, stderr, wg.Logger)
	if err != nil {
		return usageError{err.Error()}
	}
	path, err := g.PlayPerson(ctx, desk, wg, game.Person{Bot: wg.Bot, Option: option(g), Dir: *out, Seed: *seed, Resolver: botspec.NewResolver(stderr, "")})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Game record saved to %s\n", path)
	page, _, _, err := view.BuildFile(ctx, path, "", view.Options{Sampler: "exact", Colors: []chess.Color{chess.White, chess.Black}, MaxBoards: view.DefaultMaxBoards, Seed: 1,
		SamplerOptions: sampler.Options{MemoryBudget: 96 << 20, PoolSize: sampler.DefaultPoolSize, MaxReplay: 1 << 20}}, game.PageOf)
	if err != nil {
		return fmt.Errorf("the replay page: %w", err)
	}
	fmt.Fprintf(stdout, "Replay: %s (the page opens it; Ctrl-C ends)\n", page)
	srv.ServeReplay(ctx, page, *linger)
	stop()
	<-served
	return nil
}
