package report

import (
	"fmt"
	"path/filepath"

	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
)

// IndexName is the page a match writes into its --out folder.
const IndexName = "index.html"

// WriteMatchFile writes the page of games (Match) to opts.Page.
func WriteMatchFile(results []*match.Result, opts MatchOptions) error {
	page, err := Match(results, NewRecords(), opts)
	if err != nil {
		return err
	}
	return WriteFile(opts.Page, page)
}

// WriteFolderIndex writes the page of every game in a match folder to its
// IndexName, and returns the page's path. The page gets the folder's
// rating list when its games rate at least three bots (with two the
// table's Elo difference says the same); a list that cannot be fitted only
// costs the page its section.
func WriteFolderIndex(dir string, sprt *match.SPRT) (string, error) {
	path := filepath.Join(dir, IndexName)
	results, bare, err := match.ReadFolders([]string{dir}, game.ReadResult)
	if err != nil {
		return path, err
	}
	line := fmt.Sprintf("%d games in %s", len(results), dir)
	if bare > 0 {
		line += fmt.Sprintf(" (%d from records without a results log: no times)", bare)
	}
	lines := []string{line, "Every match into this folder makes this page again; so does: blindfish match --merge --html " +
		path + " " + dir}
	var list *match.RatingList
	if l, err := match.Ratings(results, match.RatingOptions{Anchor: match.DefaultAnchor, Prior: 1}); err == nil && l.Bots() > 2 {
		list = l
	}
	return path, WriteMatchFile(results, MatchOptions{Title: "Matches in " + filepath.Base(dir), Lines: lines,
		SPRT: sprt, Singles: true, Page: path, Ratings: list})
}
