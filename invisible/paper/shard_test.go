package paper

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/match"
)

// outcomes reads a run's CSV back.
func outcomes(t *testing.T, data []byte) []Line {
	t.Helper()
	lines, err := ReadCSV(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return lines
}

// TestShardsMergeToTheWholeRun: Table 1 and Table 2 played whole, and
// played as two shards (same seed) whose CSV lines are merged, give the same
// table and count the same games; Table 1 is also the same at other
// --jobs, and a merge that lacks a shard says which game is missing.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	ctx := context.Background()
	t.Run("table1", func(t *testing.T) {
		opts := Options{Decisive: 2, MaxGames: 4, Jobs: 1, Seed: 7, Bot: "random"}
		var whole bytes.Buffer
		opts.CSV = &whole
		want, err := Table1(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Jobs = 3
		opts.CSV = nil
		if again, err := Table1(ctx, opts); err != nil || !reflect.DeepEqual(again, want) {
			t.Errorf("at 3 jobs: %v %v", err, again)
		}
		var lines []Line
		for k := range 2 {
			var buf bytes.Buffer
			o := opts
			o.Shard, o.CSV = match.Shard{K: k, N: 2}, &buf
			if _, err := Table1(ctx, o); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, outcomes(t, buf.Bytes())...)
		}
		if len(lines) != 28*opts.MaxGames {
			t.Errorf("the shards played %d games, want %d", len(lines), 28*opts.MaxGames)
		}
		got, used, err := MergeTable1(opts, lines)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("merged %v, whole %v", got, want)
		}
		var wholeOuts []Outcome
		for _, l := range outcomes(t, whole.Bytes()) {
			wholeOuts = append(wholeOuts, l.Outcome)
		}
		if !reflect.DeepEqual(used, wholeOuts) {
			t.Errorf("the merge counts %d games, the whole run %d, or others", len(used), len(wholeOuts))
		}
		var half []Line
		for _, l := range lines {
			if l.Seed%2 == 0 {
				half = append(half, l)
			}
		}
		if _, _, err := MergeTable1(opts, half); err == nil || !strings.Contains(err.Error(), "in none of the shards") {
			t.Errorf("a merge without half the games: %v", err)
		}
	})
	t.Run("table2", func(t *testing.T) {
		opts := Options{Games: 2, Jobs: 2, Seed: 3, Bot: "advisor"}
		want, err := Table2(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		var lines []Line
		for k := range 3 {
			var buf bytes.Buffer
			o := opts
			o.Shard, o.CSV = match.Shard{K: k, N: 3}, &buf
			if _, err := Table2(ctx, o); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, outcomes(t, buf.Bytes())...)
		}
		got, _, err := MergeTable2(opts, lines)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("merged %v (%v), whole %v", got, err, want)
		}
	})
}

// TestRunShardAndMerge: the command line's two shards in one folder and
// their merge print the whole run's Table 1, and the merge writes the
// whole run's CSV.
func TestRunShardAndMerge(t *testing.T) {
	ctx := context.Background()
	dir, wholeDir := t.TempDir(), t.TempDir()
	common := []string{"--decisive", "1", "--max-games", "2", "--seed", "5", "--bot", "random", "--quiet"}
	run := func(args ...string) string {
		t.Helper()
		var out, errs bytes.Buffer
		if err := Run(ctx, append([]string{"table1"}, append(common, args...)...), &out, &errs); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errs.String())
		}
		s := out.String()
		return s[:strings.LastIndex(s, "\n(")] // the timing line differs
	}
	whole := run("--out", wholeDir)
	run("--shard", "0/2", "--out", dir)
	run("--shard", "1/2", "--out", dir)
	for _, name := range []string{"table1.shard-0-of-2.csv", "table1.shard-1-of-2.csv", "table1.shard-1-of-2.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if merged := run("--merge", "--out", dir, dir); merged != whole {
		t.Errorf("merged:\n%s\nwhole:\n%s", merged, whole)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "table1.csv"))
	b, _ := os.ReadFile(filepath.Join(wholeDir, "table1.csv"))
	if !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("the merge's CSV (%d bytes) is not the whole run's (%d bytes)", len(a), len(b))
	}
	var out, errs bytes.Buffer
	for _, bad := range [][]string{{"figure3", "--shard", "0/2"}, {"table1", "--shard", "2/2"}, {"table1", "--merge"}, {"table2", "--merge", "--shard", "0/2", dir}} {
		if err := Run(ctx, bad, &out, &errs); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// FuzzReadCSV: any input is read or refused, never a panic, and what is
// read writes back to lines that read the same.
func FuzzReadCSV(f *testing.F) {
	f.Add("table,cell,seed,white_config,black_config,white_bot,black_bot,winner,reason,turns,white_entropy,black_entropy\ntable1,1B:1N,8,1B,1N,random,random,white,CHECKMATE,31,0.00,1.58\n")
	f.Add("table,cell\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, data string) {
		lines, err := ReadCSV(strings.NewReader(data))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		cw := newCSVWriter(&buf)
		for _, l := range lines {
			writeCSV(cw, l.Table, l.Cell, []Outcome{l.Outcome})
		}
		cw.Flush()
		again, err := ReadCSV(&buf)
		if err != nil || len(again) != len(lines) {
			t.Fatalf("%d lines read back as %d: %v", len(lines), len(again), err)
		}
	})
}
