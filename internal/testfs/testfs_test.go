package testfs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

func TestRecordedFENs(t *testing.T) {
	one := RecordedFENs(t, "../../testdata/histories/random_bot-trout_bot-gen-001.json")
	all := RecordedFENs(t, "../../testdata/histories/*.json")
	if len(one) == 0 || len(all) <= len(one) {
		t.Fatalf("%d boards from one game, %d from all", len(one), len(all))
	}
	for _, fen := range all {
		if len(strings.Fields(fen)) != 6 {
			t.Fatalf("not a FEN: %q", fen)
		}
	}
	if again := RecordedFENs(t, "../../testdata/histories/*.json"); !slices.Equal(again, all) {
		t.Error("a second read gives other boards or another order")
	}
}
