package report

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/blindfish-rbc/blindfish/record"
)

// RecordPlace is where a game's record is on disk: a file of its own, or a
// member of an archive.
type RecordPlace struct {
	File   string // the record, or the archive holding it
	Member string // the member's name in File, "" for a record of its own
}

// Spec is the place as the commands take it: FILE or ARCHIVE:MEMBER.
func (r RecordPlace) Spec() string {
	if r.Member == "" {
		return r.File
	}
	return r.File + ":" + r.Member
}

// Viewer is the page `blindfish view` writes for the record by default:
// beside the file that holds it, named after the record.
func (r RecordPlace) Viewer() string {
	base := filepath.Base(r.File)
	if r.Member != "" {
		base = filepath.Base(filepath.FromSlash(r.Member))
	}
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".gz"), ".json")
	return filepath.Join(filepath.Dir(r.File), base+".html")
}

// Records finds where the records of games are, by the names a results log
// or a folder listing gives them, reading each folder once (its loose
// records and its archives' member lists). The zero Records finds nothing;
// use NewRecords.
type Records struct {
	folders map[string]map[string]RecordPlace // folder (absolute) → record's base name → place
}

// NewRecords returns an empty Records.
func NewRecords() *Records {
	return &Records{folders: map[string]map[string]RecordPlace{}}
}

// Find returns where the record named name is: name is a path (whose file
// may since have moved into its folder's archive, as match --archive does),
// ARCHIVE:MEMBER, or a bare file name in dir. ok is false when it is not
// found; a folder that cannot be read is an error.
func (rs *Records) Find(dir, name string) (place RecordPlace, ok bool, err error) {
	if name == "" {
		return RecordPlace{}, false, nil
	}
	if i := strings.LastIndex(name, ":"); i > 0 && record.IsArchiveName(name[:i]) {
		return RecordPlace{File: name[:i], Member: name[i+1:]}, true, nil
	}
	p := name
	if dir != "" && filepath.Base(name) == name {
		p = filepath.Join(dir, name)
	}
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
		return RecordPlace{File: p}, true, nil
	}
	folder := filepath.Dir(p)
	abs, err := filepath.Abs(folder)
	if err != nil {
		return RecordPlace{}, false, fmt.Errorf("report: %w", err)
	}
	index, seen := rs.folders[abs]
	if !seen {
		index = map[string]RecordPlace{}
		for rec, err := range record.FolderRecords(folder) {
			if err != nil {
				return RecordPlace{}, false, fmt.Errorf("report: find the records: %w", err)
			}
			index[rec.Base()] = RecordPlace{File: rec.Path, Member: rec.Member}
		}
		rs.folders[abs] = index
	}
	place, ok = index[strings.TrimSuffix(filepath.Base(p), ".gz")]
	return place, ok, nil
}

// relLink returns a link from a page in folder pageDir to the file target:
// a relative URL when there is one (so that a folder and its pages move
// together), else an absolute file URL.
func relLink(pageDir, target string) string {
	pa, err1 := filepath.Abs(pageDir)
	ta, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return (&url.URL{Path: filepath.ToSlash(target)}).String()
	}
	rel, err := filepath.Rel(pa, ta)
	if err != nil {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(ta)}).String()
	}
	// url.URL puts "./" before a first segment with a colon, which would
	// otherwise read as a scheme.
	return (&url.URL{Path: filepath.ToSlash(rel)}).String()
}

// relPath returns target relative to folder dir when it can (for commands
// to run in dir), else target as it is.
func relPath(dir, target string) string {
	da, err1 := filepath.Abs(dir)
	ta, err2 := filepath.Abs(target)
	if err1 != nil || err2 != nil {
		return target
	}
	rel, err := filepath.Rel(da, ta)
	if err != nil {
		return target
	}
	return rel
}

// gameLinks returns the cells of a game's record and viewer page for a page
// in pageDir: a link to the record (to its archive when archived), and a
// link to its viewer page when one was made, else the command that makes
// it (run in pageDir).
func gameLinks(pageDir string, place RecordPlace, found bool) (record, viewer Cell) {
	if !found {
		return Cell{Text: "-"}, Cell{Text: "-"}
	}
	text := filepath.Base(place.File)
	if place.Member != "" {
		text += ":" + filepath.Base(filepath.FromSlash(place.Member))
	}
	record = Cell{Text: text, Href: relLink(pageDir, place.File)}
	if v := place.Viewer(); fileExists(v) {
		viewer = Cell{Text: "view", Href: relLink(pageDir, v)}
	} else {
		spec := RecordPlace{File: relPath(pageDir, place.File), Member: place.Member}.Spec()
		viewer = Cell{Text: "blindfish view " + shellQuote(spec), Code: true}
	}
	return record, viewer
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// shellQuote quotes s for a POSIX shell when it holds anything but the
// characters record names are made of.
func shellQuote(s string) string {
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.=+/:,@", r)) {
			safe = false
			break
		}
	}
	if safe && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
