package sensebench

import (
	"fmt"
	"io"
	"strconv"

	"github.com/blindfish-rbc/blindfish/internal/texttable"
)

// WriteText prints the result as `blindfish belief sense` shows it: what
// was scored, the notes on turns left out or inexact, then the table. cfg
// is the run's configuration (its budget and board limit are named).
func (r *Result) WriteText(w io.Writer, cfg Config) error {
	fmt.Fprintf(w, "sense benchmark: %d games, %d player-turns with more than one board (exact belief; %s per decision)\n",
		r.Games, r.Turns, cfg.Budget)
	if r.CutSides > 0 {
		fmt.Fprintf(w, "note: %d of %d sides stopped when the belief passed %d boards (%d turns left out)\n",
			r.CutSides, 2*r.Games, cfg.MaxBoards, r.CutTurns)
	}
	if r.Missing > 0 {
		fmt.Fprintf(w, "warning: on %d turns the true board was not in the belief\n", r.Missing)
	}
	if r.Inexact > 0 {
		fmt.Fprintf(w, "note: on %d turns part of the belief waited in the backlog; sizes count the live boards\n", r.Inexact)
	}
	return r.Table().Write(w)
}

// Table is the result as a table: one row per strategy, then the
// references.
func (r *Result) Table() *texttable.Table {
	t := texttable.New([]string{"strategy", "turns", "boards after", "bits after", "reduction", "best window", "time/decision", "failed"},
		1, 2, 3, 4, 5, 6, 7)
	for _, row := range r.Rows() {
		if row.Turns == 0 {
			t.Add(row.Name, "0", "-", "-", "-", "-", "-", "-")
			continue
		}
		timeCell, failed := "-", "-"
		if row.Timed {
			timeCell = texttable.PerTurn(row.Time, row.Decisions)
			failed = strconv.Itoa(row.Failed)
		}
		t.Add(row.Name, strconv.Itoa(row.Turns), strconv.FormatFloat(row.BoardsAfter(), 'f', 1, 64),
			strconv.FormatFloat(row.BitsAfter(), 'f', 2, 64), strconv.FormatFloat(100*row.Reduction(), 'f', 1, 64)+"%",
			strconv.FormatFloat(100*row.BestShare(), 'f', 1, 64)+"%", timeCell, failed)
	}
	return t
}
