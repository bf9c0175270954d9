package match

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

func kriegspielRandom(_ string, seed int64) (kriegspiel.Player, error) {
	return kriegspiel.NewRandomPlayer(uint64(seed)), nil
}

// TestKriegspielMatch plays a Kriegspiel match through the runner: its games
// are Kriegspiel records the referee reproduces, the results log names the
// variant, and a resumed match plays nothing again.
func TestKriegspielMatch(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Bot: "random-a", Opponent: "random-b", Games: 4, Initial: 60 * time.Second, Increment: time.Second,
		Seed: 3, Out: dir, Concurrency: 2, Alternate: true, TurnLimit: 60,
		Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: kriegspielRandom}}
	rep, err := Play(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Finished() != 4 {
		t.Fatalf("finished %d", rep.Finished())
	}
	for i, r := range rep.Results {
		if r.Variant != "kriegspiel/berkeley" || r.Outcome.Reason == "" {
			t.Errorf("game %d: variant %q, outcome %s", i, r.Variant, r.Outcome)
		}
		data, err := os.ReadFile(filepath.Join(dir, r.Record))
		if err != nil {
			t.Fatal(err)
		}
		if !ksrecord.Is(data) {
			t.Fatalf("game %d: %s is not a Kriegspiel record", i, r.Record)
		}
		rec, err := ksrecord.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rec.Replay(); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
		if rec.Result.ReasonName() != r.Outcome.Reason || rec.White != cfg.Game(i).White {
			t.Errorf("game %d: record %s %s, result %s", i, rec.Result, rec.White, r.Outcome)
		}
		turns := [2]int{}
		for _, tu := range rec.Turns {
			turns[tu.Color]++
		}
		if turns != r.Turns || r.Turns[chess.White] == 0 {
			t.Errorf("game %d: turns %v, record %v", i, r.Turns, turns)
		}
	}
	read, bare, err := ReadFolders([]string{dir})
	if err != nil || bare != 0 || len(read) != 4 {
		t.Fatalf("read back %d games (%d bare): %v", len(read), bare, err)
	}
	p := GroupPairings(read)
	if len(p) != 1 || p[0].Key.Variant != "kriegspiel/berkeley" || p[0].Both.Games != 4 {
		t.Errorf("pairings %+v", p)
	}
	// The same match again: everything is resumed. An RBC match of the same
	// bots, seed and clock into the folder resumes nothing of it.
	cfg.Resume = true
	rep, err = Play(context.Background(), cfg)
	if err != nil || rep.Resumed != 4 {
		t.Errorf("resumed %d: %v", rep.Resumed, err)
	}
	rbcCfg := cfg
	rbcCfg.Referee, rbcCfg.NewBot = nil, builtinBots
	n, err := resume(&rbcCfg, dir, make([]*Result, 4))
	if err != nil || n != 0 {
		t.Errorf("an RBC match resumed %d Kriegspiel games: %v", n, err)
	}

	// The records pack into an archive (match --archive), which the rest
	// reads them from.
	if path, n, err := Archive(dir, ArchiveName(Shard{}), nil); err != nil || n != 4 {
		t.Fatalf("Archive = %s, %d, %v; want 4 records", path, n, err)
	}
	// Without the results log (the records a tournament server saved) the
	// records alone give the same games, bare: no times.
	if err := os.Remove(filepath.Join(dir, LogName)); err != nil {
		t.Fatal(err)
	}
	read, bare, err = ReadFolders([]string{dir})
	if err != nil || bare != 4 || len(read) != 4 {
		t.Fatalf("read back %d games (%d bare) from the records alone: %v", len(read), bare, err)
	}
	logged := map[string]*Result{}
	for _, r := range rep.Results {
		logged[filepath.Base(r.Record)] = r
	}
	for _, r := range read {
		_, member, _ := strings.Cut(r.Record, ".tar.gz:") // the record's name in the archive
		want := logged[member]
		if want == nil || r.Variant != want.Variant || r.Outcome != want.Outcome || r.Turns != want.Turns ||
			r.White != want.White || r.Black != want.Black || r.Timed {
			t.Errorf("from its record: %+v, logged %+v", r, want)
		}
	}
}
