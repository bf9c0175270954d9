package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
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
		for r, err := range rbc.Records(arg) {
			total++
			if err != nil {
				// The error names the file; say it first, as for a game.
				fmt.Fprintf(stdout, "%s: unreadable: %s\n", arg, strings.TrimPrefix(err.Error(), arg+": "))
				continue
			}
			ok, err := replayRecord(ctx, r, stdout, *quiet)
			if err != nil {
				fmt.Fprintf(stdout, "%d/%d games reproduced\n", reproduced, total)
				return err
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

// replayRecord checks one record and prints its line. The error is non-nil
// only when ctx is done.
func replayRecord(ctx context.Context, r *rbc.Record, stdout io.Writer, quiet bool) (bool, error) {
	path := r.Name()
	if kriegspiel.IsRecord(r.Data) {
		return replayKriegspiel(path, r.Data, stdout, quiet), nil
	}
	rec, err := rbc.ParseHistory(r.Data)
	if err != nil {
		fmt.Fprintf(stdout, "%s: unreadable: %v\n", path, err)
		return false, nil
	}
	rp, err := rbc.ReplayHistory(ctx, rec)
	if err != nil {
		return false, fmt.Errorf("replay %s: %w", path, err)
	}
	if rp.Divergence != nil {
		fmt.Fprintf(stdout, "%s: diverges at %s\n", path, rp.Divergence)
		return false, nil
	}
	if quiet {
		return true, nil
	}
	turns := len(rec.Turns[rbc.White]) + len(rec.Turns[rbc.Black])
	if rp.Unchecked != "" {
		fmt.Fprintf(stdout, "%s: ok, %d turns, %s (note: %s)\n", path, turns, rec.Outcome, rp.Unchecked)
	} else {
		fmt.Fprintf(stdout, "%s: ok, %d turns, %s\n", path, turns, rec.Outcome)
	}
	return true, nil
}

// replayKriegspiel checks one Kriegspiel record (docs/kriegspiel.md) against
// kriegspiel's referee and prints its line.
func replayKriegspiel(path string, data []byte, stdout io.Writer, quiet bool) bool {
	rec, err := kriegspiel.ReadRecord(bytes.NewReader(data))
	if err != nil {
		fmt.Fprintf(stdout, "%s: unreadable: %v\n", path, err)
		return false
	}
	if _, err := rec.Replay(); err != nil {
		fmt.Fprintf(stdout, "%s: diverges: %v\n", path, err)
		return false
	}
	if !quiet {
		fmt.Fprintf(stdout, "%s: ok, kriegspiel/%s, %d turns, %s\n", path, rec.Ruleset.Name, len(rec.Turns), rec.Result)
	}
	return true
}
