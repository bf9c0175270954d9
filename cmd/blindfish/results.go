package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/report"
)

// runMerge prints the merge of match folders (match.Merge: the results-log
// lines it could not read are told on stderr and left out) and, with an
// SPRT, its line for each pairing of two different bots; with rate set, the
// rating list instead of the table. With archive, it then packs the
// folders' loose records (archiveFolders); with page set, it writes their
// page there too, last, so that its record links lead to where the records
// are once archived.
func runMerge(dirs []string, stdout, stderr io.Writer, sprt *match.SPRT, rate *match.RatingOptions, page string, archive bool) error {
	if len(dirs) == 0 {
		return usageError{"--merge needs at least one folder"}
	}
	m, err := match.Merge(dirs)
	if m != nil {
		for _, e := range m.Skipped {
			fmt.Fprintf(stderr, "blindfish match: %v: skipped\n", e)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, m.Head())
	if rate != nil {
		if err := m.Rate(*rate); err != nil {
			return err
		}
	}
	if err := m.Write(stdout, sprt); err != nil {
		return err
	}
	if archive {
		if err := archiveFolders(dirs, stdout); err != nil {
			return err
		}
	}
	if page == "" {
		return nil
	}
	lines := []string{m.Head() + ": " + strings.Join(dirs, ", ")}
	if err := report.WriteMatchFile(m.Results, report.MatchOptions{Title: "Matches merged", Lines: lines,
		SPRT: sprt, Singles: true, Page: page, Ratings: m.Ratings}); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "page: %s\n", page)
	return err
}
