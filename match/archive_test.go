package match

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blindfish-rbc/blindfish/record"
)

// looseRecords lists the loose records of dir.
func looseRecords(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if record.IsRecordName(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func copyRecord(t *testing.T, name, dir, as string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "histories", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, as), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestArchive: a match folder packed into an archive merges to the same
// table, its log's records are still found under their names, and later
// archives of the same folder take new names and only the records asked for.
func TestArchive(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir, 4)
	rep, err := Play(context.Background(), cfg)
	if err != nil || rep.Finished() != 4 {
		t.Fatalf("play: %d games, %v", rep.Finished(), err)
	}
	copyRecord(t, "trout_bot-trout_bot-6-000.json", dir, "harness.json") // a bare game
	before, bare, err := ReadFolders([]string{dir}, ReadRBCRecord)
	if err != nil || bare != 1 {
		t.Fatalf("before: %d bare, %v", bare, err)
	}
	wantTable := cellsWithoutTimes(ResultsTable(GroupPairings(before), false))

	path, n, err := Archive(dir, ArchiveName(Shard{}), nil, ReadRBCRecord)
	if err != nil || n != 5 || path != filepath.Join(dir, "games.tar.gz") {
		t.Fatalf("Archive = %s, %d, %v; want games.tar.gz, 5", path, n, err)
	}
	if left := looseRecords(t, dir); len(left) != 0 {
		t.Errorf("loose records left: %v", left)
	}
	after, bare, err := ReadFolders([]string{dir}, ReadRBCRecord)
	if err != nil || bare != 1 || len(after) != len(before) {
		t.Fatalf("after: %d games, %d bare, %v", len(after), bare, err)
	}
	if got := cellsWithoutTimes(ResultsTable(GroupPairings(after), false)); !slices.EqualFunc(got, wantTable, slices.Equal) {
		t.Errorf("merged table after archiving:\n%v\nbefore:\n%v", got, wantTable)
	}
	for _, r := range after {
		if _, err := record.LoadHistoryFile(r.Record); err != nil {
			t.Errorf("record %s of the log: %v", r.Record, err)
		}
	}

	// Nothing loose: nothing to do.
	if path, n, err := Archive(dir, "games", nil, ReadRBCRecord); path != "" || n != 0 || err != nil {
		t.Errorf("Archive of a packed folder = %q, %d, %v", path, n, err)
	}
	// Two runs archiving their own records at once: each gets a name of
	// its own, and a record of neither stays loose.
	copyRecord(t, "attacker_bot-random_bot-3-004.json", dir, "a.json")
	copyRecord(t, "attacker_bot-random_bot-3-005.json", dir, "b.json")
	copyRecord(t, "attacker_bot-random_bot-3-006.json", dir, "c.json")
	var wg sync.WaitGroup
	paths := make([]string, 2)
	for i, names := range [][]string{{"a.json"}, {"b.json"}} {
		wg.Go(func() {
			p, n, err := Archive(dir, "games", names, ReadRBCRecord)
			if err != nil || n != 1 {
				t.Errorf("Archive(%v) = %s, %d, %v", names, p, n, err)
			}
			paths[i] = p
		})
	}
	wg.Wait()
	slices.Sort(paths)
	if want := []string{filepath.Join(dir, "games-2.tar.gz"), filepath.Join(dir, "games-3.tar.gz")}; !slices.Equal(paths, want) {
		t.Errorf("archives %v, want %v", paths, want)
	}
	if left := looseRecords(t, dir); !slices.Equal(left, []string{"c.json"}) {
		t.Errorf("loose records left: %v, want c.json", left)
	}
	n = 0
	for _, err := range record.Records(dir) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 8 {
		t.Errorf("the folder reads as %d records, want 8", n)
	}

	// A broken record stops it before anything is written.
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"type": "GameHistory"`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Archive(dir, "games", nil, ReadRBCRecord); err == nil || !strings.Contains(err.Error(), "bad.json") {
		t.Errorf("Archive with a broken record: %v; want an error naming it", err)
	}
	if left := looseRecords(t, dir); !slices.Equal(left, []string{"bad.json", "c.json"}) {
		t.Errorf("loose records after a failed archive: %v", left)
	}
	if _, err := os.Stat(filepath.Join(dir, "games-4.tar.gz")); err == nil {
		t.Error("a failed archive left an archive")
	}
	if ArchiveName(Shard{K: 1, N: 4}) != "games.shard-1-of-4" {
		t.Errorf("ArchiveName of shard 1/4 = %s", ArchiveName(Shard{K: 1, N: 4}))
	}
}
