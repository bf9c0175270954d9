package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/report"
)

// runMerge prints the merged table of match folders (match.ReadMatchFolders:
// the results-log lines it could not read are told on stderr and left out) and,
// with an SPRT, its line for each pairing of two different bots; with
// archive, it then packs the folders' loose records (archiveFolders); with
// page set, it writes their page there too, last, so that its record links
// lead to where the records are once archived.
//
// With rate set it prints the rating list of the games instead of the table
// (printRatings), and the page shows it too.
func runMerge(dirs []string, stdout, stderr io.Writer, sprt *match.SPRT, rate *match.RatingOptions, page string, archive bool) error {
	if len(dirs) == 0 {
		return usageError{"--merge needs at least one folder"}
	}
	folders, err := match.ReadMatchFolders(dirs)
	if err != nil {
		return err
	}
	for _, e := range folders.Skipped {
		fmt.Fprintf(stderr, "blindfish match: %v: skipped\n", e)
	}
	results, bare := folders.Results, folders.Bare
	if len(results) == 0 && len(folders.Void) == 0 {
		return fmt.Errorf("no games in %s (no %s, no *.json histories, no *.tar.gz archives of them)", strings.Join(dirs, ", "), match.LogName)
	}
	note := ""
	if bare > 0 {
		note = fmt.Sprintf(" (%d from records without a results log: no times, clock ?)", bare)
	}
	noun := "folders"
	if len(dirs) == 1 {
		noun = "folder"
	}
	if n := len(folders.Void); n > 0 {
		note += fmt.Sprintf(" (and %d void: a bot failed, see errors)", n)
	}
	head := fmt.Sprintf("merged %d games from %d %s%s", len(results), len(dirs), noun, note)
	fmt.Fprintln(stdout, head)
	pairings := match.GroupPairings(append(slices.Clone(results), folders.Void...))
	var list *match.RatingList
	if rate != nil {
		if list, err = match.Ratings(results, *rate); err != nil {
			return err
		}
		if err := printRatings(stdout, list); err != nil {
			return err
		}
	} else if err := printTable(stdout, match.ResultsTable(pairings, true)); err != nil {
		return err
	}
	if sprt != nil {
		for _, line := range match.MergedSPRTLines(*sprt, pairings) {
			if _, err := fmt.Fprintln(stdout, line); err != nil {
				return err
			}
		}
	}
	if archive {
		if err := archiveFolders(dirs, stdout); err != nil {
			return err
		}
	}
	if page == "" {
		return nil
	}
	lines := []string{head + ": " + strings.Join(dirs, ", ")}
	if err := writeMatchPage(page, "Matches merged", lines, results, sprt, true, list); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "page: %s\n", page)
	return err
}

// indexName is the page match --out writes into its folder.
const indexName = "index.html"

// writeMatchPage writes the page of games (report.Match); singles tests a
// pairing without colour-swapped pairs game by game, as merges do.
// ratings, when set, adds the rating list.
func writeMatchPage(path, title string, lines []string, results []*match.Result, sprt *match.SPRT, singles bool, ratings *match.RatingList) error {
	page, err := report.Match(results, report.NewRecords(), report.MatchOptions{
		Title: title, Lines: lines, SPRT: sprt, Singles: singles, Page: path, Ratings: ratings})
	if err != nil {
		return err
	}
	return report.WriteFile(path, page)
}

// writeFolderIndex writes the page of every game in a match folder to path.
func writeFolderIndex(dir, path string, sprt *match.SPRT) error {
	results, bare, err := match.ReadFolders([]string{dir})
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%d games in %s", len(results), dir)
	if bare > 0 {
		line += fmt.Sprintf(" (%d from records without a results log: no times)", bare)
	}
	lines := []string{line, "Every match into this folder makes this page again; so does: blindfish match --merge --html " +
		filepath.Join(dir, indexName) + " " + dir}
	// The folder's rating list, when its games rate at least three bots
	// (with two the table's Elo difference says the same); a list that
	// cannot be fitted only costs the page its section.
	var list *match.RatingList
	if l, err := match.Ratings(results, match.RatingOptions{Anchor: match.DefaultAnchor, Prior: 1}); err == nil && l.Bots() > 2 {
		list = l
	}
	return writeMatchPage(path, "Matches in "+filepath.Base(dir), lines, results, sprt, true, list)
}

// printRatings prints a rating list: its main group, then the groups apart,
// each under its heading, and what was left out.
func printRatings(w io.Writer, l *match.RatingList) error {
	groups := []*match.RatingGroup{&l.Main}
	for i := range l.Apart {
		groups = append(groups, &l.Apart[i])
	}
	for i, g := range groups {
		sep := ""
		if i > 0 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "%s%s\n", sep, l.Heading(g)); err != nil {
			return err
		}
		if err := printTable(w, match.RatingTable(*g)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, l.Notes())
	return err
}

// printTable prints a results table in aligned columns.
func printTable(w io.Writer, t match.Table) error {
	tb := newTable(t.Header, t.Numeric...)
	for _, r := range t.Rows {
		tb.add(r...)
	}
	return tb.write(w)
}
