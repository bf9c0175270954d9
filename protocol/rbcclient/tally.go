package rbcclient

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Tally saves and reports each game a Listen plays as it ends: Record is a
// ListenConfig.OnGame. It writes one line per invitation to Out (the game,
// our colour, the opponent, the verdict and where the record went) and, at
// the end, WriteSummary's count, so that an unattended run leaves a log a
// person can read. It is safe for concurrent use.
type Tally struct {
	// Dir is the folder the game records are saved in, in the harness's
	// format ("" saves nothing). It must exist.
	Dir string
	// Out receives the lines.
	Out io.Writer
	// Logger gets the records that could not be saved; nil discards them.
	Logger *slog.Logger

	mu       sync.Mutex
	count    tally.Count
	unplayed int
}

// Record counts and reports the game of invitation inv: res nil is an
// invitation not played, err non-nil a game we error-resigned.
func (t *Tally) Record(inv int, res *Result, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if res == nil {
		t.unplayed++
		fmt.Fprintf(t.Out, "invitation %d: not played: %v\n", inv, err)
		return
	}
	o := res.Outcome
	verdict := t.count.Add(res.Color, o.HasWinner, o.Winner, err, "error-resigned")
	line := fmt.Sprintf("game %d as %s vs %s: %s", res.GameID, res.Color, res.Opponent, verdict)
	if err != nil {
		line += ": " + err.Error()
	} else {
		line += " (" + o.String() + ")"
	}
	if t.Dir != "" && len(res.HistoryJSON) > 0 {
		path, serr := t.save(res)
		switch {
		case serr == nil:
			line += ", saved " + path
		case t.Logger != nil:
			t.Logger.Warn("could not save the game record", "game", res.GameID, "err", serr)
		}
	}
	fmt.Fprintln(t.Out, line)
}

// save writes the record as DATE-TIME-game<ID>-<white>-<black>.json: the
// parsed record through rbc.SaveHistoryFile (atomically), or the server's
// bytes if they did not parse.
func (t *Tally) save(res *Result) (string, error) {
	white, black := "us", "us"
	if res.History != nil {
		white, black = res.History.WhiteName, res.History.BlackName
	}
	name := fmt.Sprintf("%s-game%d-%s-%s.json", time.Now().Format("20060102-150405"), res.GameID,
		rbc.SafeFileName(white), rbc.SafeFileName(black))
	path := filepath.Join(t.Dir, name)
	if res.History != nil {
		return path, rbc.SaveHistoryFile(path, res.History)
	}
	return path, os.WriteFile(path, res.HistoryJSON, 0o644)
}

// WriteSummary writes the count of the games so far to Out ("N games: W
// won, D drawn, L lost", and the error-resigned games and unplayed
// invitations if any); nothing when there were none.
func (t *Tally) WriteSummary() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.count.Games() == 0 && t.unplayed == 0 {
		return
	}
	t.count.Write(t.Out, "error-resigned")
	if t.unplayed > 0 {
		fmt.Fprintf(t.Out, "; %d invitations not played", t.unplayed)
	}
	fmt.Fprintln(t.Out)
}
