package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/engine/sensebench"
	"github.com/blindfish-rbc/blindfish/evaluator"
)

// The offline sense benchmark's command line: `blindfish belief sense
// --strategies STRATEGY[,...]`. The benchmark itself (what it replays and how
// it scores a window) is engine/sensebench; this file reads its flags and
// prints its table.

// runSenseBench is `blindfish belief sense ...` (and `blindfish belief
// --sense STRATEGIES ...`, its older form).
func runSenseBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief sense", "--strategies STRATEGY[,STRATEGY...] [--time 1s] [--eval auto] [--depth N] [--memory-mb N] FILE|DIR...", stderr)
	senses := fs.String("strategies", "", "sense strategies to compare, comma-separated, or 'all' ("+strings.Join(engine.SenseNames(), ", ")+")")
	budget := fs.Duration("time", 2*time.Second, "time budget of each sense decision")
	maxBoards := fs.Int("max-boards", 300000, "stop replaying a side once its belief holds more boards than this (random games explode)")
	evalName := fs.String("eval", "auto", "evaluator for strategies that score moves (voi): auto, stockfish or embedded")
	depth := fs.Int("depth", 0, "engine depth for move scoring (0: the player's default)")
	memoryMB := fs.Int("memory-mb", 1024, "memory budget of the exact belief in MiB")
	workers := fs.Int("workers", 0, "goroutines for belief work and evaluations (0: one per core)")
	seed := fs.Int64("seed", 1, "seed of the strategies' and the belief's random choices")
	quiet := fs.Bool("q", false, "no per-game progress lines on stderr")
	perTurnLines := fs.Bool("turns", false, "print a line per scored turn on stderr: belief size, what each window choice leaves, times")
	verbose := fs.Bool("v", false, "log the strategies' and the belief's details to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := sensebench.Config{Budget: *budget, MaxBoards: *maxBoards, MemoryMB: *memoryMB, Workers: *workers, Seed: *seed, Engine: engine.DefaultConfig()}
	var err error
	if cfg.Strategies, err = engine.ParseSenseNames(*senses); err != nil {
		return usageError{err.Error()}
	}
	if len(cfg.Strategies) == 0 {
		return usageError{"--strategies needs at least one strategy"}
	}
	if *budget <= 0 || *memoryMB <= 0 || *maxBoards <= 1 || *depth < 0 || *workers < 0 {
		return usageError{"--time, --memory-mb and --max-boards must be positive, --depth and --workers not negative"}
	}
	kind, err := evaluator.ParseKind(*evalName)
	if err != nil {
		return usageError{err.Error()}
	}
	cfg.Eval = kind
	if *depth > 0 {
		cfg.Engine.Depth = *depth
		cfg.Engine.EmbeddedDepth = min(*depth, cfg.Engine.EmbeddedDepth)
	}
	if fs.NArg() == 0 {
		return usageError{"give recorded games: history files or folders of them"}
	}
	cfg.Paths = fs.Args()
	cfg.Logger = newLogger(stderr, slog.LevelError, *verbose)
	if !*quiet {
		cfg.Progress = stderr
	}
	if *perTurnLines {
		cfg.TurnLog = stderr
	}
	res, err := sensebench.Run(ctx, cfg)
	if res != nil {
		if werr := res.WriteText(stdout, cfg); werr != nil {
			return werr
		}
	}
	return err
}
