package report

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
)

// Finish is what follows a match's games besides its table: the archive
// of its records, the index page of its folder and a page of its own.
type Finish struct {
	Archive bool   // pack the records saved into a new archive (Report.Archive)
	Index   bool   // write the folder's index.html (WriteFolderIndex)
	Page    string // the match's page to write ("" for none)
}

// FinishMatch does what f asks after the match cfg played rep, saying on
// stdout what it wrote: the archive first, then (once the records are
// where they stay) the pages. An index page that cannot be made is a
// warning on stderr, not an error: the games are played and saved.
func FinishMatch(cfg *match.Config, rep *match.Report, f Finish, stdout, stderr io.Writer) error {
	var err error
	if f.Archive {
		path, n, aerr := rep.Archive(cfg)
		if aerr != nil {
			err = aerr
		} else if n > 0 {
			fmt.Fprintf(stdout, "%d records archived in %s\n", n, path)
		}
	}
	if cfg.Out != "" && f.Index {
		if path, perr := WriteFolderIndex(cfg.Out, cfg.SPRT); perr != nil {
			// An unreadable record of another session in the folder, say.
			fmt.Fprintf(stderr, "blindfish match: %s not written: %v\n", path, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", path)
		}
	}
	if f.Page != "" {
		lines := []string{rep.Count(cfg) + ", " + cfg.Setting()}
		if perr := WriteMatchFile(rep.Results, MatchOptions{Title: cfg.Bot + " vs " + cfg.Opponent,
			Lines: lines, SPRT: cfg.SPRT, Page: f.Page}); perr != nil {
			err = errors.Join(err, perr)
		} else {
			fmt.Fprintf(stdout, "page: %s\n", f.Page)
		}
	}
	return err
}

// Merge prints the merge of match folders (match.Merge: the results-log
// lines it could not read are told on stderr and left out) and, with an
// SPRT, its line for each pairing of two different bots; with rate set,
// the rating list instead of the table. With f.Archive, it then packs the
// folders' loose records (match.ArchiveFolders); with f.Page set, it
// writes their page there too, last, so that its record links lead to
// where the records are once archived. f.Index is not used.
func Merge(dirs []string, sprt *match.SPRT, rate *match.RatingOptions, f Finish, stdout, stderr io.Writer) error {
	m, err := match.Merge(dirs, game.ReadResult)
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
	if f.Archive {
		if err := match.ArchiveFolders(dirs, stdout, game.ReadResult); err != nil {
			return err
		}
	}
	if f.Page == "" {
		return nil
	}
	lines := []string{m.Head() + ": " + strings.Join(dirs, ", ")}
	if err := WriteMatchFile(m.Results, MatchOptions{Title: "Matches merged", Lines: lines,
		SPRT: sprt, Singles: true, Page: f.Page, Ratings: m.Ratings}); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "page: %s\n", f.Page)
	return err
}
