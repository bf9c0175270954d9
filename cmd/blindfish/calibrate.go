package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/blindfish-rbc/blindfish/engine"
)

// runCalibrate is `blindfish belief calibrate` (and `blindfish belief
// --calibrate`, its older form): it measures the player's opponent model
// against recorded games (engine.PriorCalibration): how often the true board
// left material en prise or bore on our king, against the share of the
// belief that did.
func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief calibrate", "[--budget MiB] [--max-boards N] [--opponent NAME] FILE|DIR...", stderr)
	budget := fs.Int64("budget", 256, "exact's memory budget in `MiB`")
	maxBoards := fs.Int("max-boards", 2000000, "skip turns whose belief holds more boards than this (their scan is slow)")
	opponent := fs.String("opponent", "", "measure only the sides that played against the player of this `name` (as the records spell it), so that the model is that opponent's")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"no game records given (history files or folders of them)"}
	}
	cal := engine.NewPriorCalibration()
	games, records, err := cal.ObserveRecords(ctx, fs.Args(),
		engine.CalibrationOptions{MemoryBudget: *budget << 20, MaxBoards: *maxBoards, Opponent: *opponent})
	if err != nil {
		return err
	}
	if games == 0 {
		return fmt.Errorf("no record of a game against %q among %d", *opponent, records)
	}
	writeCalibration(stdout, cal, games, *opponent)
	return nil
}

// writeCalibration prints the three feature tables with each class's
// likelihood ratio relative to the neutral class and the prior setting
// that ratio implies.
func writeCalibration(w io.Writer, cal *engine.PriorCalibration, games int, opponent string) {
	sides := "both sides"
	if opponent != "" {
		sides = "the sides playing " + opponent
	}
	fmt.Fprintf(w, "%d games, %d turns (%s; turns with one board, or an inexact belief, left out)\n\n", games, cal.Turns, sides)
	tab := newTable([]string{"left en prise", "belief share", "true", "ratio", "vs none", "implied hang"}, 1, 2, 3, 4, 5)
	for k, cl := range cal.Hang {
		tab.add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/cal.Hang[0].Ratio()), ratioText(cal.ImpliedHang(k)))
	}
	_ = tab.write(w)
	fmt.Fprintln(w)
	tab = newTable([]string{"zone attackers", "belief share", "true", "ratio", "vs 0", "implied threat"}, 1, 2, 3, 4, 5)
	for k, cl := range cal.Zone {
		tab.add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/cal.Zone[0].Ratio()), ratioText(cal.ImpliedThreat(k)))
	}
	_ = tab.write(w)
	fmt.Fprintln(w)
	tab = newTable([]string{"ours en prise", "belief share", "true", "ratio", "vs none"}, 1, 2, 3, 4)
	for _, cl := range cal.Pressure {
		tab.add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/cal.Pressure[0].Ratio()))
	}
	_ = tab.write(w)
	fmt.Fprintln(w, "\nratio: how much likelier the true board is in the class than the uniform belief says; implied: the")
	fmt.Fprintln(w, "hang temperature (cp) or threat strength that reproduces the ratio against the neutral class.")
}

func ratioText(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	if math.Abs(x) >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}
