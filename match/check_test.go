package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestCheckRecord: an RBC history and a Kriegspiel record reproduce (their
// lines say ok, none with quiet), a record of neither kind is unreadable,
// and a tampered history diverges.
func TestCheckRecord(t *testing.T) {
	ctx := context.Background()
	r, err := record.LoadRecord("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	if line, ok, err := CheckRecord(ctx, r, false); !ok || err != nil || !strings.HasPrefix(line, r.Name()+": ok, ") {
		t.Errorf("history: %q, %v, %v", line, ok, err)
	}
	if line, ok, err := CheckRecord(ctx, r, true); !ok || err != nil || line != "" {
		t.Errorf("history, quiet: %q, %v, %v", line, ok, err)
	}
	tampered := *r
	tampered.Data = []byte(strings.Replace(string(r.Data), `"value": "c3e4"`, `"value": "c3d5"`, 1))
	if line, ok, _ := CheckRecord(ctx, &tampered, false); ok || !strings.Contains(line, "diverges") {
		t.Errorf("tampered: %q, %v", line, ok)
	}
	bad := record.Record{Path: "bad.json", Data: []byte("{")}
	if line, ok, err := CheckRecord(ctx, &bad, false); ok || err != nil || !strings.HasPrefix(line, "bad.json: unreadable: ") {
		t.Errorf("bad: %q, %v, %v", line, ok, err)
	}

	dir := t.TempDir()
	cfg := Config{Bot: "random-a", Opponent: "random-b", Games: 1, Initial: 60 * time.Second, Seed: 3, Out: dir,
		Concurrency: 1, TurnLimit: 20, Referee: KriegspielReferee{Rules: kriegspiel.Berkeley(), NewBot: kriegspielRandom}}
	rep, err := Play(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, rep.Results[0].Record))
	if err != nil {
		t.Fatal(err)
	}
	ks := record.Record{Path: "ks.json", Data: data}
	if line, ok, err := CheckRecord(ctx, &ks, false); !ok || err != nil || !strings.HasPrefix(line, "ks.json: ok, kriegspiel/berkeley, ") {
		t.Errorf("kriegspiel: %q, %v, %v", line, ok, err)
	}
}

// TestSaveRecord: the folder is made and the record named as a match's
// first game of the seed.
func TestSaveRecord(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "new")
	name, err := SaveRecord(dir, h, 7)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, RecordName(h.WhiteName, h.BlackName, 7, 0, 1)); name != want {
		t.Errorf("saved as %s, want %s", name, want)
	}
	if saved, err := record.LoadHistoryFile(name); err != nil || saved.Outcome != h.Outcome {
		t.Errorf("saved record: %v, %v", saved, err)
	}
}
