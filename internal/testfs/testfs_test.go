package testfs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNames: the names of files and folders, sorted.
func TestNames(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"b.json", "a.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := Names(t, dir), []string{"a.json", "b.json", "c"}; !slices.Equal(got, want) {
		t.Errorf("Names = %q, want %q", got, want)
	}
}
