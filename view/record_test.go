package view

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestBuildFile: the page goes beside the record when no path is given,
// and a bad record writes nothing.
func TestBuildFile(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	game := filepath.Join(dir, "game.json")
	if err := os.WriteFile(game, data, 0o644); err != nil {
		t.Fatal(err)
	}
	path, turns, size, err := BuildFile(context.Background(), game, "", Options{Sampler: "exact"}, rbcPages)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "game.html") || turns == 0 || size == 0 {
		t.Errorf("path %s, %d turns, %d bytes", path, turns, size)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := BuildFile(context.Background(), bad, "", Options{Sampler: "exact"}, rbcPages); err == nil {
		t.Error("a bad record: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.html")); err == nil {
		t.Error("a bad record left a page")
	}
}

// TestNewBot: a bot of a known spec with its capture, an error for an
// unknown one.
func TestNewBot(t *testing.T) {
	b, err := NewBot("random", chess.Black, 1, time.Minute)
	if err != nil || b.Player == nil || b.Log == nil || b.Color != chess.Black || b.Spec != "random" {
		t.Fatalf("%+v, %v", b, err)
	}
	if _, err := NewBot("nobot", chess.White, 1, time.Minute); err == nil {
		t.Error("unknown bot: no error")
	}
}

// rbcPages gives every record RBC's page.
func rbcPages(*record.Record) (PageWriter, error) { return WriteRBCPage, nil }
