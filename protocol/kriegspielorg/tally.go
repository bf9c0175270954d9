package kriegspielorg

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Tally saves and reports each game a Listen plays as it ends: Record is a
// ListenConfig.OnGame. It writes one line per game to Out (the game, our
// colour, the verdict and where the true record went, docs/kriegspiel.md)
// and, at the end, WriteSummary's count. Make one with NewTally; it is safe
// for concurrent use.
type Tally struct {
	tally.Log
}

// NewTally returns a Tally with the Dir, Out and Logger of tally.Log.
func NewTally(dir string, out io.Writer, log *slog.Logger) *Tally {
	return &Tally{tally.Log{Dir: dir, Out: out, Logger: log}}
}

// Record counts and reports game id: res nil is a game not played, err
// non-nil one we resigned after an error.
func (t *Tally) Record(id string, res *Result, err error) {
	if res == nil {
		t.NotPlayed(fmt.Sprintf("game %s: not played: %v", id, err), true)
		return
	}
	r := res.Result
	g := tally.Game{Line: fmt.Sprintf("game %s as %s", id, res.Color), ID: id, Us: res.Color,
		HasWinner: r.HasWinner, Winner: r.Winner, Outcome: r.String(), Err: err, Failed: "resigned after an error"}
	if res.Record != nil {
		g.Save = func(dir string) (string, error) {
			// DATE-TIME-kriegspiel-<game>-<white>-<black>.json; the names
			// are the site's, made safe.
			path := filepath.Join(dir, fmt.Sprintf("%s-kriegspiel-%s-%s-%s.json", time.Now().Format("20060102-150405"),
				rbc.SafeFileName(id), rbc.SafeFileName(res.Record.White), rbc.SafeFileName(res.Record.Black)))
			return path, kriegspiel.SaveRecordFile(path, res.Record)
		}
	}
	t.Played(g)
}

// WriteSummary writes the count of the games so far to Out ("N games: W
// won, D drawn, L lost", and the failed ones if any); nothing when there
// were none.
func (t *Tally) WriteSummary() { t.Summary("failed", "") }
