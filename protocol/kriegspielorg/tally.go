package kriegspielorg

import (
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Tally saves and reports each game a Listen plays as it ends: Record is a
// ListenConfig.OnGame. It writes one line per game to Out (the game, our
// colour, the verdict and where the record went) and, at the end,
// WriteSummary's count. It is safe for concurrent use.
type Tally struct {
	// Dir is the folder the true records are saved in (docs/kriegspiel.md;
	// "" saves nothing). It must exist.
	Dir string
	// Out receives the lines.
	Out io.Writer
	// Logger gets the records that could not be saved; nil discards them.
	Logger *slog.Logger

	mu    sync.Mutex
	count tally.Count
}

// Record counts and reports game id: res nil is a game not played, err
// non-nil one we resigned after an error.
func (t *Tally) Record(id string, res *Result, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if res == nil {
		t.count.Failed++
		fmt.Fprintf(t.Out, "game %s: not played: %v\n", id, err)
		return
	}
	r := res.Result
	verdict := t.count.Add(res.Color, r.HasWinner, r.Winner, err, "resigned after an error")
	line := fmt.Sprintf("game %s as %s: %s", id, res.Color, verdict)
	if err != nil {
		line += ": " + err.Error()
	} else {
		line += " (" + r.String() + ")"
	}
	if t.Dir != "" && res.Record != nil {
		// DATE-TIME-kriegspiel-<game>-<white>-<black>.json; the names are
		// the site's, made safe.
		path := filepath.Join(t.Dir, fmt.Sprintf("%s-kriegspiel-%s-%s-%s.json", time.Now().Format("20060102-150405"),
			rbc.SafeFileName(id), rbc.SafeFileName(res.Record.White), rbc.SafeFileName(res.Record.Black)))
		switch serr := kriegspiel.SaveRecordFile(path, res.Record); {
		case serr == nil:
			line += ", saved " + path
		case t.Logger != nil:
			t.Logger.Warn("could not save the game record", "game", id, "err", serr)
		}
	}
	fmt.Fprintln(t.Out, line)
}

// WriteSummary writes the count of the games so far to Out ("N games: W
// won, D drawn, L lost", and the failed ones if any); nothing when there
// were none.
func (t *Tally) WriteSummary() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.count.Games() == 0 {
		return
	}
	t.count.Write(t.Out, "failed")
	fmt.Fprintln(t.Out)
}
