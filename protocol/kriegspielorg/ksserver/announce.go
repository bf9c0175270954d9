package ksserver

import (
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Announce returns a Config.OnGameEnd that saves each finished game's
// record in records (nil saves nothing; a failure is logged) and says the
// game on w, one line at a time: its id, players, result and record.
func Announce(w io.Writer, records *RecordDir, log *slog.Logger) func(id string, rec *kriegspiel.Record) {
	var mu sync.Mutex // one line at a time
	return func(id string, rec *kriegspiel.Record) {
		// The names are the bots': quoted, so that no byte of theirs
		// reaches the terminal raw.
		line := fmt.Sprintf("game %s: %q vs %q, %s", id, rec.White, rec.Black, rec.Result)
		if records != nil {
			if path, err := records.Save(id, rec); err != nil {
				log.Error("could not save the game record", "game", id, "err", err)
			} else {
				line += ", saved " + path
			}
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(w, line)
	}
}
