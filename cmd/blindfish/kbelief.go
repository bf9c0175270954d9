package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/beliefbench"
)

// runKriegspielBelief is `blindfish belief kriegspiel ...` (and `blindfish
// belief --game kriegspiel ...`, its older form): Kriegspiel records
// followed from each side by the named beliefs (beliefbench.FollowRecords),
// with how often each held the true board.
func runKriegspielBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief kriegspiel", "[--view exact,aosp,los,hybrid] [--size N] [--limit N] [--color both] [--seed S] [--cut] [--cut-weighted] [--workers N] [--memory MiB] [--spill-dir DIR] FILE|DIR...", stderr)
	views := fs.String("view", "exact", "beliefs, comma-separated, or all ("+strings.Join(kriegspiel.ViewNames(), ", ")+")")
	size := fs.Int("size", 2000, "boards of the sampling beliefs")
	limit := fs.Int("limit", kriegspiel.DefaultBeliefLimit, "most boards of the exact belief (a turn past it stops that game)")
	color := fs.String("color", "both", "follow white, black or both")
	seed := fs.Uint64("seed", 1, "seed of the sampling beliefs' randomness")
	cut := fs.Bool("cut", false, "past --limit, keep following the exact belief with a sample of at most --limit boards")
	cutWeighted := fs.Bool("cut-weighted", false, "with --cut, keep a sample weighted by the opponent model rather than a uniform one")
	workers := fs.Int("workers", 1, "goroutines of the exact belief's updates")
	memory := fs.Int64("memory", 0, "MiB of the exact belief's boards kept in memory; the rest go to disk (0: all in memory)")
	spillDir := fs.String("spill-dir", "", "folder of the exact belief's spilled boards (the system's temporary folder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := beliefbench.FollowOptions{Size: *size, Limit: *limit, Seed: *seed,
		Cut: *cut, WeightedCut: *cutWeighted, Workers: *workers, Memory: *memory << 20, SpillDir: *spillDir}
	var err error
	if o.Views, err = beliefbench.ParseViews(*views); err != nil {
		return usageError{"--view " + err.Error()}
	}
	if o.Colors, err = chess.ParseSides(*color); err != nil {
		return usageError{"--color " + err.Error()}
	}
	if *size < 1 || *limit < 1 || *workers < 1 || *memory < 0 || fs.NArg() == 0 {
		return usageError{"--size, --limit and --workers must be positive, --memory not negative, and records are needed"}
	}
	err = beliefbench.WriteFollowed(ctx, stdout, fs.Args(), o)
	if errors.Is(err, beliefbench.ErrNotKriegspiel) {
		return fmt.Errorf("belief: %w (RBC records take belief without kriegspiel)", err)
	}
	if err != nil {
		return fmt.Errorf("belief: %w", err)
	}
	return nil
}
