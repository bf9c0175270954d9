package ksserver

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/internal/testfs"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Saving never writes over a file, and leaves no temporary file when it
// fails (here on a name too long for the file system).
func TestRecordDirSave(t *testing.T) {
	dir := t.TempDir()
	rec := kriegspiel.NewRecord(kriegspiel.NewGame(kriegspiel.Wild16()))
	rec.White, rec.Black = "a", "b/c"
	if err := os.WriteFile(filepath.Join(dir, "g0001-a-b_c.json"), []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := OpenRecordDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d.LastID() != 1 {
		t.Fatalf("LastID = %d, want 1", d.LastID())
	}
	path, err := d.Save("g0001", rec)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "g0001-a-b_c-2.json") {
		t.Fatalf("saved as %s", path)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "g0001-a-b_c.json")); string(data) != "kept" {
		t.Fatal("an existing file was written over")
	}
	if _, err := saveNewRecord(dir, strings.Repeat("x", 300), rec); err == nil {
		t.Fatal("a 300-byte file name was accepted")
	}
	if got, want := testfs.Names(t, dir), []string{"g0001-a-b_c-2.json", "g0001-a-b_c.json"}; !slices.Equal(got, want) {
		t.Fatalf("files %q, want %q (no temporary file)", got, want)
	}
}

func TestLastGameNumber(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"g0007-a-b.json", "g0012-c-d-2.json", "notes.txt", "g-x.json", "gabc-1.json", ".record-123"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := lastGameNumber(dir); err != nil || n != 12 {
		t.Fatalf("lastGameNumber = %d, %v; want 12", n, err)
	}
}

// TestAnnounce: a line per game, the bots' names quoted, and where the
// record went when there is a folder.
func TestAnnounce(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRecordDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := kriegspiel.NewRecord(kriegspiel.NewGame(kriegspiel.Wild16()))
	rec.White, rec.Black = "a\x1b", "b"
	var buf strings.Builder
	Announce(&buf, nil, nil)("g0001", rec)
	Announce(&buf, d, nil)("g0002", rec)
	lines := strings.Split(buf.String(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `game g0001: "a\x1b" vs "b", `) || strings.Contains(lines[0], "saved") ||
		!strings.HasSuffix(lines[1], ", saved "+filepath.Join(dir, "g0002-a_-b.json")) {
		t.Errorf("lines %q", lines)
	}
}
