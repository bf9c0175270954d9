package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// The offline sense benchmark: `blindfish belief --sense STRATEGY[,...]`.
//
// It replays recorded games through the exact belief from each player's side
// and, at every turn where the belief holds more than one board, asks each
// sense strategy where it would sense. For every window it counts the boards
// of the belief that show what the true board shows there: the size of the
// set that sense would leave. A strategy is scored by those sizes, against
// the sense the recorded player made and the best window in hindsight (the
// smallest size any window would leave; a strategy "matches" it when its
// window leaves no more boards). The game then goes on with the recorded
// sense and move, so every strategy is judged on the same turns. It ranks
// sense strategies in seconds or minutes instead of hours of games, but it
// sees only information, not the value of information for the next move:
// voi is expected to trade some set reduction for better moves.

// hasSenseFlag reports whether a belief command line asks for the sense
// benchmark (the hook in belief.go).
func hasSenseFlag(args []string) bool { return hasFlag(args, "sense") }

// hasFlag reports whether a command line sets the flag name (before any
// "--"), in any of the forms the flag package reads.
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--"+name || a == "-"+name || strings.HasPrefix(a, "--"+name+"=") || strings.HasPrefix(a, "-"+name+"=") {
			return true
		}
	}
	return false
}

// senseBenchConfig is a parsed sense-benchmark command line.
type senseBenchConfig struct {
	strategies []string
	budget     time.Duration
	maxBoards  int
	eval       evaluator.Kind
	engineCfg  engine.Config
	memoryMB   int
	workers    int
	seed       int64
	paths      []string // records, archives and folders of them (rbc.Records)
	logger     *slog.Logger
	progress   io.Writer // per-game lines; nil for none
	turnLog    io.Writer // per-turn lines; nil for none
}

// runSenseBench is `blindfish belief --sense ...`.
func runSenseBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief", "--sense STRATEGY[,STRATEGY...] [--time 1s] [--eval auto] [--depth N] [--memory-mb N] FILE|DIR...", stderr)
	senses := fs.String("sense", "", "sense strategies to compare, comma-separated, or 'all' ("+strings.Join(engine.SenseNames(), ", ")+")")
	budget := fs.Duration("time", 2*time.Second, "time budget of each sense decision")
	maxBoards := fs.Int("max-boards", 300000, "stop replaying a side once its belief holds more boards than this (random games explode)")
	evalName := fs.String("eval", "auto", "evaluator for strategies that score moves (voi): auto, stockfish or embedded")
	depth := fs.Int("depth", 0, "engine depth for move scoring (0: the player's default)")
	memoryMB := fs.Int("memory-mb", 1024, "memory budget of the exact belief in MiB")
	workers := fs.Int("workers", 0, "goroutines for belief work and evaluations (0: one per core)")
	seed := fs.Int64("seed", 1, "seed of the strategies' and the belief's random choices")
	quiet := fs.Bool("q", false, "no per-game progress lines on stderr")
	perTurn := fs.Bool("turns", false, "print a line per scored turn on stderr: belief size, what each window choice leaves, times")
	verbose := fs.Bool("v", false, "log the strategies' and the belief's details to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := senseBenchConfig{budget: *budget, maxBoards: *maxBoards, memoryMB: *memoryMB, workers: *workers, seed: *seed, engineCfg: engine.DefaultConfig()}
	if *senses == "all" {
		cfg.strategies = engine.SenseNames()
	} else {
		for s := range strings.SplitSeq(*senses, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if !slices.Contains(engine.SenseNames(), s) {
				return usageError{fmt.Sprintf("unknown sense strategy %q (have %s, or all)", s, strings.Join(engine.SenseNames(), ", "))}
			}
			cfg.strategies = append(cfg.strategies, s)
		}
	}
	if len(cfg.strategies) == 0 {
		return usageError{"--sense needs at least one strategy"}
	}
	if *budget <= 0 || *memoryMB <= 0 || *maxBoards <= 1 || *depth < 0 || *workers < 0 {
		return usageError{"--time, --memory-mb and --max-boards must be positive, --depth and --workers not negative"}
	}
	kind, err := evaluator.ParseKind(*evalName)
	if err != nil {
		return usageError{err.Error()}
	}
	cfg.eval = kind
	if *depth > 0 {
		cfg.engineCfg.Depth = *depth
		cfg.engineCfg.EmbeddedDepth = min(*depth, cfg.engineCfg.EmbeddedDepth)
	}
	if fs.NArg() == 0 {
		return usageError{"give recorded games: history files or folders of them"}
	}
	cfg.paths = fs.Args()
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	cfg.logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	if !*quiet {
		cfg.progress = stderr
	}
	if *perTurn {
		cfg.turnLog = stderr
	}
	res, err := senseBench(ctx, cfg)
	if res != nil {
		fmt.Fprintf(stdout, "sense benchmark: %d games, %d player-turns with more than one board (exact belief; %s per decision)\n",
			res.games, res.turns, *budget)
		if res.cut > 0 {
			fmt.Fprintf(stdout, "note: %d of %d sides stopped when the belief passed %d boards (%d turns left out)\n",
				res.cut, 2*res.games, cfg.maxBoards, res.cutTurns)
		}
		if res.missing > 0 {
			fmt.Fprintf(stdout, "warning: on %d turns the true board was not in the belief\n", res.missing)
		}
		if res.inexact > 0 {
			fmt.Fprintf(stdout, "note: on %d turns part of the belief waited in the backlog; sizes count the live boards\n", res.inexact)
		}
		if werr := res.table().write(stdout); werr != nil {
			return werr
		}
	}
	return err
}

// senseRow accumulates one row of the benchmark table.
type senseRow struct {
	name                 string
	turns                int
	after, bits, red     float64 // sums: boards left, log2 of boards left, share ruled out
	best                 int     // turns matching the hindsight-best window
	time                 time.Duration
	decisions, fallbacks int  // timed decisions; decisions that failed (counted as a pass)
	timed                bool // a strategy (decisions are timed), not a reference row
}

func (r *senseRow) add(before, after int, best bool) {
	r.turns++
	r.after += float64(after)
	r.bits += math.Log2(float64(max(after, 1)))
	r.red += 1 - float64(after)/float64(before)
	if best {
		r.best++
	}
}

// senseBenchResult is the benchmark's outcome.
type senseBenchResult struct {
	games, turns, inexact int
	missing               int      // turns whose true board was not in the belief
	cut, cutTurns         int      // sides stopped at --max-boards, and the turns they left out
	before                senseRow // the belief before sensing, for reference
	rows                  []*senseRow
	reference             []*senseRow // recorded, hindsight best
}

// table renders the result: one row per strategy, then the references.
func (r *senseBenchResult) table() *table {
	t := newTable([]string{"strategy", "turns", "boards after", "bits after", "reduction", "best window", "time/decision", "failed"},
		1, 2, 3, 4, 5, 6, 7)
	row := func(s *senseRow) {
		if s.turns == 0 {
			t.add(s.name, "0", "-", "-", "-", "-", "-", "-")
			return
		}
		n := float64(s.turns)
		timeCell, failed := "-", "-"
		if s.timed {
			timeCell = perTurn(s.time, s.decisions)
			failed = strconv.Itoa(s.fallbacks)
		}
		t.add(s.name, strconv.Itoa(s.turns), strconv.FormatFloat(s.after/n, 'f', 1, 64),
			strconv.FormatFloat(s.bits/n, 'f', 2, 64), strconv.FormatFloat(100*s.red/n, 'f', 1, 64)+"%",
			strconv.FormatFloat(100*float64(s.best)/n, 'f', 1, 64)+"%", timeCell, failed)
	}
	for _, s := range r.rows {
		row(s)
	}
	for _, s := range r.reference {
		row(s)
	}
	row(&r.before)
	return t
}

// senseBench runs the benchmark. It returns what it measured so far even
// when it stops early (ctx done).
func senseBench(ctx context.Context, cfg senseBenchConfig) (*senseBenchResult, error) {
	var eval evaluator.Evaluator
	if slices.Contains(cfg.strategies, "voi") {
		e, err := evaluator.Open(ctx, cfg.eval, evaluator.OpenConfig{Engines: cfg.workers, Logger: cfg.logger})
		if err != nil {
			return nil, fmt.Errorf("opening the evaluator: %w", err)
		}
		defer e.Close()
		eval = e
	}
	bench := engine.NewSenseBench(cfg.engineCfg, eval, cfg.workers, cfg.logger)
	strategies := make([]engine.SenseStrategy, len(cfg.strategies))
	res := &senseBenchResult{before: senseRow{name: "(no sense)"}}
	for i, name := range cfg.strategies {
		c := cfg.engineCfg
		s, err := engine.NewSenseStrategy(name, &c)
		if err != nil {
			return nil, err
		}
		strategies[i] = s
		res.rows = append(res.rows, &senseRow{name: name, timed: true})
	}
	recorded, hindsight := &senseRow{name: "(recorded sense)"}, &senseRow{name: "(hindsight best)"}
	res.reference = []*senseRow{recorded, hindsight}
	rngs := make([]*rand.Rand, len(strategies))
	for i := range rngs {
		rngs[i] = engine.NewRand(cfg.seed + int64(i))
	}
	for rec, err := range rbc.Records(cfg.paths...) {
		if err != nil {
			return res, err
		}
		h, err := rec.History()
		if err != nil {
			return res, err
		}
		f := rec.Name()
		res.games++
		for c := rbc.White; c <= rbc.Black; c++ {
			start := time.Now()
			n, err := benchSide(ctx, cfg, bench, strategies, rngs, h, c, res)
			if cfg.progress != nil {
				fmt.Fprintf(cfg.progress, "%s %s: %d turns in %s\n", rec.Base(), c, n, time.Since(start).Round(time.Millisecond))
			}
			if err != nil {
				return res, fmt.Errorf("%s, %s: %w", f, c, err)
			}
		}
	}
	return res, nil
}

// benchSide replays colour c of h and scores every strategy at each turn.
// It returns the number of turns scored.
func benchSide(ctx context.Context, cfg senseBenchConfig, bench *engine.SenseBench, strategies []engine.SenseStrategy,
	rngs []*rand.Rand, h *rbc.History, c rbc.Color, res *senseBenchResult) (int, error) {
	start, turns, err := sampler.Observations(h, c)
	if err != nil {
		return 0, err
	}
	s, err := sampler.New("exact", sampler.Options{MemoryBudget: int64(cfg.memoryMB) << 20, Workers: cfg.workers,
		Seed: uint64(cfg.seed), Logger: cfg.logger})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if err := s.HandleGameStart(ctx, c, start); err != nil {
		return 0, err
	}
	all := make([]rbc.Square, 64)
	for i := range all {
		all[i] = rbc.Square(i)
	}
	scored := 0
	for i := range turns {
		t := &turns[i]
		if err := t.Notice(ctx, s); err != nil {
			return scored, err
		}
		size := s.Size()
		if size.Boards+size.Deferred > cfg.maxBoards {
			res.cut++
			res.cutTurns += len(turns) - i
			if cfg.turnLog != nil {
				fmt.Fprintf(cfg.turnLog, "%s turn %d: %d boards: stopping this side\n", c, i+1, size.Boards+size.Deferred)
			}
			return scored, nil
		}
		if size.Boards > 1 {
			t0 := time.Now()
			left, err := windowSizes(ctx, s, &t.Before)
			countTime := time.Since(t0)
			if err != nil {
				return scored, err
			}
			n := size.Boards
			best := slices.Min(left[:])
			sizeOf := func(q rbc.Square) int {
				if !q.Valid() {
					return n
				}
				return left[q]
			}
			scored++
			res.turns++
			if !size.Exact {
				res.inexact++
			}
			if best == 0 {
				res.missing++
			}
			res.before.add(n, n, n == best)
			res.reference[0].add(n, sizeOf(t.Sense), sizeOf(t.Sense) == best)
			res.reference[1].add(n, best, true)
			moves := t.Before.MoveActions()
			var line strings.Builder
			if cfg.turnLog != nil {
				fmt.Fprintf(&line, "%s turn %d: %d boards (counted in %s); best %d, recorded %s leaves %d",
					c, i+1, n, countTime.Round(time.Millisecond), best, t.Sense, sizeOf(t.Sense))
			}
			for k, strat := range strategies {
				row := res.rows[k]
				view := bench.TurnView(i+1, c, s, slices.Clone(all), slices.Clone(moves), rngs[k], cfg.budget)
				dctx, cancel := context.WithTimeout(ctx, cfg.budget)
				t0 = time.Now()
				q, err := strat.ChooseSense(dctx, view)
				took := time.Since(t0)
				row.time += took
				cancel()
				row.decisions++
				if err != nil {
					if ctx.Err() != nil {
						return scored, ctx.Err()
					}
					row.fallbacks++
					q = rbc.NoSquare
				}
				row.add(n, sizeOf(q), sizeOf(q) == best)
				if cfg.turnLog != nil {
					fmt.Fprintf(&line, "; %s %s leaves %d (%s)", cfg.strategies[k], q, sizeOf(q), took.Round(time.Millisecond))
				}
			}
			if cfg.turnLog != nil {
				fmt.Fprintln(cfg.turnLog, line.String())
			}
		}
		if err := t.SenseWith(ctx, s, t.Sense); err != nil {
			return scored, err
		}
		if err := t.Move(ctx, s); err != nil {
			return scored, err
		}
	}
	return scored, nil
}

// windowSizes counts, for every window centre, the boards of the belief that
// show what the true board shows in that window. A board shows the same as
// the truth in a window iff the window avoids every square where the two
// boards differ, so one pass per board finds all 64 answers: the centres
// whose window meets no difference are the complement of the differences
// grown by one square in every direction.
func windowSizes(ctx context.Context, s sampler.Sampler, truth *rbc.Board) ([64]int, error) {
	per := make([][64]int, s.Workers())
	err := s.ForEach(ctx, func(w int, boards []rbc.Board, _ []float64) error {
		acc := &per[w]
		for i := range boards {
			for m := ^grow(differences(&boards[i], truth)); m != 0; {
				acc[m.PopFirst()]++
			}
		}
		return nil
	})
	var out [64]int
	if err != nil {
		return out, fmt.Errorf("counting window outcomes: %w", err)
	}
	for _, a := range per {
		for q := range out {
			out[q] += a[q]
		}
	}
	return out, nil
}

// differences returns the squares where a and b hold different contents.
func differences(a, b *rbc.Board) rbc.Bitboard {
	var d rbc.Bitboard
	for c := rbc.White; c <= rbc.Black; c++ {
		for t := rbc.Pawn; t <= rbc.King; t++ {
			d |= a.PiecesOf(c, t) ^ b.PiecesOf(c, t)
		}
	}
	return d
}

// grow adds to d every square next to one of its squares (the king step).
func grow(d rbc.Bitboard) rbc.Bitboard {
	const fileA, fileH rbc.Bitboard = 0x0101010101010101, 0x8080808080808080
	notA, notH := d&^fileA, d&^fileH
	return d | d<<8 | d>>8 | notH<<1 | notA>>1 | notH<<9 | notA<<7 | notH>>7 | notA>>9
}
