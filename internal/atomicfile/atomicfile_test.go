package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFile: the file holds what was written with the permissions
// asked, a second write replaces it, and nothing else is left in the
// folder.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "page.html")
	for _, want := range []string{"first", "second, longer"} {
		if err := WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("read %q, %v; want %q", got, err, want)
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o644 {
		t.Errorf("permissions %v, want 0644", perm)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d files, want the one written", len(entries))
	}
}

// TestWriteFileFails: a path that cannot be replaced (a folder stands
// there) is an error, and the folder is left as it was: no temporary file.
func TestWriteFileFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "taken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "taken"), []byte("x"), 0o644); err == nil {
		t.Error("writing over a folder succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries after the failure, want only the folder", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "no", "such.html"), []byte("x"), 0o644); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}
