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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// matchConfig is a parsed match command line.
type matchConfig struct {
	bot, opponent  string // the --white and --black specs
	games          int
	initial, incr  time.Duration
	seed           int64
	out            string // "" saves nothing
	concurrency    int
	alternate      bool
	moveLimit      int
	turnLimit      int
	logger         *slog.Logger
	progressWriter io.Writer
	results        *resultsLog // nil when nothing is saved
	sprt           *match.SPRT // nil: play every game
}

// runMatch plays games between two bots under the referee, saves each as a
// harness history, and ends with a win/draw/loss table: the everyday way to
// measure a bot against another.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("match", "--white BOT --black BOT [--games N] [--clock 900+5] [--seed S] [--out DIR] [--concurrency K] [--alternate] [--sprt ELO0,ELO1[,ALPHA,BETA]]\n       blindfish match --merge [--sprt ELO0,ELO1[,ALPHA,BETA]] DIR...", stderr)
	var names []string
	for _, b := range engine.Bots() {
		names = append(names, b.Name)
	}
	white := fs.String("white", "", "the bot playing White: a bot spec, name[:key=value,...] (bots: "+strings.Join(names, ", ")+
		`), "cmd:PROGRAM ARGS" for an rbcp engine, or build:REV[:BOTSPEC] for Blindfish built at a git commit`)
	black := fs.String("black", "", "the bot playing Black (a bot spec)")
	games := fs.Int("games", 1, "number of games (with --sprt, the most)")
	clock := fs.String("clock", "900+5", "each clock as INITIAL+INCREMENT in seconds (or Go durations: 2s+100ms)")
	seed := fs.Int64("seed", 1, "base of every game's seeds: the same seed replays the same games")
	out := fs.String("out", "games", `directory for the game records, named <white>-<black>-<seed>-<NNN>.json ("" saves nothing)`)
	concurrency := fs.Int("concurrency", 1, "games played at once")
	alternate := fs.Bool("alternate", false, "swap colours every other game (the table then shows each colour and both); default on when the two specs differ")
	merge := fs.Bool("merge", false, "print the merged table of the match folders given as arguments (their "+resultsLogName+" and histories) instead of playing")
	sprtFlag := fs.String("sprt", "", "stop as soon as a sequential probability ratio test over colour-swapped game pairs decides H0 elo=ELO0 against H1 elo=ELO1 (--white's Elo to --black's; ALPHA and BETA default to 0.05)")
	moveLimit := fs.Int("move-limit", 100, "draw after this many half-moves without capture or pawn move (0: none)")
	turnLimit := fs.Int("turn-limit", 0, "draw after this many full turns (0: none)")
	verbose := fs.Bool("v", false, "log the referee's warnings and details to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
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
		return runMerge(fs.Args(), stdout, sprt)
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	if *white == "" || *black == "" {
		return usageError{"--white and --black are required"}
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
	buildLog := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: min(level, slog.LevelInfo)}))
	for _, spec := range []*string{white, black} {
		c, err := canonicalSpec(ctx, *spec, buildLog)
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
	for _, spec := range []string{*white, *black} {
		if strings.HasPrefix(spec, buildPrefix) {
			// Start the build's engine once: a BOTSPEC that build does not
			// know fails here, not in every game.
			if err := probeBot(ctx, spec); err != nil {
				return usageError{err.Error()}
			}
			continue
		}
		p, err := newBot(spec, 0)
		if err != nil {
			return usageError{err.Error()}
		}
		closePlayer(p, nil)
	}
	cfg := matchConfig{
		bot: *white, opponent: *black, games: *games, initial: initial, incr: incr, seed: *seed,
		out: *out, concurrency: *concurrency, alternate: *alternate, moveLimit: *moveLimit, turnLimit: *turnLimit,
		logger:         slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})),
		progressWriter: stderr,
		sprt:           sprt,
	}
	if cfg.out != "" {
		if err := os.MkdirAll(cfg.out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
		cfg.results = newResultsLog(cfg.out)
	}

	results, stopped, err := playMatch(ctx, cfg)
	finished := 0
	for _, r := range results {
		if r != nil {
			finished++
		}
	}
	saved := ""
	if cfg.out != "" {
		saved = ", records in " + cfg.out
	}
	count := fmt.Sprintf("%d games", finished)
	switch {
	case stopped:
		count = fmt.Sprintf("%d games (of at most %d: stopped by the SPRT)", finished, cfg.games)
	case finished < cfg.games:
		count = fmt.Sprintf("%d of %d games finished", finished, cfg.games)
	}
	fmt.Fprintf(stdout, "%s vs %s: %s, clock %s+%s s, seed %d%s\n", cfg.bot, cfg.opponent, count,
		seconds(initial), seconds(incr), cfg.seed, saved)
	if werr := matchTable(cfg, results).write(stdout); werr != nil {
		return werr
	}
	if cfg.sprt != nil {
		if _, werr := fmt.Fprintln(stdout, sprtLine(*cfg.sprt, results, false)); werr != nil {
			return werr
		}
	}
	if err != nil {
		return err
	}
	if finished < cfg.games && !stopped {
		return fmt.Errorf("interrupted after %d of %d games", finished, cfg.games)
	}
	return nil
}

// playMatch plays the games on cfg.concurrency workers and returns them by
// game index (nil for games not finished: the context was done). The error
// reports a record that could not be saved, which stops the match.
//
// With an SPRT, every game that completes a pair updates the LLR, and once
// it crosses a bound the match stops: no game starts, and the games in play
// are abandoned (not saved, not counted: only finished games are), so that
// the verdict is not held up by a game that cannot change it much. stopped
// reports that.
func playMatch(ctx context.Context, cfg matchConfig) (results []*gameResult, stopped bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results = make([]*gameResult, cfg.games)
	bar := newProgressBar(cfg.progressWriter, cfg.games)
	bar.update(0, "")
	defer bar.finish()

	var (
		mu       sync.Mutex
		done     int
		wdl      [3]int
		pairs    match.Penta
		firstErr error
		wg       sync.WaitGroup
	)
	jobs := make(chan int)
	for range cfg.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := playMatchGame(ctx, cfg, i)
				mu.Lock()
				switch {
				case errors.Is(err, rbc.ErrAborted):
				case err != nil:
					if firstErr == nil {
						firstErr = err
					}
					cancel()
				default:
					results[i] = r
					done++
					wdl[score(r)]++
					pts := float64(wdl[0]) + float64(wdl[1])/2
					status := fmt.Sprintf("%s: +%d =%d -%d (%.1f%%)", cfg.bot, wdl[0], wdl[1], wdl[2], 100*pts/float64(done))
					if cfg.sprt != nil {
						if j := i ^ 1; j < len(results) && results[j] != nil {
							pairs[pairPoints(r, results[j])]++
						}
						llr := cfg.sprt.LLR(pairs)
						lo, hi := cfg.sprt.Bounds()
						status += fmt.Sprintf("  LLR %.2f (%.2f, %.2f)", llr, lo, hi)
						if cfg.sprt.Decide(llr) != match.Continue && !stopped {
							stopped = true
							cfg.logger.Debug("SPRT verdict", "pairs", pairs.Pairs(), "llr", llr, "verdict", cfg.sprt.Decide(llr).String())
							cancel()
						}
					}
					bar.update(done, status)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cfg.games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return results, stopped, firstErr
}

// playMatchGame plays and saves game i.
func playMatchGame(ctx context.Context, cfg matchConfig, i int) (*gameResult, error) {
	r := &gameResult{white: cfg.bot, black: cfg.opponent, botColor: rbc.White,
		clock: seconds(cfg.initial) + "+" + seconds(cfg.incr), timed: true}
	botSeed, oppSeed := deriveSeed(cfg.seed, i, 0), deriveSeed(cfg.seed, i, 1)
	whiteSeed, blackSeed := botSeed, oppSeed
	if cfg.alternate && i%2 == 1 {
		r.white, r.black, r.botColor = cfg.opponent, cfg.bot, rbc.Black
		whiteSeed, blackSeed = oppSeed, botSeed
	}
	r.dir, r.seed, r.game, r.numbered = cfg.out, cfg.seed, i, true
	wp, err := newBot(r.white, whiteSeed)
	if err != nil {
		return nil, err
	}
	defer closePlayer(wp, cfg.logger)
	bp, err := newBot(r.black, blackSeed)
	if err != nil {
		return nil, err
	}
	defer closePlayer(bp, cfg.logger)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = cfg.initial, cfg.incr
	opts.MoveLimit, opts.TurnLimit = cfg.moveLimit, cfg.turnLimit
	opts.WhiteName, opts.BlackName = r.white, r.black
	opts.Logger = cfg.logger
	res, err := rbc.PlayLocalGame(ctx, wp, bp, opts)
	if err != nil {
		return nil, err
	}
	h := res.History
	r.outcome, r.used = h.Outcome, res.Used
	r.turns = [2]int{len(h.Turns[rbc.White]), len(h.Turns[rbc.Black])}
	cfg.logger.Debug("game over", "game", i, "white", r.white, "black", r.black, "outcome", h.Outcome.String())
	if cfg.out != "" {
		name := recordName(r.white, r.black, cfg.seed, i, cfg.games)
		if err := rbc.SaveHistoryFile(filepath.Join(cfg.out, name), h); err != nil {
			return nil, err
		}
		r.record = name
		if err := cfg.results.append(r.line(cfg.seed, i, time.Now())); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// recordName is "<white>-<black>-<seed>-<NNN>.json", with characters that
// do not belong in file names replaced by '_'.
func recordName(white, black string, seed int64, i, games int) string {
	digits := max(3, len(strconv.Itoa(games-1)))
	return fmt.Sprintf("%s-%s-%d-%0*d.json", fileSafe(white), fileSafe(black), seed, digits, i)
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '=', r == '+':
			return r
		}
		return '_'
	}, s)
}

// deriveSeed gives game i's seed for a role (0 the --white bot, 1 the
// other) from the match seed, so games differ yet each replays alone.
func deriveSeed(seed int64, i, role int) int64 {
	x := uint64(seed) ^ splitmix64(uint64(i)<<1|uint64(role))
	return int64(splitmix64(x))
}

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
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

// seconds shows d in seconds as the --clock flag takes it ("900", "0.5").
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

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
