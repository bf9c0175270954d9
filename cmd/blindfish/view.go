package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/sampler"
	"github.com/blindfish-rbc/blindfish/view"
)

// runView writes one self-contained HTML page that replays a recorded game
// with a player's belief drawn on the board (package view does the work;
// this only reads flags and reports). The record is parsed, and the belief
// replayed, before anything is written, and the page is written atomically,
// so a bad record never leaves a partial page behind.
func runView(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("view", "[--color white|black|both|none] [--sampler NAME] [--bot SPEC [--bot-color C] [--clock D]] [-o FILE.html] GAME.json|ARCHIVE.tar.gz:GAME.json", stderr)
	colorFlag := fs.String("color", "both", "whose belief to draw: white, black, both or none")
	samplerName := fs.String("sampler", "exact", "the belief `name` ("+strings.Join(sampler.Names(), ", ")+")")
	out := fs.String("o", "", "the page to write (default: the record's name with .html)")
	maxBoards := fs.Int("max-boards", view.DefaultMaxBoards, "count at most this many boards per belief; past it, count a sample of that many")
	budget := fs.Int64("budget", 96, "exact's memory budget in `MiB` (small, as the player's: update time grows with the set)")
	replay := fs.Int("replay", 1<<20, "exact's backlog replay work per observation, in `boards`")
	pool := fs.Int("pool", sampler.DefaultPoolSize, "pool size of the sampling beliefs")
	seed := fs.Uint64("seed", 1, "seed of the samplers, of the sampling past --max-boards and of the bot")
	bot := fs.String("bot", "", "a bot `spec` (as in match) to ask at every turn of its side where it would sense and what it would move; the page shows its choices, best moves and log next to what was played")
	botColor := fs.String("bot-color", "", "the side the bot takes: white or black (default: --color's side)")
	botClock := botClockFlag(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{"give exactly one game record"}
	}
	var colors []chess.Color
	switch *colorFlag {
	case "both":
		colors = []chess.Color{chess.White, chess.Black}
	case "none":
	default:
		c, err := chess.ParseColor(*colorFlag)
		if err != nil {
			return usageError{"--color must be white, black, both or none"}
		}
		colors = []chess.Color{c}
	}
	if _, err := sampler.New(*samplerName, sampler.Options{}); err != nil {
		return usageError{err.Error()}
	}
	if *maxBoards < 1 || *budget < 1 || *pool < 1 || *replay < 1 {
		return usageError{"--max-boards, --budget, --replay and --pool must be positive"}
	}
	var botOpts *view.BotOptions
	if *bot != "" {
		side := *botColor
		if side == "" && len(colors) == 1 {
			side = colors[0].String()
		}
		c, err := chess.ParseColor(side)
		if err != nil {
			return usageError{"--bot needs its side: --bot-color white or black (or --color white or black)"}
		}
		left, err := botClock()
		if err != nil {
			return err
		}
		if botOpts, err = view.NewBot(*bot, c, int64(*seed), left); err != nil {
			return usageError{err.Error()}
		}
		defer match.ClosePlayer(botOpts.Player, newLogger(stderr, slog.LevelWarn, false))
	} else if *botColor != "" {
		return usageError{"--bot-color without --bot"}
	}
	began := time.Now()
	path, turns, size, err := view.BuildFile(ctx, fs.Arg(0), *out, view.Options{
		Colors:  colors,
		Sampler: *samplerName,
		SamplerOptions: sampler.Options{
			MemoryBudget: *budget << 20,
			PoolSize:     *pool,
			MaxReplay:    *replay,
			Logger:       newLogger(stderr, slog.LevelWarn, false),
		},
		MaxBoards: *maxBoards,
		Seed:      *seed,
		Bot:       botOpts,
	}, game.PageOf)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d turns, %d KiB, made in %v\n", path, turns, (size+1023)/1024,
		time.Since(began).Round(time.Millisecond))
	return nil
}
