package rbcclient

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Tally saves and reports each game a Listen plays as it ends: Record is a
// ListenConfig.OnGame. It writes one line per invitation to Out (the game,
// our colour, the opponent, the verdict and where the record went, in the
// harness's format) and, at the end, WriteSummary's count. Make one with
// NewTally; it is safe for concurrent use.
type Tally struct {
	tally.Log
}

// NewTally returns a Tally that saves in dir, writes to out and warns on
// log (tally.Log's fields).
func NewTally(dir string, out io.Writer, log *slog.Logger) *Tally {
	return &Tally{tally.Log{Dir: dir, Out: out, Logger: log}}
}

// Record counts and reports the game of invitation inv: res nil is an
// invitation not played, err non-nil a game we error-resigned.
func (t *Tally) Record(inv int, res *Result, err error) {
	if res == nil {
		t.NotPlayed(fmt.Sprintf("invitation %d: not played: %v", inv, err), false)
		return
	}
	o := res.Outcome
	g := tally.Game{Line: fmt.Sprintf("game %d as %s vs %s", res.GameID, res.Color, res.Opponent), ID: res.GameID,
		Us: res.Color, HasWinner: o.HasWinner, Winner: o.Winner, Outcome: o.String(), Err: err, Failed: "error-resigned"}
	if len(res.HistoryJSON) > 0 {
		g.Save = func(dir string) (string, error) { return save(dir, res) }
	}
	t.Played(g)
}

// save writes the record as DATE-TIME-game<ID>-<white>-<black>.json: the
// parsed record through rbc.SaveHistoryFile (atomically), or the server's
// bytes if they did not parse.
func save(dir string, res *Result) (string, error) {
	white, black := "us", "us"
	if res.History != nil {
		white, black = res.History.WhiteName, res.History.BlackName
	}
	name := fmt.Sprintf("%s-game%d-%s-%s.json", time.Now().Format("20060102-150405"), res.GameID,
		rbc.SafeFileName(white), rbc.SafeFileName(black))
	path := filepath.Join(dir, name)
	if res.History != nil {
		return path, rbc.SaveHistoryFile(path, res.History)
	}
	return path, os.WriteFile(path, res.HistoryJSON, 0o644)
}

// WriteSummary writes the count of the games so far to Out ("N games: W
// won, D drawn, L lost", and the error-resigned games and unplayed
// invitations if any); nothing when there were none.
func (t *Tally) WriteSummary() { t.Summary("error-resigned", "invitations not played") }
