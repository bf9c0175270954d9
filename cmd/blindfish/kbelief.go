package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// runKriegspielBelief is `blindfish belief --game kriegspiel ...`: Kriegspiel
// records followed from each side by the named beliefs, with how often each
// held the true board.
func runKriegspielBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief", "--game kriegspiel [--view exact,aosp,los,hybrid] [--size N] [--limit N] [--color both] [--seed S] FILE|DIR...", stderr)
	fs.String("game", "kriegspiel", "kriegspiel (RBC records take the other flags of belief)")
	views := fs.String("view", "exact", "beliefs, comma-separated, or all ("+strings.Join(kriegspiel.ViewNames(), ", ")+")")
	size := fs.Int("size", 2000, "boards of the sampling beliefs")
	limit := fs.Int("limit", kriegspiel.DefaultBeliefLimit, "most boards of the exact belief (a turn past it stops that game)")
	color := fs.String("color", "both", "follow white, black or both")
	seed := fs.Uint64("seed", 1, "seed of the sampling beliefs' randomness")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	names := strings.Split(*views, ",")
	if *views == "all" {
		names = kriegspiel.ViewNames()
	}
	for _, n := range names {
		if !slices.Contains(kriegspiel.ViewNames(), n) {
			return usageError{fmt.Sprintf("--view %q: want %s or all", n, strings.Join(kriegspiel.ViewNames(), ", "))}
		}
	}
	colors, err := parseColors(*color)
	if err != nil {
		return usageError{err.Error()}
	}
	if *size < 1 || *limit < 1 || fs.NArg() == 0 {
		return usageError{"--size and --limit must be positive, and records are needed"}
	}
	type total struct{ games, stopped, turns, present, maxBoards int }
	totals := make([]total, len(names))
	fmt.Fprintf(stdout, "%-40s %-6s %-7s %6s %8s %10s %10s  %s\n", "game", "side", "belief", "turns", "recall", "max boards", "ms/turn", "stopped")
	for rec, err := range rbc.Records(fs.Args()...) {
		if err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if !kriegspiel.IsRecord(rec.Data) {
			return fmt.Errorf("belief: %s is not a Kriegspiel record (leave out --game for RBC records)", rec.Name())
		}
		kr, err := kriegspiel.ReadRecord(bytes.NewReader(rec.Data))
		if err != nil {
			return fmt.Errorf("belief: %s: %w", rec.Name(), err)
		}
		start, err := rbc.ParseFEN(kr.StartFEN)
		if err != nil {
			return fmt.Errorf("belief: %s: %w", rec.Name(), err)
		}
		for k, name := range names {
			for _, c := range colors {
				n := *size
				if name == "exact" {
					n = *limit
				}
				v, err := kriegspiel.NewView(name, c, kr.Ruleset, start, kr.PawnTries, n, rand.New(rand.NewPCG(*seed, uint64(c))))
				if err != nil {
					return usageError{err.Error()}
				}
				st, err := kriegspiel.Follow(ctx, kr, c, v)
				if err != nil {
					return fmt.Errorf("belief: %s: %w", rec.Name(), err)
				}
				stopped := "-"
				if st.Stopped != nil {
					stopped = fmt.Sprintf("at turn %d: %s", st.StoppedAt+1, stopReason(st.Stopped))
					totals[k].stopped++
				}
				ms := "-"
				if st.Turns > 0 {
					ms = strconv.FormatFloat(float64(st.Took.Microseconds())/1e3/float64(st.Turns), 'f', 2, 64)
				}
				fmt.Fprintf(stdout, "%-40s %-6s %-7s %6d %8s %10d %10s  %s\n", shorten(rec.Base(), 40), c, name, st.Turns,
					percent(st.Present, st.Turns), st.MaxBoards, ms, stopped)
				t := &totals[k]
				t.games++
				t.turns += st.Turns
				t.present += st.Present
				t.maxBoards = max(t.maxBoards, st.MaxBoards)
			}
		}
	}
	for k, name := range names {
		t := totals[k]
		fmt.Fprintf(stdout, "%s: %d games followed (%d stopped early), %d turns, the true board held at %s of them, at most %d boards\n",
			name, t.games, t.stopped, t.turns, percent(t.present, t.turns), t.maxBoards)
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
