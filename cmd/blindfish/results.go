package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/match"
)

// runMerge prints the merged table of match folders (match.ReadFolders) and,
// with an SPRT, its line for each pairing of two different bots.
func runMerge(dirs []string, stdout io.Writer, sprt *match.SPRT) error {
	if len(dirs) == 0 {
		return usageError{"--merge needs at least one folder"}
	}
	results, bare, err := match.ReadFolders(dirs)
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no games in %s (no %s, no *.json histories, no *.tar.gz archives of them)", strings.Join(dirs, ", "), match.LogName)
	}
	note := ""
	if bare > 0 {
		note = fmt.Sprintf(" (%d from histories without a results log: no times, clock ?)", bare)
	}
	fmt.Fprintf(stdout, "merged %d games from %d folders%s\n", len(results), len(dirs), note)
	pairings := match.GroupPairings(results)
	if err := printTable(stdout, match.ResultsTable(pairings, true)); err != nil {
		return err
	}
	if sprt != nil {
		for _, line := range match.MergedSPRTLines(*sprt, pairings) {
			if _, err := fmt.Fprintln(stdout, line); err != nil {
				return err
			}
		}
	}
	return nil
}

// printTable prints a results table in aligned columns.
func printTable(w io.Writer, t match.Table) error {
	tb := newTable(t.Header, t.Numeric...)
	for _, r := range t.Rows {
		tb.add(r...)
	}
	return tb.write(w)
}
