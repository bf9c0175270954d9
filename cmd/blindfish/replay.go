package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/record"
)

// runReplay re-referees recorded games (harness GameHistory JSON, or
// Kriegspiel records, told apart by their content) from their
// recorded senses and requests and checks every sense result, taken move,
// capture square, board before and after each move, and the result. It is
// how we know our rules agree with the harness's on real games.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", "--check [-q] FILE|DIR...", stderr)
	check := fs.Bool("check", false, "re-referee each game and compare it with its record (required; the only mode so far)")
	quiet := fs.Bool("q", false, "print only games that fail, and the summary")
	fs.Usage = func() {
		fmt.Fprint(stderr, `Usage: blindfish replay --check [-q] FILE|DIR...

Re-referees each recorded game (FILE is a record, .json or .json.gz, an
archive of records, .tar.gz, or ARCHIVE:MEMBER; a directory stands for its
records and archives) and prints one line per game: ok, the first divergence (turn, colour, recorded
and replayed value), or why the file could not be read. Turns are numbered
from 1 for each colour (the full-move number). A game that ended by TIMEOUT
or RESIGN cannot be re-timed: it passes when all its turns match, with a note.
The last line is "N/M games reproduced"; the exit status is 1 unless all are.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if !*check {
		return usageError{"--check is required"}
	}
	if fs.NArg() == 0 {
		return usageError{"no game records given"}
	}
	reproduced, total := 0, 0
	for _, arg := range fs.Args() {
		for r, err := range record.Records(arg) {
			total++
			if err != nil {
				// The error names the file; say it first, as for a game.
				fmt.Fprintf(stdout, "%s: unreadable: %s\n", arg, strings.TrimPrefix(err.Error(), arg+": "))
				continue
			}
			line, ok, err := game.Check(ctx, r, *quiet)
			if err != nil {
				fmt.Fprintf(stdout, "%d/%d games reproduced\n", reproduced, total)
				return err
			}
			if line != "" {
				fmt.Fprintln(stdout, line)
			}
			if ok {
				reproduced++
			}
		}
	}
	fmt.Fprintf(stdout, "%d/%d games reproduced\n", reproduced, total)
	if reproduced < total {
		return reportedError{fmt.Sprintf("%d of %d games did not reproduce", total-reproduced, total)}
	}
	return nil
}
