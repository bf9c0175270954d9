package match

import (
	"bytes"
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// CheckRecord re-referees one recorded game, an RBC history or a
// Kriegspiel record (told apart by their content), from its recorded
// choices, and says how it went in the line `blindfish replay --check`
// prints: "NAME: ok, ...", the first divergence, or why the record could not
// be read. ok reports whether the game reproduced; with quiet, the line of
// a game that did is "". The error is non-nil only when ctx is done.
func CheckRecord(ctx context.Context, r *record.Record, quiet bool) (line string, ok bool, err error) {
	path := r.Name()
	if ksrecord.Is(r.Data) {
		rec, err := ksrecord.Read(bytes.NewReader(r.Data))
		if err != nil {
			return fmt.Sprintf("%s: unreadable: %v", path, err), false, nil
		}
		if _, err := rec.Replay(); err != nil {
			return fmt.Sprintf("%s: diverges: %v", path, err), false, nil
		}
		if quiet {
			return "", true, nil
		}
		return fmt.Sprintf("%s: ok, kriegspiel/%s, %d turns, %s", path, rec.Ruleset.Name, len(rec.Turns), rec.Result), true, nil
	}
	rec, err := record.ParseHistory(r.Data)
	if err != nil {
		return fmt.Sprintf("%s: unreadable: %v", path, err), false, nil
	}
	rp, err := rbc.ReplayHistory(ctx, rec)
	if err != nil {
		return "", false, fmt.Errorf("replay %s: %w", path, err)
	}
	if rp.Divergence != nil {
		return fmt.Sprintf("%s: diverges at %s", path, rp.Divergence), false, nil
	}
	if quiet {
		return "", true, nil
	}
	turns := len(rec.Turns[chess.White]) + len(rec.Turns[chess.Black])
	if rp.Unchecked != "" {
		return fmt.Sprintf("%s: ok, %d turns, %s (note: %s)", path, turns, rec.Outcome, rp.Unchecked), true, nil
	}
	return fmt.Sprintf("%s: ok, %d turns, %s", path, turns, rec.Outcome), true, nil
}
