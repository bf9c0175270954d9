package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// runCalibrate replays recorded games through the exact belief from both
// sides and measures the player's opponent model against them (see
// engine.PriorCalibration): how often the true board left material en prise
// or bore on our king, against the share of the belief that did.
func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("belief --calibrate", "[--budget MiB] [--max-boards N] [--opponent NAME] FILE|DIR...", stderr)
	fs.Bool("calibrate", true, "measure the opponent model (the prior) against the games")
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
	games, records := 0, 0
	for rec, err := range rbc.Records(fs.Args()...) {
		if err != nil {
			return err
		}
		h, err := rec.History()
		if err != nil {
			return err
		}
		records++
		file := rec.Name()
		sides := []rbc.Color{rbc.White, rbc.Black}
		switch *opponent {
		case "":
		case h.BlackName:
			sides = []rbc.Color{rbc.White}
		case h.WhiteName:
			sides = []rbc.Color{rbc.Black}
		default:
			continue
		}
		games++
		for _, c := range sides {
			if err := calibrateGame(ctx, cal, h, c, *budget, *maxBoards); err != nil {
				return fmt.Errorf("%s as %v: %w", file, c, err)
			}
		}
	}
	if games == 0 {
		return fmt.Errorf("no record of a game against %q among %d", *opponent, records)
	}
	writeCalibration(stdout, cal, games, *opponent)
	return nil
}

// calibrateGame replays one game from colour c's side and adds every turn
// whose belief is exact, holds the true board and more than one board.
func calibrateGame(ctx context.Context, cal *engine.PriorCalibration, h *rbc.History, c rbc.Color, budgetMiB int64, maxBoards int) error {
	start, turns, err := sampler.Observations(h, c)
	if err != nil {
		return err
	}
	s, err := sampler.New("exact", sampler.Options{Seed: 1, MemoryBudget: budgetMiB << 20})
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.HandleGameStart(ctx, c, start); err != nil {
		return err
	}
	for i := range turns {
		t := &turns[i]
		if err := t.Notice(ctx, s); err != nil {
			return err
		}
		if size := s.Size(); size.Exact && size.Boards > 1 && size.Boards <= maxBoards && s.Contains(&t.Before) {
			if err := cal.Observe(ctx, s, &t.Before, c, t.CaptureSquare); err != nil {
				return err
			}
		}
		if err := t.SenseWith(ctx, s, t.Sense); err != nil {
			return err
		}
		if err := t.Move(ctx, s); err != nil {
			return err
		}
	}
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
