package rbcclient

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/tally"
	"github.com/blindfish-rbc/blindfish/record"
)

// Tally saves and reports each game a Listen plays as it ends: Record(inv,
// res, err) is a ListenConfig.OnGame (res nil is an invitation not played,
// err non-nil a game we error-resigned). It writes one line per invitation
// to Out (the game, our colour, the opponent, the verdict and where the
// record went, in the harness's format) and, at the end, WriteSummary's
// count ("N games: W won, D drawn, L lost", and the error-resigned games and
// unplayed invitations if any; nothing when there were none). Make one with
// NewTally; it is safe for concurrent use.
type Tally struct {
	*tally.Tally[int, Result]
}

// played describes the game of an invitation, saved when its record came.
func played(_ int, res *Result) tally.Game {
	o := res.Outcome
	g := tally.Game{Line: fmt.Sprintf("game %d as %s vs %s", res.GameID, res.Color, res.Opponent), ID: res.GameID,
		Us: res.Color, HasWinner: o.HasWinner, Winner: o.Winner, Outcome: o.String()}
	if len(res.HistoryJSON) > 0 {
		g.Save = func(dir string) (string, error) { return save(dir, res) }
	}
	return g
}

// NewTally returns a Tally that saves in dir, writes to out and warns on
// log (tally.Log's fields), in the harness's words.
func NewTally(dir string, out io.Writer, log *slog.Logger) *Tally {
	words := tally.Words[int, Result]{Played: played, Failed: "error-resigned", FailedCount: "error-resigned",
		Unplayed:  "invitations not played",
		NotPlayed: func(inv int, err error) string { return fmt.Sprintf("invitation %d: not played: %v", inv, err) }}
	return &Tally{tally.New(dir, out, log, words)}
}

// save writes the record as DATE-TIME-game<ID>-<white>-<black>.json: the
// parsed record through record.SaveHistoryFile (atomically), or the server's
// bytes if they did not parse.
func save(dir string, res *Result) (string, error) {
	white, black := "us", "us"
	if res.History != nil {
		white, black = res.History.WhiteName, res.History.BlackName
	}
	name := fmt.Sprintf("%s-game%d-%s-%s.json", time.Now().Format("20060102-150405"), res.GameID,
		record.SafeFileName(white), record.SafeFileName(black))
	path := filepath.Join(dir, name)
	if res.History != nil {
		return path, record.SaveHistoryFile(path, res.History)
	}
	return path, os.WriteFile(path, res.HistoryJSON, 0o644)
}
