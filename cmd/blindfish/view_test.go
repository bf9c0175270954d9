package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestViewCommand makes a page from a record with the exact belief of both
// sides and reports it on stdout.
func TestViewCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "game.html")
	var stdout, stderr bytes.Buffer
	err := runView(context.Background(), []string{"-o", out,
		filepath.Join("..", "..", "testdata", "histories", "attacker_bot-random_bot-3-000.json")}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("view: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "7 turns") {
		t.Errorf("stdout: %q", stdout.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"sampler":"exact"`)) || !bytes.Contains(data, []byte(`"beliefs":{"black":`)) {
		t.Error("page lacks the exact beliefs")
	}
}

// TestViewBadRecord checks that a record that does not parse is an error
// naming the bad field, and that no page, whole or partial, is left behind.
func TestViewBadRecord(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "..", "testdata", "histories", "attacker_bot-random_bot-3-000.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"fen", `"fens_before_move": {"true": ["`, `"fens_before_move": {"true": ["xx`, "fens_before_move"},
		{"syntax", `{`, `[`, "bad game history"},
		{"three kings", `"fens_before_move": {"true": ["rnbqkbnr/pppppppp/8/8/8/8/`, `"fens_before_move": {"true": ["rnbqkbnr/pppppppp/8/8/8/3K4/`, "white has 2 kings"},
		{"no kings", `"fens_before_move": {"true": ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR`,
			`"fens_before_move": {"true": ["rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR`, "white has 0 kings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			bad := strings.Replace(string(good), tc.from, tc.to, 1)
			if bad == string(good) {
				t.Fatalf("record does not contain %q", tc.from)
			}
			rec := filepath.Join(dir, "bad.json")
			if err := os.WriteFile(rec, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			err := runView(context.Background(), []string{"-o", filepath.Join(dir, "bad.html"), rec}, &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one naming %q", err, tc.want)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("folder holds %d files, want only the record", len(entries))
			}
		})
	}
}

// TestViewUsage checks the flags' checks.
func TestViewUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--color", "red", "x.json"}, {"--sampler", "nope", "x.json"}, {"--max-boards", "0", "x.json"},
		{"--bot", "random", "x.json"}, {"--bot", "nobot", "--bot-color", "white", "x.json"}, {"--bot-color", "white", "x.json"},
		{"--bot", "random", "--color", "white", "--clock", "0", "x.json"}} {
		var stdout, stderr bytes.Buffer
		err := runView(context.Background(), args, &stdout, &stderr)
		if _, ok := err.(usageError); !ok {
			t.Errorf("view %q: error %v, want a usage error", args, err)
		}
	}
}

// TestViewBot: with --bot, the page holds the bot's choice at every turn of
// its side (--color's side when --bot-color is not given).
func TestViewBot(t *testing.T) {
	out := filepath.Join(t.TempDir(), "game.html")
	var stdout, stderr bytes.Buffer
	err := runView(context.Background(), []string{"--color", "black", "--sampler", "aosp", "--pool", "200", "--bot", "attacker", "-o", out,
		filepath.Join("..", "..", "testdata", "histories", "attacker_bot-random_bot-3-000.json")}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("view: %v\n%s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"bot":{"spec":"attacker","color":"black","leftS":60,"turns":[{"sense":`)) {
		t.Error("page lacks the bot's choices")
	}
}
