package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// runKriegspielBelief is `blindfish belief kriegspiel ...` (and `blindfish
// belief --game kriegspiel ...`, its older form): Kriegspiel records
// followed from each side by the named beliefs (kriegspiel.FollowRecords),
// with how often each held the true board.
func runKriegspielBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief kriegspiel", "[--view exact,aosp,los,hybrid] [--size N] [--limit N] [--color both] [--seed S] [--cut] [--workers N] [--memory MiB] [--spill-dir DIR] FILE|DIR...", stderr)
	views := fs.String("view", "exact", "beliefs, comma-separated, or all ("+strings.Join(kriegspiel.ViewNames(), ", ")+")")
	size := fs.Int("size", 2000, "boards of the sampling beliefs")
	limit := fs.Int("limit", kriegspiel.DefaultBeliefLimit, "most boards of the exact belief (a turn past it stops that game)")
	color := fs.String("color", "both", "follow white, black or both")
	seed := fs.Uint64("seed", 1, "seed of the sampling beliefs' randomness")
	cut := fs.Bool("cut", false, "past --limit, keep following the exact belief with a sample of at most --limit boards")
	workers := fs.Int("workers", 1, "goroutines of the exact belief's updates")
	memory := fs.Int64("memory", 0, "MiB of the exact belief's boards kept in memory; the rest go to disk (0: all in memory)")
	spillDir := fs.String("spill-dir", "", "folder of the exact belief's spilled boards (the system's temporary folder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	o := kriegspiel.FollowOptions{Views: strings.Split(*views, ","), Size: *size, Limit: *limit, Seed: *seed,
		Cut: *cut, Workers: *workers, Memory: *memory << 20, SpillDir: *spillDir}
	if *views == "all" {
		o.Views = kriegspiel.ViewNames()
	}
	for _, n := range o.Views {
		if !slices.Contains(kriegspiel.ViewNames(), n) {
			return usageError{fmt.Sprintf("--view %q: want %s or all", n, strings.Join(kriegspiel.ViewNames(), ", "))}
		}
	}
	var err error
	if o.Colors, err = parseColors(*color); err != nil {
		return usageError{err.Error()}
	}
	if *size < 1 || *limit < 1 || *workers < 1 || *memory < 0 || fs.NArg() == 0 {
		return usageError{"--size, --limit and --workers must be positive, --memory not negative, and records are needed"}
	}
	type total struct{ games, stopped, turns, present, exact, cutPresent, maxBoards int }
	totals := map[string]*total{}
	for _, n := range o.Views {
		totals[n] = &total{}
	}
	fmt.Fprintf(stdout, "%-40s %-6s %-7s %6s %8s %6s %10s %10s %10s  %s\n", "game", "side", "belief", "turns", "recall", "exact", "cut recall",
		"max boards", "ms/turn", "stopped")
	for f, err := range kriegspiel.FollowRecords(ctx, fs.Args(), o) {
		if errors.Is(err, kriegspiel.ErrNotKriegspiel) {
			return fmt.Errorf("belief: %w (RBC records take belief without kriegspiel)", err)
		}
		if err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		st, t := f.Stats, totals[f.View]
		stopped := "-"
		if st.Stopped != nil {
			stopped = fmt.Sprintf("at turn %d: %s", st.StoppedAt+1, stopReason(st.Stopped))
			t.stopped++
		}
		ms := "-"
		if st.Turns > 0 {
			ms = strconv.FormatFloat(float64(st.Took.Microseconds())/1e3/float64(st.Turns), 'f', 2, 64)
		}
		fmt.Fprintf(stdout, "%-40s %-6s %-7s %6d %8s %6d %10s %10d %10s  %s\n", shorten(f.Record.Base(), 40), f.Color, f.View, st.Turns,
			percent(st.Present, st.Turns), st.Exact, percent(st.CutPresent, st.Turns-st.Exact), st.MaxBoards, ms, stopped)
		t.games++
		t.turns += st.Turns
		t.present += st.Present
		t.exact += st.Exact
		t.cutPresent += st.CutPresent
		t.maxBoards = max(t.maxBoards, st.MaxBoards)
	}
	for _, name := range o.Views {
		t := totals[name]
		fmt.Fprintf(stdout, "%s: %d games followed (%d stopped early), %d turns, the true board held at %s of them, at most %d boards\n",
			name, t.games, t.stopped, t.turns, percent(t.present, t.turns), t.maxBoards)
		if name == "exact" {
			fmt.Fprintf(stdout, "exact: %d turns exact (%s); after a cut the true board held at %s of %d turns\n",
				t.exact, percent(t.exact, t.turns), percent(t.cutPresent, t.turns-t.exact), t.turns-t.exact)
		}
	}
	return nil
}

// stopReason names why a belief stopped following a game.
func stopReason(err error) string {
	switch {
	case errors.Is(err, kriegspiel.ErrBeliefTooLarge):
		return "past the limit"
	case errors.Is(err, kriegspiel.ErrEmptyBelief):
		return "no board left"
	}
	return err.Error()
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}
