package report

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/sampler/beliefbench"
)

// WriteBeliefBench writes the page of a belief benchmark's report (Belief's
// page) to path: cfg is the run's configuration, which the page names.
func WriteBeliefBench(r *beliefbench.Report, cfg beliefbench.Config, path string) error {
	var runs []BeliefRun
	for _, g := range r.Games {
		run := BeliefRun{Sampler: g.Sampler, Color: g.Color, Record: RecordPlace{File: g.Record, Member: g.Member}}
		for _, t := range g.Turns {
			run.Turns = append(run.Turns, BeliefTurn{Size: t.SizeAfter, Entropy: t.Entropy, Present: t.Present, Millis: t.UpdateMillis})
		}
		runs = append(runs, run)
	}
	totals := r.TotalsTable()
	colors := make([]string, len(cfg.Colors))
	for i, c := range cfg.Colors {
		colors[i] = c.String()
	}
	lines := []string{fmt.Sprintf("%d replays of recorded games (%s, sides: %s), recall %.1f%% over %d turns",
		len(r.Games), strings.Join(cfg.Paths, ", "), strings.Join(colors, ", "), r.Recall, r.Turns)}
	page, err := Belief(runs, BeliefOptions{Title: "Beliefs: " + strings.Join(cfg.Samplers, ", "), Lines: lines,
		Summary: TextTable(totals.Header, totals.Numeric, totals.Rows), Page: path})
	if err != nil {
		return err
	}
	return WriteFile(path, page)
}
