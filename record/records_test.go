package record

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testRecord returns the JSON of a recorded game of the repository.
func testRecord(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "histories", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

type member struct {
	name string
	data []byte
	dir  bool
}

// tarGz builds a .tar.gz of members, as tar and gzip would.
func tarGz(t testing.TB, members ...member) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		hdr := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.data)), Typeflag: tar.TypeReg}
		if m.dir {
			hdr = &tar.Header{Name: m.name, Mode: 0o755, Typeflag: tar.TypeDir}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gz(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t testing.TB, p string, data []byte) {
	t.Helper()
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// collect runs Records and returns the records' names and the errors.
func collect(paths ...string) (names []string, errs []error) {
	for r, err := range Records(paths...) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if _, perr := r.History(); perr != nil {
			errs = append(errs, perr)
			continue
		}
		names = append(names, r.Name())
	}
	return names, errs
}

// A folder's loose, gzipped and archived records all come out, in name
// order, archives member by member (nested folders and other files of the
// archive skipped), and single records are found by every way of naming them.
func TestRecords(t *testing.T) {
	a := testRecord(t, "attacker_bot-random_bot-3-000.json")
	b := testRecord(t, "random_bot-attacker_bot-2-001.json")
	c := testRecord(t, "trout_bot-trout_bot-6-000.json")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.json"), a)
	writeFile(t, filepath.Join(dir, "b.json.gz"), gz(t, b))
	writeFile(t, filepath.Join(dir, "results.jsonl"), []byte("{}\n")) // not a record
	writeFile(t, filepath.Join(dir, ".a.json.tmp123"), []byte("half"))
	arc := filepath.Join(dir, "games.tar.gz")
	writeFile(t, arc, tarGz(t,
		member{name: "./", dir: true},
		member{name: "./run-1/", dir: true},
		member{name: "./run-1/c.json", data: c},
		member{name: "./run-1/harness-tail.txt", data: []byte("Winner: white!")},
		member{name: "d.json.gz", data: gz(t, a)},
	))

	names, errs := collect(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json.gz"), arc + ":run-1/c.json", arc + ":d.json.gz"}
	if !slices.Equal(names, want) {
		t.Fatalf("Records(dir) = %q, want %q", names, want)
	}

	// One record: by member path, by file name, through the folder, and
	// under the path it had before it moved into the archive.
	for _, spec := range []string{arc + ":run-1/c.json", arc + ":c.json", dir + ":c.json", filepath.Join(dir, "c.json"), filepath.Join(dir, "d.json")} {
		r, err := LoadRecord(spec)
		if err != nil {
			t.Errorf("LoadRecord(%s): %v", spec, err)
			continue
		}
		want := c
		if strings.HasSuffix(spec, "d.json") {
			want = a
		}
		if !bytes.Equal(r.Data, want) {
			t.Errorf("LoadRecord(%s) = %s: wrong record", spec, r.Name())
		}
		if h, err := LoadHistoryFile(spec); err != nil || h == nil {
			t.Errorf("LoadHistoryFile(%s): %v", spec, err)
		}
	}
	if r, err := LoadRecord(filepath.Join(dir, "b.json.gz")); err != nil || !bytes.Equal(r.Data, b) {
		t.Errorf("LoadRecord(b.json.gz) = %v: want the gunzipped record", err)
	}
	if r, err := LoadRecord(filepath.Join(dir, "b.json")); err != nil || !bytes.Equal(r.Data, b) {
		t.Errorf("LoadRecord(b.json) = %v: want b.json.gz's record", err)
	}
	// Several records where one is wanted: the error says how to name one.
	if _, err := LoadRecord(arc); err == nil || !strings.Contains(err.Error(), arc+":NAME") {
		t.Errorf("LoadRecord(an archive of two) = %v; want an error saying how to name one", err)
	}
	if _, err := LoadRecord(filepath.Join(dir, "e.json")); err == nil || !strings.Contains(err.Error(), "e.json") {
		t.Errorf("LoadRecord(a missing record) = %v; want an error naming it", err)
	}
	// An archive of one record is that record.
	one := filepath.Join(t.TempDir(), "one.tgz")
	writeFile(t, one, tarGz(t, member{name: "x.json", data: b}))
	if r, err := LoadRecord(one); err != nil || !bytes.Equal(r.Data, b) || r.Base() != "x.json" {
		t.Errorf("LoadRecord(an archive of one) = %v, %v", r, err)
	}
	// An empty folder is an error for Records, not for FolderRecords.
	empty := t.TempDir()
	if _, errs := collect(empty); len(errs) != 1 || !strings.Contains(errs[0].Error(), empty) {
		t.Errorf("Records(empty folder): errors %v; want one naming it", errs)
	}
	for _, err := range FolderRecords(empty) {
		t.Errorf("FolderRecords(empty folder): %v", err)
	}
}

// WriteArchive's archives read back record for record, name for name, and
// the same records always make the same bytes.
func TestWriteArchive(t *testing.T) {
	dir := t.TempDir()
	var recs []*Record
	for _, n := range []string{"attacker_bot-random_bot-3-000.json", "trout_bot-trout_bot-6-000.json"} {
		recs = append(recs, &Record{Path: filepath.Join("somewhere", n), Data: testRecord(t, n)})
	}
	recs = append(recs, &Record{Path: "x.tar.gz", Member: "sub/g.json.gz", Data: []byte(`{"a": 1}`)})
	var buf, again bytes.Buffer
	if err := WriteArchive(&buf, recs); err != nil {
		t.Fatal(err)
	}
	if err := WriteArchive(&again, recs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), again.Bytes()) {
		t.Error("two archives of the same records differ")
	}
	arc := filepath.Join(dir, "games.tar.gz")
	writeFile(t, arc, buf.Bytes())
	i := 0
	for r, err := range Records(arc) {
		if err != nil {
			t.Fatal(err)
		}
		if r.Member != recs[i].Base() || !bytes.Equal(r.Data, recs[i].Data) {
			t.Errorf("member %d: %s, %d bytes; want %s, %d bytes", i, r.Member, len(r.Data), recs[i].Base(), len(recs[i].Data))
		}
		i++
	}
	if i != len(recs) {
		t.Errorf("%d members read back, want %d", i, len(recs))
	}
	dup := append(recs, &Record{Path: "elsewhere/" + recs[0].Base(), Data: recs[0].Data})
	if err := WriteArchive(&bytes.Buffer{}, dup); err == nil {
		t.Error("WriteArchive took two records with one name")
	}
}

// Broken archives and records give errors that name the file and say what
// is wrong, and the records before the damage still come out.
func TestRecordsBroken(t *testing.T) {
	a := testRecord(t, "attacker_bot-random_bot-3-000.json")
	b := testRecord(t, "trout_bot-trout_bot-6-000.json")
	good := tarGz(t, member{name: "a.json", data: a}, member{name: "b.json", data: b})
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		want string // in the error
		ok   int    // records read before it
	}{
		{"plain.tar.gz", []byte("this is not gzip at all"), "not a gzip-compressed archive", 0},
		{"cut.tar.gz", good[:len(good)*2/3], "cut short", 1},
		{"junk.tar.gz", gz(t, bytes.Repeat([]byte("junk"), 300)), "bad archive", 0},
		{"badgz.tar.gz", tarGz(t, member{name: "a.json.gz", data: []byte("not gzip")}), "not a gzipped record", 0},
		{"badrec.json.gz", []byte("nope"), "not a gzipped record", 0},
	}
	for _, tc := range cases {
		p := filepath.Join(dir, tc.name)
		writeFile(t, p, tc.data)
		ok := 0
		var errs []error
		for _, err := range Records(p) {
			if err != nil {
				errs = append(errs, err)
			} else {
				ok++
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), p) || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: errors %v; want one naming the file and saying %q", tc.name, errs, tc.want)
		}
		if ok != tc.ok {
			t.Errorf("%s: %d records before the error, want %d", tc.name, ok, tc.ok)
		}
	}
	// A member that is not a game record parses with an error naming it.
	p := filepath.Join(dir, "notrec.tar.gz")
	writeFile(t, p, tarGz(t, member{name: "x.json", data: []byte(`{"type": "GameHistory"}`)}))
	if _, errs := collect(p); len(errs) != 1 || !strings.Contains(errs[0].Error(), p+":x.json") {
		t.Errorf("an archive of a bad record: errors %v; want one naming ARCHIVE:MEMBER", errs)
	}
	// A missing path.
	if _, errs := collect(filepath.Join(dir, "none.tar.gz")); len(errs) != 1 || !strings.Contains(errs[0].Error(), "none.tar.gz") {
		t.Errorf("a missing archive: errors %v", errs)
	}
}

// FuzzRecordArchive feeds arbitrary bytes as an archive (in memory, as
// archiveRecords reads a file): no panic, and every error names the file.
func FuzzRecordArchive(f *testing.F) {
	a := testRecord(f, "attacker_bot-random_bot-3-000.json")
	good := tarGz(f, member{name: "a.json", data: a}, member{name: "b.json.gz", data: gz(f, a)})
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(gz(f, []byte("x")))
	f.Add([]byte{})
	const p = "some/where/f.tar.gz"
	f.Fuzz(func(t *testing.T, data []byte) {
		readArchive(p, bytes.NewReader(data), nil, func(r *Record, err error) bool {
			if err != nil {
				if !strings.Contains(err.Error(), p) {
					t.Fatalf("error without the file's name: %v", err)
				}
				return true
			}
			if _, err := r.History(); err != nil && !strings.Contains(err.Error(), p) {
				t.Fatalf("parse error without the file's name: %v", err)
			}
			return true
		})
	})
}

// Names from servers are kept to letters, digits, '-', '_' and '.', and cut
// to fit in a file name.
func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"bot-1_v2.0":             "bot-1_v2.0",
		"../etc/passwd":          ".._etc_passwd",
		"red\x1b[31m":            "red__31m",
		"":                       "_",
		"é":                      "_",
		strings.Repeat("é", 300): strings.Repeat("_", MaxSafeFileName),
	} {
		if got := SafeFileName(in); got != want {
			t.Errorf("SafeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
