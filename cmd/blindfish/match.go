package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/report"
)

// runMatch plays games between two bots under the referee, saves each as a
// harness history, and ends with a win/draw/loss table: the everyday way to
// measure a bot against another.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "--white BOT --black BOT [--games N] [--clock 900+5] [--seed S] [--out DIR] [--concurrency K] [--alternate] [--sprt ELO0,ELO1[,ALPHA,BETA]] [--shard K/N] [--resume=false] [--archive] [--html FILE] [--index=false]\n       blindfish match --merge [--sprt ELO0,ELO1[,ALPHA,BETA]] [--archive] [--html FILE] DIR...\n       blindfish match --merge --ratings [--anchor BOT] [--prior N] [--html FILE] DIR...\n       blindfish match --archive DIR...", stderr)
	white := fs.String("white", "", "the bot playing White: a bot spec, name[:key=value,...] (bots: "+game.RBC{}.Bots()+
		`), "cmd:PROGRAM ARGS" for an rbcp engine, py:BOT.py or py:module.name for a reconchess bot in Python ($PYTHON, default python3), or build:REV[:BOTSPEC] for Blindfish built at a git commit`)
	black := fs.String("black", "", "the bot playing Black (a bot spec)")
	games := fs.Int("games", 1, "number of games (with --sprt, the most)")
	clock := fs.String("clock", "900+5", "each clock as INITIAL+INCREMENT in seconds (or Go durations: 2s+100ms)")
	seed := fs.Int64("seed", 1, "base of every game's seeds: the same seed replays the same games")
	out := fs.String("out", "games", `directory for the game records, named <white>-<black>-<seed>-<NNN>.json ("" saves nothing)`)
	concurrency := fs.Int("concurrency", 1, "games played at once")
	alternate := fs.Bool("alternate", false, "swap colours every other game (the table then shows each colour and both); default on when the two specs differ")
	merge := fs.Bool("merge", false, "print the merged table of the match folders given as arguments (their "+match.LogName+" and histories) instead of playing")
	sprtFlag := fs.String("sprt", "", "stop as soon as a sequential probability ratio test over colour-swapped game pairs decides H0 elo=ELO0 against H1 elo=ELO1 (--white's Elo to --black's; ALPHA and BETA default to 0.05)")
	moveLimit := fs.Int("move-limit", 100, "draw after this many half-moves without capture or pawn move (0: none)")
	turnLimit := fs.Int("turn-limit", 0, "draw after this many full turns (0: none)")
	shardFlag := fs.String("shard", "", "play only shard K of N of the schedule that --games and --seed fix: the games i with i mod N = K, each with the seeds, colours and record name it has in one run (so that N shards, on as many machines, merge with --merge into one run); with --sprt, the shard plays all its games and --merge --sprt gives the verdict")
	resume := fs.Bool("resume", true, "skip the games of the schedule that --out's results logs already hold (same seed, game number, bots, colours and clock), so that an interrupted match or shard plays only what is missing")
	verbose := fs.Bool("v", false, "log the referee's warnings and details to stderr")
	htmlOut := fs.String("html", "", "also write the match's page (table, plots of the score, the SPRT and the time per turn, the games with links to their records) to `FILE`; with --merge, the merged folders' page")
	index := fs.Bool("index", true, "at the end, write --out's index.html: the page of every game in the folder (made again by each match into it)")
	gameName := fs.String("game", game.Names()[0], game.Usage())
	option := game.OptionFlags(fs)
	archive := fs.Bool("archive", false, "at the end, pack the records the run saved in --out into one new compressed archive there (games.tar.gz, a shard's games.shard-K-of-N.tar.gz; -2, -3, ... when the name is taken) that every command reads as it reads loose records; with --merge, or with folders and no bots, pack the loose records of the folders given")
	ratings := fs.Bool("ratings", false, "with --merge, print the rating list instead of the table: one Elo scale fitted to every game of the folders by maximum likelihood, with 95% intervals (docs/matches.md)")
	anchor := fs.String("anchor", match.DefaultAnchor, "with --ratings, the bot rated 0 (when no game names it, the mean is 0)")
	prior := fs.Float64("prior", 1, "with --ratings, virtual draws of each bot against its group's mean, so that a bot that won or lost every game gets a finite rating (0: none)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var rate *match.RatingOptions
	if *ratings {
		if !*merge {
			return usageError{"--ratings rates the games of folders: add --merge"}
		}
		if *prior < 0 {
			return usageError{"--prior must be 0 or more"}
		}
		rate = &match.RatingOptions{Anchor: *anchor, Prior: *prior}
	}
	var sprt *match.SPRT
	if *sprtFlag != "" {
		s, err := match.ParseSPRT(*sprtFlag)
		if err != nil {
			return usageError{"--sprt: " + err.Error()}
		}
		sprt = &s
	}
	switch {
	case *merge:
		if fs.NArg() == 0 {
			return usageError{"--merge needs at least one folder"}
		}
		return report.Merge(fs.Args(), sprt, rate, report.Finish{Archive: *archive, Page: *htmlOut}, stdout, stderr)
	case *htmlOut != "" && fs.NArg() > 0:
		return usageError{"--html without --merge writes the page of the match played (to see folders, add --merge)"}
	case *archive && fs.NArg() > 0 && *white == "" && *black == "":
		return match.ArchiveFolders(fs.Args(), stdout, game.ReadResult)
	case fs.NArg() > 0:
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	case *white == "" || *black == "":
		return usageError{"--white and --black are required"}
	}
	cfg := match.Config{Games: *games, Seed: *seed, Out: *out, Concurrency: *concurrency, Alternate: *alternate,
		MoveLimit: *moveLimit, TurnLimit: *turnLimit, Resume: *resume, SPRT: sprt}
	if *shardFlag != "" {
		s, err := match.ParseShard(*shardFlag)
		if err != nil {
			return usageError{"--shard: " + err.Error()}
		}
		if *out == "" {
			return usageError{"--shard needs --out: the shards are merged from their folders"}
		}
		cfg.Shard = s
	}
	switch {
	case *archive && *out == "":
		return usageError{"--archive needs --out"}
	case *games < 1 || *concurrency < 1 || *moveLimit < 0 || *turnLimit < 0:
		return usageError{"--games and --concurrency must be at least 1, the limits not negative"}
	}
	var err error
	if cfg.Initial, cfg.Increment, err = match.ParseClock(*clock); err != nil {
		return usageError{err.Error()}
	}
	cfg.Logger = newLogger(stderr, slog.LevelError, *verbose)
	slog.SetDefault(newLogger(stderr, slog.LevelWarn, *verbose)) // the in-process bots' own lines: their problems, not each game
	buildLog := newLogger(stderr, slog.LevelInfo, *verbose)      // the builds of build:REV bots
	alternateSet := false
	fs.Visit(func(f *flag.Flag) { alternateSet = alternateSet || f.Name == "alternate" })
	g, err := game.Named(*gameName)
	if err != nil {
		return usageError{err.Error()}
	}
	p := game.Players{White: *white, Black: *black, Option: option(g), DefaultAlternate: !alternateSet,
		Resolver: botspec.NewResolver(stderr, ""), BuildLog: buildLog}
	if err := g.SetUp(ctx, &cfg, p); err != nil {
		if ctx.Err() != nil {
			return err
		}
		return usageError{err.Error()}
	}
	rep, err := match.Run(ctx, cfg, *sprtFlag, stdout, stderr)
	err = errors.Join(err, report.FinishMatch(&cfg, &rep, report.Finish{Archive: *archive, Index: *index, Page: *htmlOut}, stdout, stderr))
	if err == nil && rep.Interrupted() {
		return fmt.Errorf("interrupted after %d of %d games", rep.Finished()+len(rep.Void), rep.Scheduled)
	}
	return err
}
