package record

// Where game records are found. The harness writes one GameHistory JSON per
// game, and so does a match as it plays; a run of thousands of games is
// better kept as one compressed archive (git keeps every file forever, and a
// folder of thousands of small files is slow to list, copy and check out).
// Every command that reads records reads them through Records or LoadRecord,
// so that all of them take the same things: a record (.json, or gzipped
// .json.gz), an archive of records (.tar.gz, .tgz or .tar), or a folder of
// any of these, and a record that has moved into its folder's archive is
// still found under its old path.

import (
	"archive/tar"
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"github.com/blindfish-rbc/blindfish/rbc"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Record is one game record as found on disk: its JSON and where it is.
type Record struct {
	// Path is the file that holds the record: the record itself, or the
	// archive it is a member of.
	Path string
	// Member is the record's name inside the archive ("" for a file of its
	// own), without a leading "./".
	Member string
	// Data is the record's GameHistory JSON, decompressed.
	Data []byte
}

// Name says where the record is: its path, or ARCHIVE:MEMBER (the form
// LoadRecord and Records take back).
func (r *Record) Name() string {
	if r.Member == "" {
		return r.Path
	}
	return r.Path + ":" + r.Member
}

// Base is the record's file name without folders and without ".gz": the
// name a match's results log gives it, whether the record is loose or
// archived.
func (r *Record) Base() string {
	name := filepath.Base(r.Path)
	if r.Member != "" {
		name = path.Base(r.Member)
	}
	return strings.TrimSuffix(name, ".gz")
}

// History parses the record; its errors name the record.
func (r *Record) History() (*rbc.History, error) {
	h, err := ParseHistory(r.Data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Name(), err)
	}
	return h, nil
}

// maxRecordBytes bounds one record's JSON (a 300-turn game takes about
// 200 kB), so that a corrupt or hostile archive cannot exhaust memory.
const maxRecordBytes = 64 << 20

// IsArchiveName reports whether a file name is that of an archive of
// records (.tar.gz, .tgz, .tar).
func IsArchiveName(name string) bool {
	return strings.HasSuffix(name, ".tar.gz") || strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".tar")
}

// IsRecordName reports whether a file name is that of a record of its own
// (.json or .json.gz). Other names are records only when named explicitly.
func IsRecordName(name string) bool {
	return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".json.gz")
}

// Records returns the game records at paths, in order. A path may be
//   - a record: a file (GameHistory JSON, gzipped when its name ends in .gz);
//   - an archive (.tar.gz, .tgz, .tar): its .json and .json.gz members, in
//     the archive's order;
//   - a folder: its records (*.json, *.json.gz) and archives, by name (not
//     its subfolders, nor files whose names start with a dot; a record both
//     loose and archived once); a folder without any is an error;
//   - ARCHIVE:MEMBER or FOLDER:NAME, one record of an archive or of a
//     folder's archives; and a record path that no longer exists is looked
//     for in its folder's archives (see LoadRecord).
//
// A path that cannot be read, an archive that is not one (or is cut short)
// and an oversized member are errors naming the file; the sequence goes on
// with the next path if the caller goes on.
func Records(paths ...string) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		for _, p := range paths {
			if !recordsAt(p, yield) {
				return
			}
		}
	}
}

// FolderRecords returns the records of a folder as Records does, except
// that a folder without any is no error (a match folder may hold only its
// results logs).
func FolderRecords(dir string) iter.Seq2[*Record, error] {
	return func(yield func(*Record, error) bool) {
		folderRecords(dir, yield)
	}
}

// recordsAt yields the records of one path; false when yield asked to stop.
func recordsAt(p string, yield func(*Record, error) bool) bool {
	fi, err := os.Stat(p)
	switch {
	case err == nil && fi.IsDir():
		n, ok := folderRecords(p, yield)
		if ok && n == 0 {
			return yield(nil, fmt.Errorf("%s: no game records in this folder (no *.json, *.json.gz or *.tar.gz)", p))
		}
		return ok
	case err == nil && IsArchiveName(p):
		_, ok := archiveRecords(p, nil, yield)
		return ok
	case err == nil:
		r, err := readRecordFile(p)
		return yield(r, err)
	}
	r, lerr := lookUp(p)
	if errors.Is(lerr, fs.ErrNotExist) {
		return yield(readRecordFile(p)) // the plain "no such file" names the path best
	}
	return yield(r, lerr)
}

// folderRecords yields a folder's records; n counts them, ok is false when
// yield asked to stop.
func folderRecords(dir string, yield func(*Record, error) bool) (n int, ok bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, yield(nil, fmt.Errorf("game records: %w", err))
	}
	// A record both loose and archived (a folder being archived when the
	// process died) counts once.
	seen := make(map[string]bool)
	count := func(r *Record, err error) bool {
		if err == nil {
			if seen[r.Base()] {
				return true
			}
			seen[r.Base()] = true
			n++
		}
		return yield(r, err)
	}
	for _, e := range entries { // ReadDir sorts by name
		name := e.Name()
		if strings.HasPrefix(name, ".") || !IsRecordName(name) && !IsArchiveName(name) {
			continue
		}
		p := filepath.Join(dir, name)
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				continue
			}
		} else if !e.Type().IsRegular() {
			continue
		}
		if IsArchiveName(name) {
			if _, ok := archiveRecords(p, nil, count); !ok {
				return n, false
			}
			continue
		}
		if !count(readRecordFile(p)) {
			return n, false
		}
	}
	return n, true
}

// readRecordFile reads a record of its own, gunzipping a .gz.
func readRecordFile(p string) (*Record, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err // it names p
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(p, ".gz") {
		zr, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return nil, fmt.Errorf("%s: not a gzipped record: %w", p, err)
		}
		defer zr.Close()
		r = zr
	}
	data, err := readLimited(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return &Record{Path: p, Data: data}, nil
}

// readLimited reads r to its end, at most maxRecordBytes.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxRecordBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("larger than %d MiB: not a game record", maxRecordBytes>>20)
	}
	return data, nil
}

// archiveRecords yields the records of an archive that want accepts (all
// when want is nil); n counts them, ok is false when yield asked to stop.
// Errors name the archive (and the member); a broken archive ends its
// sequence, a broken member does not.
func archiveRecords(p string, want func(member string) bool, yield func(*Record, error) bool) (n int, ok bool) {
	f, err := os.Open(p)
	if err != nil {
		return 0, yield(nil, fmt.Errorf("game records: %w", err))
	}
	defer f.Close()
	return readArchive(p, f, want, yield)
}

// readArchive is archiveRecords on the archive's bytes in r; p names it.
func readArchive(p string, f io.Reader, want func(member string) bool, yield func(*Record, error) bool) (n int, ok bool) {
	var r io.Reader = bufio.NewReader(f)
	if !strings.HasSuffix(p, ".tar") {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return 0, yield(nil, fmt.Errorf("%s: not a gzip-compressed archive: %w", p, err))
		}
		defer zr.Close()
		r = zr
	}
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return n, true
		}
		if err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				err = errors.New("cut short (unexpected end of file)")
			}
			return n, yield(nil, fmt.Errorf("%s: bad archive after %d records: %w", p, n, err))
		}
		member := strings.TrimPrefix(path.Clean(hdr.Name), "./")
		if hdr.Typeflag != tar.TypeReg || !IsRecordName(member) || strings.HasPrefix(path.Base(member), ".") {
			continue
		}
		if want != nil && !want(member) {
			continue
		}
		name := p + ":" + member
		var data []byte
		if hdr.Size > maxRecordBytes {
			err = fmt.Errorf("%s: %d bytes: not a game record", name, hdr.Size)
		} else if data, err = readLimited(tr); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return n, yield(nil, fmt.Errorf("%s: bad archive: cut short in %s", p, member))
			}
			err = fmt.Errorf("%s: %w", name, err)
		} else if strings.HasSuffix(member, ".gz") {
			data, err = gunzip(data)
			if err != nil {
				err = fmt.Errorf("%s: not a gzipped record: %w", name, err)
			}
		}
		if err != nil {
			if !yield(nil, err) {
				return n, false
			}
			continue
		}
		n++
		if !yield(&Record{Path: p, Member: member, Data: data}, nil) {
			return n, false
		}
	}
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	return readLimited(zr)
}

// LoadRecord finds the one record spec names:
//   - a file: the record it holds (gunzipped when its name ends in .gz);
//   - an archive or a folder that holds exactly one record: that record;
//   - ARCHIVE:MEMBER or FOLDER:NAME: the member of the archive (or of the
//     folder's archives, or the folder's record) with that path or file name;
//   - FOLDER/NAME.json when that file is gone: the member NAME.json (or
//     NAME.json.gz) of one of FOLDER's archives, so that a results log's
//     record names still lead to their records once the folder is archived.
func LoadRecord(spec string) (*Record, error) {
	fi, err := os.Stat(spec)
	if err == nil && !fi.IsDir() && !IsArchiveName(spec) {
		return readRecordFile(spec)
	}
	if err == nil {
		return onlyRecord(spec)
	}
	r, lerr := lookUp(spec)
	if errors.Is(lerr, fs.ErrNotExist) {
		return readRecordFile(spec) // the plain "no such file" names the path best
	}
	return r, lerr
}

// onlyRecord returns the record of an archive or folder that holds one.
func onlyRecord(p string) (*Record, error) {
	var found []*Record
	for r, err := range Records(p) {
		if err != nil {
			return nil, err
		}
		found = append(found, r)
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%s: no game records", p)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("%s holds %d game records; name one as %s:NAME (e.g. %s:%s)", p, len(found), p, p, found[0].Base())
}

// lookUp finds a record that is not a file of its own: ARCHIVE:MEMBER,
// FOLDER:NAME, or FOLDER/NAME inside one of FOLDER's archives. Its error
// wraps fs.ErrNotExist when there is nothing of the kind to look in.
func lookUp(spec string) (*Record, error) {
	container, name := "", ""
	if i := strings.LastIndex(spec, ":"); i > 0 {
		if fi, err := os.Stat(spec[:i]); err == nil && (fi.IsDir() || IsArchiveName(spec[:i])) {
			container, name = spec[:i], spec[i+1:]
		}
	}
	if container == "" {
		dir := filepath.Dir(spec)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fs.ErrNotExist
		}
		container, name = dir, filepath.Base(spec)
	}
	want := func(member string) bool {
		return member == name || path.Base(member) == name || path.Base(member) == name+".gz"
	}
	var found []*Record
	var broken error // the first archive that could not be searched
	collect := func(r *Record, err error) bool {
		if err != nil {
			broken = cmp.Or(broken, err)
			return true // a bad member; a bad archive ends by itself
		}
		found = append(found, r)
		return true
	}
	var archives []string
	if IsArchiveName(container) {
		archives = []string{container}
	} else {
		entries, err := os.ReadDir(container)
		if err != nil {
			return nil, fmt.Errorf("game record: %w", err)
		}
		for _, e := range entries {
			if n := e.Name(); IsArchiveName(n) && !strings.HasPrefix(n, ".") {
				archives = append(archives, filepath.Join(container, n))
			}
		}
		// A loose record: FOLDER:NAME, or NAME.json asked for as NAME.json.gz.
		for _, p := range []string{filepath.Join(container, name), filepath.Join(container, name+".gz")} {
			if fi, err := os.Stat(p); err == nil && p != spec && fi.Mode().IsRegular() {
				return readRecordFile(p)
			}
		}
	}
	for _, a := range archives {
		archiveRecords(a, want, collect)
	}
	switch len(found) {
	case 0:
		if broken != nil {
			return nil, fmt.Errorf("game record %s: not found: %w", name, broken)
		}
		if len(archives) == 0 {
			return nil, fs.ErrNotExist
		}
		return nil, fmt.Errorf("game record %s: not found (nor in %s)", name, strings.Join(archives, ", "))
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, r := range found {
		names[i] = r.Name()
	}
	return nil, fmt.Errorf("game record %s is ambiguous: %s", name, strings.Join(names, ", "))
}

// WriteArchive writes records as a gzip-compressed tar archive, each as a
// member named by its Base (so a folder's records keep their names), in the
// order given. Member times are zero and modes 0644, so the same records
// always make the same bytes. Two records with one Base are an error.
func WriteArchive(w io.Writer, records []*Record) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(zw)
	seen := make(map[string]string, len(records))
	for _, r := range records {
		name := r.Base()
		if prev, dup := seen[name]; dup {
			return fmt.Errorf("record: archive: %s and %s have one name, %s", prev, r.Name(), name)
		}
		seen[name] = r.Name()
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: name, Size: int64(len(r.Data)), Mode: 0o644,
			ModTime: time.Unix(0, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("record: archive: %w", err)
		}
		if _, err := tw.Write(r.Data); err != nil {
			return fmt.Errorf("record: archive: %w", err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("record: archive: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("record: archive: %w", err)
	}
	return nil
}

// SortRecords orders records by Base, the order a folder lists them in.
func SortRecords(records []*Record) {
	slices.SortStableFunc(records, func(a, b *Record) int { return strings.Compare(a.Base(), b.Base()) })
}

// MaxSafeFileName bounds what SafeFileName keeps of a name.
const MaxSafeFileName = 40

// SafeFileName keeps a name fit for a part of a record's file name: letters,
// digits, '-', '_' and '.' (any other character becomes '_'), at most
// MaxSafeFileName of them, and "_" for an empty name. The names of players
// and games come from servers and their clients: they may hold a '/', bytes
// a terminal obeys, or be too long for a file name (255 bytes at most).
func SafeFileName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
	if s == "" {
		return "_"
	}
	if len(s) > MaxSafeFileName { // every byte is ASCII now
		s = s[:MaxSafeFileName]
	}
	return s
}
