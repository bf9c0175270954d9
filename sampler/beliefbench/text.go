package beliefbench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/blindfish-rbc/blindfish/internal/texttable"
)

// WriteText prints the report as `blindfish belief` shows it: with
// perTurn, a table of every turn of every replay, then the samplers'
// totals and the overall recall.
func (r *Report) WriteText(w io.Writer, perTurn bool) error {
	if perTurn && len(r.Games) > 0 {
		t := texttable.New([]string{"game", "side", "sampler", "turn", "before", "after", "reduce", "H bits", "deferred", "true", "ms", "rec"},
			3, 4, 5, 6, 7, 8, 10, 11)
		for _, g := range r.Games {
			for _, bt := range g.Turns {
				t.Add(g.File, g.Color, g.Sampler, fmt.Sprint(bt.Turn), fmt.Sprint(bt.SizeBefore), fmt.Sprint(bt.SizeAfter),
					fmt.Sprintf("%.1f%%", 100*bt.Reduction), fmt.Sprintf("%.2f", bt.Entropy), fmt.Sprint(bt.Deferred),
					yesNo(bt.Present), fmt.Sprintf("%.1f", bt.UpdateMillis), fmt.Sprint(bt.Recoveries))
			}
		}
		if err := t.Write(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := r.TotalsTable().Write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "recall %.1f%% over %d turns\n", r.Recall, r.Turns)
	return err
}

// WriteJSON writes the report as indented JSON (`blindfish belief
// --json`).
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// TotalsTable is the table of the samplers' totals, as printed and on the
// page.
func (r *Report) TotalsTable() *texttable.Table {
	t := texttable.New([]string{"sampler", "games", "turns", "recall", "mean before", "mean after", "mean reduce", "mean H",
		"mean ms", "max ms", "max size", "recoveries", "disk MiB", "dropped"}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
	for _, tot := range r.Samplers {
		t.Add(tot.Sampler, fmt.Sprint(tot.Games), fmt.Sprint(tot.Turns), fmt.Sprintf("%.1f%%", tot.Recall),
			compact(tot.MeanBefore), compact(tot.MeanAfter), fmt.Sprintf("%.1f%%", 100*tot.MeanReduction),
			fmt.Sprintf("%.2f", tot.MeanEntropy), fmt.Sprintf("%.1f", tot.MeanMillis), fmt.Sprintf("%.1f", tot.MaxMillis),
			fmt.Sprint(tot.MaxBoards), fmt.Sprint(tot.Recoveries), fmt.Sprintf("%.0f", tot.PeakSpillMiB), fmt.Sprint(tot.Dropped))
	}
	return t
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// compact prints a mean size with few digits: 12.3, 4567, 1.2M.
func compact(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 100 || x == math.Trunc(x):
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}
