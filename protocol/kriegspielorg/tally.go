package kriegspielorg

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// Tally saves and reports each game a Listen plays as it ends: Record(id,
// res, err) is a ListenConfig.OnGame (res nil is a game not played, err
// non-nil one we resigned after an error). It writes one line per game to
// Out (the game, our colour, the verdict and where the true record went,
// docs/kriegspiel.md) and, at the end, WriteSummary's count ("N games: W
// won, D drawn, L lost", and the failed ones if any; nothing when there
// were none). Make one with NewTally; it is safe for concurrent use.
type Tally struct {
	*tally.Tally[string, Result]
}

// NewTally returns a Tally with the Dir, Out and Logger of tally.Log.
func NewTally(dir string, out io.Writer, log *slog.Logger) *Tally {
	return &Tally{tally.New(dir, out, log, tally.Words[string, Result]{
		Failed: "resigned after an error", FailedCount: "failed",
		NotPlayed: func(id string, err error) string { return fmt.Sprintf("game %s: not played: %v", id, err) },
		Played:    played,
	})}
}

// played describes game id, saved as
// DATE-TIME-kriegspiel-<game>-<white>-<black>.json when its true record is
// known; the names are the site's, made safe.
func played(id string, res *Result) tally.Game {
	r := res.Result
	g := tally.Game{Line: fmt.Sprintf("game %s as %s", id, res.Color), ID: id, Us: res.Color,
		HasWinner: r.HasWinner, Winner: r.Winner, Outcome: r.String()}
	if res.Record != nil {
		g.Save = func(dir string) (string, error) {
			path := filepath.Join(dir, fmt.Sprintf("%s-kriegspiel-%s-%s-%s.json", time.Now().Format("20060102-150405"),
				record.SafeFileName(id), record.SafeFileName(res.Record.White), record.SafeFileName(res.Record.Black)))
			return path, ksrecord.SaveFile(path, res.Record)
		}
	}
	return g
}
