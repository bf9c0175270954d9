package match

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportWriteArchiveAndMerge: a match's printed summary, its records
// archived, and the folder merged back print the same games.
func TestReportWriteArchiveAndMerge(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(dir, 6)
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := rep.Write(&out, &cfg, ""); err != nil {
		t.Fatal(err)
	}
	head := strings.SplitN(out.String(), "\n", 2)[0]
	want := "random vs attacker: 6 games, clock " + cfg.Clock() + " s, seed 5, records in " + dir
	if head != want || rep.Interrupted() {
		t.Errorf("head %q, want %q (interrupted %v)", head, want, rep.Interrupted())
	}
	if !strings.Contains(out.String(), "random  attacker  white") {
		t.Errorf("no table:\n%s", out.String())
	}
	path, n, err := rep.Archive(&cfg)
	if err != nil || n != cfg.Games || filepath.Dir(path) != dir {
		t.Fatalf("archive %s of %d records: %v", path, n, err)
	}

	m, err := Merge([]string{dir}, ReadRBCRecord)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Head(); got != "merged 6 games from 1 folder" {
		t.Errorf("head %q", got)
	}
	var merged bytes.Buffer
	if err := m.Write(&merged, &SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(merged.String(), "random  attacker  white  "+cfg.Clock()) || !strings.Contains(merged.String(), "SPRT ") {
		t.Errorf("merged:\n%s", merged.String())
	}
	if err := m.Rate(RatingOptions{Anchor: "random", Prior: 1}); err != nil {
		t.Fatal(err)
	}
	var rated bytes.Buffer
	if err := m.Write(&rated, nil); err != nil || !strings.Contains(rated.String(), "attacker") || strings.Contains(rated.String(), "SPRT") {
		t.Errorf("rated (%v):\n%s", err, rated.String())
	}

	empty := t.TempDir()
	if m, err := Merge([]string{empty}, ReadRBCRecord); err == nil || m == nil || !strings.Contains(err.Error(), "no games in "+empty) {
		t.Errorf("an empty folder: %v, %v", m, err)
	}
}

// TestReportCount says what the reader must know about the count.
func TestReportCount(t *testing.T) {
	cfg := Config{Games: 10, Out: "out", Shard: Shard{K: 1, N: 2}}
	rep := Report{Results: make([]*Result, 10), Void: []*Result{{}}, Scheduled: 5, Resumed: 2}
	rep.Results[1], rep.Results[3] = &Result{}, &Result{}
	want := "2 of 5 games finished (and 1 void: a bot failed, see errors; shard 1/2 of 10 games; 2 already in out)"
	if got := rep.Count(&cfg); got != want || !rep.Interrupted() {
		t.Errorf("got %q (interrupted %v), want %q", got, rep.Interrupted(), want)
	}
	rep.Stopped = true
	if got := rep.Count(&cfg); !strings.HasPrefix(got, "2 games (of at most 5: stopped by the SPRT;") || rep.Interrupted() {
		t.Errorf("stopped: %q", got)
	}
}
