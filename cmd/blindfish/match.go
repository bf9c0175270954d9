package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/internal/peakmem"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/bots"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/report"
)

// runMatch plays games between two bots under the referee, saves each as a
// harness history, and ends with a win/draw/loss table: the everyday way to
// measure a bot against another.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "--white BOT --black BOT [--games N] [--clock 900+5] [--seed S] [--out DIR] [--concurrency K] [--alternate] [--sprt ELO0,ELO1[,ALPHA,BETA]] [--shard K/N] [--resume=false] [--archive] [--html FILE] [--index=false]\n       blindfish match --merge [--sprt ELO0,ELO1[,ALPHA,BETA]] [--archive] [--html FILE] DIR...\n       blindfish match --merge --ratings [--anchor BOT] [--prior N] [--html FILE] DIR...\n       blindfish match --archive DIR...", stderr)
	var names []string
	for _, b := range engine.Bots() {
		names = append(names, b.Name)
	}
	white := fs.String("white", "", "the bot playing White: a bot spec, name[:key=value,...] (bots: "+strings.Join(names, ", ")+
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
	game := fs.String("game", "rbc", "the game: rbc, or kriegspiel (bots: "+strings.Join(bots.Names(), ", ")+"; sampling takes samples=, depth=, eval=, belief=, size=, limit=, recover=; mcts takes boards=, c=, depth= and the belief settings)")
	ruleset := fs.String("ruleset", "wild16", "Kriegspiel's rules: "+strings.Join(kriegspiel.RulesetNames(), ", ")+" (optionally +chessdraws)")
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
		return runMerge(fs.Args(), stdout, stderr, sprt, rate, *htmlOut, *archive)
	case *htmlOut != "" && fs.NArg() > 0:
		return usageError{"--html without --merge writes the page of the match played (to see folders, add --merge)"}
	case *archive && fs.NArg() > 0 && *white == "" && *black == "":
		return archiveFolders(fs.Args(), stdout)
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
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	buildLog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: min(level, slog.LevelInfo)}))
	alternateSet := false
	fs.Visit(func(f *flag.Flag) { alternateSet = alternateSet || f.Name == "alternate" })
	if err := setupBots(ctx, &cfg, *white, *black, *game, *ruleset, !alternateSet, stderr, buildLog); err != nil {
		return err
	}
	return playMatch(ctx, cfg, matchOutput{sprtArg: *sprtFlag, archive: *archive, index: *index, html: *htmlOut}, stdout, stderr)
}

// matchOutput is what a match writes besides its records: the --sprt text
// (quoted in a shard's SPRT line), the archive, the folder's index page
// and the page of --html.
type matchOutput struct {
	sprtArg, html  string
	archive, index bool
}

// playMatch plays cfg's games with a progress bar on stderr (Go's memory
// limit set to the bots' bounds), then prints the match, its peak memory
// and its pages.
func playMatch(ctx context.Context, cfg match.Config, mo matchOutput, stdout, stderr io.Writer) error {
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
	}
	var memLimit int64
	if cfg.Referee == nil {
		memLimit = botspec.LimitMemory([]string{cfg.Bot, cfg.Opponent}, min(cfg.Concurrency, cfg.Shard.Count(cfg.Games)), cfg.Initial)
	}
	bar := match.NewProgressBar(stderr, cfg.Shard.Count(cfg.Games))
	cfg.OnProgress = func(p match.Progress) { bar.Update(p.Done, p.Status(cfg.Bot, cfg.SPRT)) }
	cfg.Notice = func(msg string) {
		bar.Clear() // the next update draws it again, below the message
		fmt.Fprintf(stderr, "blindfish match: %s\n", msg)
	}
	rep, err := match.Play(ctx, cfg)
	bar.Clear()
	if werr := rep.Write(stdout, &cfg, mo.sprtArg); werr != nil {
		return werr
	}
	if u := peakmem.Now(); u.OK {
		limit := ""
		if memLimit > 0 {
			limit = ", limit " + mib(memLimit) + ": the bots' bounds"
		}
		fmt.Fprintf(stdout, "peak memory: %s in this process (the referee and in-process bots%s), %s in its largest finished child (an engine; on Linux an upper bound)\n",
			mib(u.Self), limit, mib(u.Children))
	}
	err = errors.Join(err, finishMatch(&cfg, &rep, mo, stdout, stderr))
	if err == nil && rep.Interrupted() {
		return fmt.Errorf("interrupted after %d of %d games", rep.Finished()+len(rep.Void), rep.Scheduled)
	}
	return err
}

// setupBots makes the match's bots from their specs (canonical, checked
// once) into cfg: the RBC bots of botspec's resolver (whose builds and
// Python hosts talk on stderr), or a Kriegspiel referee's;
// defaultAlternate applies the default of --alternate.
func setupBots(ctx context.Context, cfg *match.Config, white, black, game, ruleset string, defaultAlternate bool, stderr io.Writer, buildLog *slog.Logger) error {
	// Pinned builds are resolved (and built, the first time) here, once for
	// the match; the records name them by commit.
	resolver := botspec.NewResolver(stderr, "")
	specs, err := resolver.CanonicalAll(ctx, buildLog, white, black)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return usageError{err.Error()}
	}
	cfg.Bot, cfg.Opponent, cfg.NewBot = specs[0], specs[1], resolver.NewPlayer
	if defaultAlternate {
		// Alternating is the fair default between two bots (White's edge
		// cancels out, and the "both" row carries the Elo estimate); a bot
		// against itself gains nothing from it.
		cfg.Alternate = cfg.Bot != cfg.Opponent
	}
	if cfg.SPRT != nil && (cfg.Bot == cfg.Opponent || !cfg.Alternate) {
		return usageError{"--sprt plays colour-swapped pairs: it needs two different bots and alternating colours"}
	}
	switch game {
	case "rbc":
		for _, spec := range specs {
			if err := resolver.Check(ctx, spec); err != nil {
				return usageError{err.Error()}
			}
		}
	case "kriegspiel":
		newBot := func(spec string, seed int64) (kriegspiel.Player, error) { return bots.New(spec, seed, cfg.Logger) }
		ref, err := match.NewKriegspielReferee(ruleset, newBot, specs...)
		if err != nil {
			return usageError{err.Error()}
		}
		cfg.Referee = ref
	default:
		return usageError{fmt.Sprintf("--game %q: want rbc or kriegspiel", game)}
	}
	return nil
}

// finishMatch does what follows a match's games: the archive of its
// records, then (once the records are where they stay) its folder's index
// page and the page of --html.
func finishMatch(cfg *match.Config, rep *match.Report, mo matchOutput, stdout, stderr io.Writer) error {
	var err error
	if mo.archive {
		path, n, aerr := rep.Archive(cfg)
		if aerr != nil {
			err = aerr
		} else if n > 0 {
			fmt.Fprintf(stdout, "%d records archived in %s\n", n, path)
		}
	}
	if cfg.Out != "" && mo.index {
		if path, perr := report.WriteFolderIndex(cfg.Out, cfg.SPRT); perr != nil {
			// The games are played and saved: a page that cannot be made
			// (an unreadable record of another session in the folder) is a
			// warning, not a failed match.
			fmt.Fprintf(stderr, "blindfish match: %s not written: %v\n", path, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", path)
		}
	}
	if mo.html != "" {
		lines := []string{rep.Count(cfg) + ", " + cfg.Setting()}
		if perr := report.WriteMatchFile(rep.Results, report.MatchOptions{Title: cfg.Bot + " vs " + cfg.Opponent,
			Lines: lines, SPRT: cfg.SPRT, Page: mo.html}); perr != nil {
			err = errors.Join(err, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", mo.html)
		}
	}
	return err
}

// recordName names a game's record as the match does (play saves its game
// under the same scheme).
func recordName(white, black string, seed int64, i, games int) string {
	return match.RecordName(white, black, seed, i, games)
}

// parseSeconds is match.ParseSeconds, as analyze and view read --clock.
func parseSeconds(s string) (time.Duration, error) { return match.ParseSeconds(s) }

// closePlayer releases what a player holds once its game is over (Trout's
// Stockfish, an external bot's process) if it has a Close method.
func closePlayer(p rbc.Player, log *slog.Logger) {
	c, ok := p.(io.Closer)
	if !ok {
		return
	}
	if err := c.Close(); err != nil && log != nil {
		log.Warn("closing a player", "err", err)
	}
}

// mib shows a byte count in MiB.
func mib(n int64) string { return strconv.FormatInt((n+(1<<19))>>20, 10) + " MiB" }

// archiveFolders packs the loose records of each folder into a new archive
// there (match.Archive) and says what it did.
func archiveFolders(dirs []string, stdout io.Writer) error {
	for _, dir := range dirs {
		path, n, err := match.Archive(dir, match.ArchiveName(match.Shard{}), nil)
		if err != nil {
			return err
		}
		if n == 0 {
			fmt.Fprintf(stdout, "%s: no loose records\n", dir)
			continue
		}
		fmt.Fprintf(stdout, "%s: %d records archived in %s\n", dir, n, path)
	}
	return nil
}
