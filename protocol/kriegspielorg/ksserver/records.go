package ksserver

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// RecordDir keeps the true record of each game a Server finishes in one
// folder, as g<number>-<white>-<black>.json, where replay --check and the
// belief tools read them. A server restarted on the same folder numbers its
// games after the ones there (LastID), and no record is written over
// another.
type RecordDir struct {
	dir    string
	lastID int
}

// OpenRecordDir creates dir if it does not exist and finds the highest game
// number among the records already in it.
func OpenRecordDir(dir string) (*RecordDir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the records directory: %w", err)
	}
	last, err := lastGameNumber(dir)
	if err != nil {
		return nil, fmt.Errorf("read the records directory: %w", err)
	}
	return &RecordDir{dir: dir, lastID: last}, nil
}

// LastID is the number of the last game recorded in the folder when it was
// opened (0: none), for Config.LastID.
func (d *RecordDir) LastID() int { return d.lastID }

// Save writes the record of game id and returns its path. The name is made
// of the game id and the players' names through rbc.SafeFileName (the names
// are the bots' own); when it is taken, -2, -3 and on are tried. It is safe
// to call from several goroutines at once, as Config.OnGameEnd is.
func (d *RecordDir) Save(id string, rec *kriegspiel.Record) (string, error) {
	base := fmt.Sprintf("%s-%s-%s", record.SafeFileName(id), record.SafeFileName(rec.White), record.SafeFileName(rec.Black))
	return saveNewRecord(d.dir, base, rec)
}

// lastGameNumber is the highest game number among the records in dir
// (named g<number>-...), 0 when there are none.
func lastGameNumber(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	last := 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "g")
		num, _, dash := strings.Cut(rest, "-")
		if !ok || !dash {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > last {
			last = n
		}
	}
	return last, nil
}

// saveNewRecord saves rec in dir as base.json, or base-2.json and on when
// that name is taken: it never writes over a file. The record is written to
// a temporary file first, so that a name holds either nothing or the whole
// record, and no temporary file outlives an error.
func saveNewRecord(dir, base string, rec *kriegspiel.Record) (path string, err error) {
	f, err := os.CreateTemp(dir, ".record-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	defer func() {
		if rerr := os.Remove(tmp); err == nil && rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = rerr
		}
	}()
	if err := ksrecord.Write(f, rec); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	for i := 1; i <= 100; i++ {
		path = filepath.Join(dir, base+".json")
		if i > 1 {
			path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, i))
		}
		// The name is claimed with O_EXCL, then the record renamed onto
		// the empty file we own.
		claim, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		claim.Close()
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("%s.json and 99 more names are taken", filepath.Join(dir, base))
}
