package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFolderIndex writes a match folder's index.html: its games, the
// command that makes it again, and no rating list for two bots.
func TestWriteFolderIndex(t *testing.T) {
	dir := t.TempDir()
	playMatch(t, dir, 4)
	path, err := WriteFolderIndex(dir, nil)
	if err != nil || path != filepath.Join(dir, IndexName) {
		t.Fatalf("%s: %v", path, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{"4 games in " + dir, "blindfish match --merge --html " + path + " " + dir} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="ratings"`) {
		t.Error("two bots: the page has a rating list")
	}
}
