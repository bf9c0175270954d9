package beliefbench

import (
	"context"
	"errors"
	"fmt"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ParseViews reads a list of belief names (ViewNames), comma-separated, or
// "all" for every one. An unknown name's error starts with the name,
// quoted, for the caller to put its flag before.
func ParseViews(s string) ([]string, error) {
	if s == "all" {
		return kriegspiel.ViewNames(), nil
	}
	views := strings.Split(s, ",")
	for _, n := range views {
		if !slices.Contains(kriegspiel.ViewNames(), n) {
			return nil, fmt.Errorf("%q: want %s or all", n, strings.Join(kriegspiel.ViewNames(), ", "))
		}
	}
	return views, nil
}

// WriteFollowed follows the records at paths with o's beliefs
// (FollowRecords) and prints, as `blindfish belief kriegspiel` shows it, a
// line per record, side and belief, then each belief's totals: games,
// those stopped early, turns, how often the true board was held and the
// largest belief. The error is FollowRecords' (ErrNotKriegspiel for an RBC
// record among paths).
func WriteFollowed(ctx context.Context, w io.Writer, paths []string, o FollowOptions) error {
	type total struct{ games, stopped, turns, present, exact, cutPresent, maxBoards int }
	totals := map[string]*total{}
	for _, n := range o.Views {
		totals[n] = &total{}
	}
	fmt.Fprintf(w, "%-40s %-6s %-7s %6s %8s %6s %10s %10s %10s  %s\n", "game", "side", "belief", "turns", "recall", "exact", "cut recall",
		"max boards", "ms/turn", "stopped")
	for f, err := range FollowRecords(ctx, paths, o) {
		if err != nil {
			return err
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
		fmt.Fprintf(w, "%-40s %-6s %-7s %6d %8s %6d %10s %10d %10s  %s\n", shorten(f.Record.Base(), 40), f.Color, f.View, st.Turns,
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
		_, err := fmt.Fprintf(w, "%s: %d games followed (%d stopped early), %d turns, the true board held at %s of them, at most %d boards\n",
			name, t.games, t.stopped, t.turns, percent(t.present, t.turns), t.maxBoards)
		if err != nil {
			return err
		}
		if name == "exact" {
			_, err := fmt.Fprintf(w, "exact: %d turns exact (%s); after a cut the true board held at %s of %d turns\n",
				t.exact, percent(t.exact, t.turns), percent(t.cutPresent, t.turns-t.exact), t.turns-t.exact)
			if err != nil {
				return err
			}
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

// percent shows n of of as a percentage, "-" for none.
func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}

// shorten keeps the last n characters of s, marking the cut with "…".
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n+1:]
}
