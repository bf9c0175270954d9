package match

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/record"
)

// Archived records. A match saves each game as a record of its own as soon
// as the game ends, so that an interrupted match loses nothing; at the end a
// run may pack its records into one compressed archive in the folder
// (Archive), which every reader of records takes as it takes the loose ones
// (record.Records). The results logs stay plain text beside it.
//
// A run never rewrites an archive: it writes a new one under a name no other
// file has (games.tar.gz, games-2.tar.gz, ...; a shard's are named after the
// shard, like its log), claimed with a hard link that fails if the name is
// taken. So sessions and shards sharing a folder can archive at the same time
// without losing each other's records, and a run that dies while archiving
// leaves its loose records in place.

// ArchiveName is the file name, without ".tar.gz", that a run of shard s
// archives its records under (before any -2, -3 a taken name needs).
func ArchiveName(s Shard) string {
	if s.Whole() {
		return "games"
	}
	return fmt.Sprintf("games.shard-%d-of-%d", s.K, s.N)
}

// Archive packs the loose records of dir (*.json, *.json.gz) into a new
// archive named base.tar.gz (base-2.tar.gz, ... when taken) and removes them
// once the archive has been written and read back. With names, only the
// records with those file names are packed (a run's own games); with nil,
// all of them. It returns the archive's path and how many records it holds;
// with nothing to pack it writes nothing and returns "", 0. A record that
// that read cannot read stops it before anything is written (the error
// names it).
func Archive(dir, base string, names []string, read RecordReader) (string, int, error) {
	var want map[string]bool
	if names != nil {
		want = make(map[string]bool, len(names))
		for _, n := range names {
			want[strings.TrimSuffix(n, ".gz")] = true
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", 0, fmt.Errorf("match: archive: %w", err)
	}
	var recs []*record.Record
	var loose []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !record.IsRecordName(name) || !e.Type().IsRegular() {
			continue
		}
		if want != nil && !want[strings.TrimSuffix(name, ".gz")] {
			continue
		}
		p := filepath.Join(dir, name)
		r, err := record.LoadRecord(p)
		if err != nil {
			return "", 0, fmt.Errorf("match: archive: %w", err)
		}
		if _, err := read(r); err != nil { // it parses as what it is, of whichever game
			return "", 0, fmt.Errorf("match: archive: %w (fix or move it, then archive again)", err)
		}
		recs = append(recs, r)
		loose = append(loose, p)
	}
	if len(recs) == 0 {
		return "", 0, nil
	}
	record.SortRecords(recs)
	tmp, err := writeTempArchive(dir, recs)
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(tmp)
	path, err := claim(tmp, dir, base)
	if err != nil {
		return "", 0, err
	}
	for _, p := range loose {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return path, len(recs), fmt.Errorf("match: archive: %d records are in %s, but: %w", len(recs), path, err)
		}
	}
	return path, len(recs), nil
}

// writeTempArchive writes recs to a hidden temporary archive in dir (which
// folder listings skip), synced to disk and read back member for member.
func writeTempArchive(dir string, recs []*record.Record) (string, error) {
	f, err := os.CreateTemp(dir, ".archive-*.tar.gz")
	if err != nil {
		return "", fmt.Errorf("match: archive: %w", err)
	}
	tmp := f.Name()
	err = record.WriteArchive(f, recs)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = checkArchive(tmp, recs)
	}
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("match: archive: %w", err)
	}
	return tmp, nil
}

// checkArchive reads the archive at p back and compares it with recs.
func checkArchive(p string, recs []*record.Record) error {
	i := 0
	for r, err := range record.Records(p) {
		if err != nil {
			return err
		}
		if i >= len(recs) || r.Base() != recs[i].Base() || !bytes.Equal(r.Data, recs[i].Data) {
			return fmt.Errorf("%s does not read back as written (member %d)", p, i)
		}
		i++
	}
	if i != len(recs) {
		return fmt.Errorf("%s reads back %d records of %d", p, i, len(recs))
	}
	return nil
}

// claim gives the archive tmp its name in dir: base.tar.gz, or base-K.tar.gz
// for the first K from 2 that no file has. The hard link fails if the name
// is taken, so two runs never take one name; where hard links are not
// supported it falls back to a rename after a check.
func claim(tmp, dir, base string) (string, error) {
	for k := 1; k < 10000; k++ {
		name := base + ".tar.gz"
		if k > 1 {
			name = base + "-" + strconv.Itoa(k) + ".tar.gz"
		}
		p := filepath.Join(dir, name)
		err := os.Link(tmp, p)
		if err == nil {
			return p, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if _, serr := os.Lstat(p); serr == nil {
			continue
		}
		if rerr := os.Rename(tmp, p); rerr != nil {
			return "", fmt.Errorf("match: archive: %w", rerr)
		}
		return p, nil
	}
	return "", fmt.Errorf("match: archive: no free name for %s.tar.gz in %s", base, dir)
}
