package engine

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/blindfish-rbc/blindfish/internal/texttable"
)

// WriteText prints the calibration as `blindfish belief calibrate` shows
// it: the three feature tables with each class's likelihood ratio relative
// to the neutral class and the prior setting that ratio implies. games is
// the number of games observed; opponent, when set, the one opponent
// whose sides they were.
func (c *PriorCalibration) WriteText(w io.Writer, games int, opponent string) error {
	sides := "both sides"
	if opponent != "" {
		sides = "the sides playing " + opponent
	}
	fmt.Fprintf(w, "%d games, %d turns (%s; turns with one board, or an inexact belief, left out)\n\n", games, c.Turns, sides)
	tab := texttable.New([]string{"left en prise", "belief share", "true", "ratio", "vs none", "implied hang"}, 1, 2, 3, 4, 5)
	for k, cl := range c.Hang {
		tab.Add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/c.Hang[0].Ratio()), ratioText(c.ImpliedHang(k)))
	}
	if err := tab.Write(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tab = texttable.New([]string{"zone attackers", "belief share", "true", "ratio", "vs 0", "implied threat"}, 1, 2, 3, 4, 5)
	for k, cl := range c.Zone {
		tab.Add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/c.Zone[0].Ratio()), ratioText(c.ImpliedThreat(k)))
	}
	if err := tab.Write(w); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tab = texttable.New([]string{"ours en prise", "belief share", "true", "ratio", "vs none"}, 1, 2, 3, 4)
	for _, cl := range c.Pressure {
		tab.Add(cl.Name, fmt.Sprintf("%.1f", cl.Expected), fmt.Sprintf("%.0f", cl.Observed),
			ratioText(cl.Ratio()), ratioText(cl.Ratio()/c.Pressure[0].Ratio()))
	}
	if err := tab.Write(w); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nratio: how much likelier the true board is in the class than the uniform belief says; implied: the")
	_, err := fmt.Fprintln(w, "hang temperature (cp) or threat strength that reproduces the ratio against the neutral class.")
	return err
}

// ratioText shows a ratio with few digits, "-" for one that is not a
// number.
func ratioText(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	if math.Abs(x) >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".")
}
