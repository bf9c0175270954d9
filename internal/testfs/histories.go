package testfs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Files returns the files the glob patterns match, sorted, and fails the
// test when none does: a test that reads recorded games must not quietly read
// none.
func Files(t testing.TB, patterns ...string) []string {
	t.Helper()
	var files []string
	for _, p := range patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			t.Fatalf("pattern %q: %v", p, err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no file matches %q", patterns)
	}
	sort.Strings(files)
	return files
}

// RecordedFENs returns the true boards before and after every move of the
// reconchess game histories the glob patterns match (the JSON the harness
// writes, as in testdata/histories), files in sorted order, and in each the
// boards of White's moves then Black's, the boards before then after. It
// fails the test when no file matches or one cannot be read: the tests that
// draw their positions from real games must not quietly test none.
func RecordedFENs(t testing.TB, patterns ...string) []string {
	t.Helper()
	var fens []string
	for _, f := range Files(t, patterns...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Before map[string][]string `json:"fens_before_move"`
			After  map[string][]string `json:"fens_after_move"`
		}
		if err := json.Unmarshal(data, &h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, side := range []string{"true", "false"} {
			fens = append(fens, h.Before[side]...)
			fens = append(fens, h.After[side]...)
		}
	}
	return fens
}
