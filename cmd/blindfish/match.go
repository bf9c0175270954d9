package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
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
	if *merge {
		return runMerge(fs.Args(), stdout, stderr, sprt, rate, *htmlOut, *archive)
	}
	if *htmlOut != "" && fs.NArg() > 0 {
		return usageError{"--html without --merge writes the page of the match played (to see folders, add --merge)"}
	}
	if *archive && fs.NArg() > 0 && *white == "" && *black == "" {
		return archiveFolders(fs.Args(), stdout)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if *white == "" || *black == "" {
		return usageError{"--white and --black are required"}
	}
	var shard match.Shard
	if *shardFlag != "" {
		s, err := match.ParseShard(*shardFlag)
		if err != nil {
			return usageError{"--shard: " + err.Error()}
		}
		if *out == "" {
			return usageError{"--shard needs --out: the shards are merged from their folders"}
		}
		shard = s
	}
	if *archive && *out == "" {
		return usageError{"--archive needs --out"}
	}
	if *games < 1 || *concurrency < 1 || *moveLimit < 0 || *turnLimit < 0 {
		return usageError{"--games and --concurrency must be at least 1, the limits not negative"}
	}
	initial, incr, err := parseClock(*clock)
	if err != nil {
		return usageError{err.Error()}
	}
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	// Pinned builds are resolved (and built, the first time) here, once for
	// the match; the records name them by commit.
	resolver := botspec.NewResolver(os.Stderr, "")
	buildLog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: min(level, slog.LevelInfo)}))
	for _, spec := range []*string{white, black} {
		c, err := resolver.Canonical(ctx, *spec, buildLog)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			return usageError{err.Error()}
		}
		*spec = c
	}
	alternateSet := false
	fs.Visit(func(f *flag.Flag) { alternateSet = alternateSet || f.Name == "alternate" })
	if !alternateSet {
		// Alternating is the fair default between two bots (White's edge
		// cancels out, and the "both" row carries the Elo estimate); a bot
		// against itself gains nothing from it.
		*alternate = *white != *black
	}
	if sprt != nil && (*white == *black || !*alternate) {
		return usageError{"--sprt plays colour-swapped pairs: it needs two different bots and alternating colours"}
	}
	var referee match.Referee
	switch *game {
	case "rbc":
	case "kriegspiel":
		rules, err := kriegspiel.ParseRuleset(*ruleset)
		if err != nil {
			return usageError{"--ruleset: " + err.Error()}
		}
		klog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
		newBot := func(spec string, seed int64) (kriegspiel.Player, error) { return bots.New(spec, seed, klog) }
		for _, spec := range []string{*white, *black} {
			p, err := newBot(spec, 0)
			if err != nil {
				return usageError{err.Error()}
			}
			closePlayerAny(p)
		}
		referee = match.KriegspielReferee{Rules: rules, NewBot: newBot}
	default:
		return usageError{fmt.Sprintf("--game %q: want rbc or kriegspiel", *game)}
	}
	for _, spec := range []string{*white, *black} {
		if referee != nil {
			break // checked above
		}
		if strings.HasPrefix(spec, botspec.BuildPrefix) || strings.HasPrefix(spec, botspec.PyPrefix) {
			// Start the build's engine or the Python bot once: a BOTSPEC
			// that build does not know, or a bot that does not load, fails
			// here, not in every game.
			if err := resolver.Probe(ctx, spec); err != nil {
				return usageError{err.Error()}
			}
			continue
		}
		p, err := resolver.NewPlayer(spec, 0)
		if err != nil {
			return usageError{err.Error()}
		}
		closePlayer(p, nil)
	}
	cfg := match.Config{
		Bot: *white, Opponent: *black, Games: *games, Initial: initial, Increment: incr, Seed: *seed,
		Out: *out, Concurrency: *concurrency, Alternate: *alternate, MoveLimit: *moveLimit, TurnLimit: *turnLimit,
		Shard: shard, Resume: *resume, SPRT: sprt, NewBot: resolver.NewPlayer, Referee: referee,
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
	}
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
	}
	var memLimit int64
	if referee == nil {
		memLimit = limitMemory([]string{*white, *black}, min(*concurrency, shard.Count(cfg.Games)), initial)
	}
	bar := newProgressBar(stderr, shard.Count(cfg.Games))
	cfg.OnProgress = func(p match.Progress) { bar.update(p.Done, progressStatus(cfg, p)) }
	cfg.Notice = func(msg string) {
		bar.clear() // the next update draws it again, below the message
		fmt.Fprintf(stderr, "blindfish match: %s\n", msg)
	}
	rep, err := match.Play(ctx, cfg)
	bar.finish()

	finished, void := rep.Finished(), len(rep.Void)
	var notes []string
	count := fmt.Sprintf("%d games", finished)
	switch {
	case rep.Stopped:
		notes = append(notes, fmt.Sprintf("of at most %d: stopped by the SPRT", rep.Scheduled))
	case finished+void < rep.Scheduled:
		count = fmt.Sprintf("%d of %d games finished", finished, rep.Scheduled)
	}
	if void > 0 {
		notes = append(notes, fmt.Sprintf("and %d void: a bot failed, see errors", void))
	}
	if !shard.Whole() {
		notes = append(notes, fmt.Sprintf("shard %s of %d games", shard, cfg.Games))
	}
	if rep.Resumed > 0 {
		notes = append(notes, fmt.Sprintf("%d already in %s", rep.Resumed, cfg.Out))
	}
	if len(notes) > 0 {
		count += " (" + strings.Join(notes, "; ") + ")"
	}
	saved := ""
	if cfg.Out != "" {
		saved = ", records in " + cfg.Out
	}
	variant := ""
	if referee != nil {
		variant = referee.Variant() + ", "
	}
	fmt.Fprintf(stdout, "%s vs %s: %s, %sclock %s s, seed %d%s\n", cfg.Bot, cfg.Opponent, count, variant, cfg.Clock(), cfg.Seed, saved)
	table := match.MatchTable(cfg.Bot, cfg.Opponent, append(slices.Clone(rep.Results), rep.Void...))
	if werr := printTable(stdout, table); werr != nil {
		return werr
	}
	if cfg.SPRT != nil {
		line := match.SPRTLine(*cfg.SPRT, rep.Results, false)
		if !shard.Whole() {
			line = fmt.Sprintf("SPRT %s: not tested on one shard (its games do not form pairs); merge the shards' folders with --merge --sprt %s", cfg.SPRT, *sprtFlag)
		}
		if _, werr := fmt.Fprintln(stdout, line); werr != nil {
			return werr
		}
	}
	if u := peakmem.Now(); u.OK {
		limit := ""
		if memLimit > 0 {
			limit = ", limit " + mib(memLimit) + ": the bots' bounds"
		}
		fmt.Fprintf(stdout, "peak memory: %s in this process (the referee and in-process bots%s), %s in its largest finished child (an engine; on Linux an upper bound)\n",
			mib(u.Self), limit, mib(u.Children))
	}
	if *archive {
		// The records of the run's games (resumed ones too, if still loose).
		var names []string
		for i, r := range rep.Results {
			if r != nil {
				names = append(names, cfg.Game(i).Record)
			}
		}
		path, n, aerr := match.Archive(cfg.Out, match.ArchiveName(shard), names)
		if aerr != nil {
			err = errors.Join(err, aerr)
		} else if n > 0 {
			fmt.Fprintf(stdout, "%d records archived in %s\n", n, path)
		}
	}
	// The pages, once the records are where they stay (archived or not).
	if cfg.Out != "" && *index {
		path := filepath.Join(cfg.Out, indexName)
		if perr := writeFolderIndex(cfg.Out, path, cfg.SPRT); perr != nil {
			// The games are played and saved: a page that cannot be made
			// (an unreadable record of another session in the folder) is a
			// warning, not a failed match.
			fmt.Fprintf(stderr, "blindfish match: %s not written: %v\n", path, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", path)
		}
	}
	if *htmlOut != "" {
		lines := []string{fmt.Sprintf("%s, clock %s s, seed %d%s", count, cfg.Clock(), cfg.Seed, saved)}
		if perr := writeMatchPage(*htmlOut, cfg.Bot+" vs "+cfg.Opponent, lines, rep.Results, cfg.SPRT, false, nil); perr != nil {
			err = errors.Join(err, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", *htmlOut)
		}
	}
	if err != nil {
		return err
	}
	if finished+void < rep.Scheduled && !rep.Stopped {
		return fmt.Errorf("interrupted after %d of %d games", finished+void, rep.Scheduled)
	}
	return nil
}

// progressStatus is the text after the progress bar: the bot's +W =D -L and
// score, and the running LLR of an SPRT.
func progressStatus(cfg match.Config, p match.Progress) string {
	counted := p.Wins + p.Draws + p.Losses
	if counted == 0 && p.Void == 0 {
		return ""
	}
	s := fmt.Sprintf("%s: +%d =%d -%d", cfg.Bot, p.Wins, p.Draws, p.Losses)
	if counted > 0 {
		pts := float64(p.Wins) + float64(p.Draws)/2
		s += fmt.Sprintf(" (%.1f%%)", 100*pts/float64(counted))
	}
	if p.Void > 0 {
		s += fmt.Sprintf(" void %d", p.Void)
	}
	if p.HasLLR {
		lo, hi := cfg.SPRT.Bounds()
		s += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", p.LLR, lo, hi)
	}
	return s
}

// recordName names a game's record as the match does (play saves its game
// under the same scheme).
func recordName(white, black string, seed int64, i, games int) string {
	return match.RecordName(white, black, seed, i, games)
}

// parseClock reads INITIAL+INCREMENT: seconds ("900+5", "0.5+0") or Go
// durations ("2s+100ms"); without "+" the increment is 0.
func parseClock(s string) (initial, incr time.Duration, err error) {
	a, b, hasIncr := strings.Cut(s, "+")
	if initial, err = parseSeconds(a); err != nil || initial <= 0 {
		return 0, 0, fmt.Errorf("bad --clock %q: want INITIAL+INCREMENT in seconds with INITIAL > 0, e.g. 900+5", s)
	}
	if hasIncr {
		if incr, err = parseSeconds(b); err != nil || incr < 0 {
			return 0, 0, fmt.Errorf("bad --clock %q: the increment must be seconds, 0 or more", s)
		}
	}
	return initial, incr, nil
}

func parseSeconds(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f > 1e9 || f < -1e9 {
			return 0, fmt.Errorf("%s seconds is out of range", s)
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	return time.ParseDuration(s)
}

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

// closePlayerAny closes a player of any game that holds resources.
func closePlayerAny(p any) {
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
}

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
