package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/match"
)

// checkVoidTable fails unless the match's table counts no game for either
// side and shows errors, the bot's and the opponent's, as want.
func checkVoidTable(t *testing.T, out, errors string) {
	t.Helper()
	both := tableRow(t, out, "both")
	// bot opponent as games wins draws losses score elo interval turns
	// time/turn bot, opp, time losses, errors, degraded, reasons
	if both[3] != "0" || both[4] != "0" || both[6] != "0" || both[14] != errors || strings.Join(both[16:], " ") != "ERROR 2" {
		t.Errorf("both row %v: want no game counted, errors %s, ERROR 2\n%s", both, errors, out)
	}
}

// TestMatchEngineThatCannotStartFails: games against an external engine
// that does not start are void, not won by resignation; the failure is
// told once on stderr and the match exits 1 naming the bot.
func TestMatchEngineThatCannotStartFails(t *testing.T) {
	const spec = "cmd:/nonexistent/engine"
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "random", "--black", spec,
		"--games", "2", "--clock", "10+0.1", "--out", t.TempDir())
	if code != 1 {
		t.Errorf("exit %d, want 1\n%s%s", code, out, errs)
	}
	if n := strings.Count(errs, "failed in game"); n != 1 || !strings.Contains(errs, `"`+spec+`"`) ||
		!strings.Contains(errs, "/nonexistent/engine: no such file") || !strings.Contains(lastLine(errs), spec) {
		t.Errorf("stderr (want the failure told once, then the error naming %s):\n%s", spec, errs)
	}
	checkVoidTable(t, out, "0/2")
}

// TestMatchTroutWithBrokenStockfishFails: Trout whose Stockfish cannot start
// forfeits nothing: the games are void and the match exits 1 naming it.
func TestMatchTroutWithBrokenStockfishFails(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake Stockfish is a shell script")
	}
	sf := filepath.Join(t.TempDir(), "stockfish")
	if err := os.WriteFile(sf, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STOCKFISH_EXECUTABLE", sf)
	code, out, errs := runBlindfish(t, context.Background(), "match", "--white", "trout", "--black", "random",
		"--games", "2", "--clock", "10+0.1", "--out", t.TempDir())
	if code != 1 || !strings.Contains(errs, `bot "trout" failed in game`) || !strings.Contains(lastLine(errs), `"trout"`) ||
		!strings.Contains(errs, "Stockfish") {
		t.Errorf("exit %d, want 1 with trout's failure on stderr\n%s%s", code, out, errs)
	}
	checkVoidTable(t, out, "2/0")
}

// tearLog cuts the last line of dir's results log in half, without its
// newline, as a full disk leaves it.
func tearLog(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, match.LogName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.TrimSuffix(data, []byte{'\n'})
	start := bytes.LastIndexByte(data, '\n') + 1
	if err := os.WriteFile(path, data[:start+(len(data)-start)/2], 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMatchTornResultsLine: a results log whose last line was cut short
// resumes (the line set aside and named on stderr, its game played again),
// merges, and takes a --resume=false run's lines on lines of their own; a
// damaged line in the middle is named and skipped by both.
func TestMatchTornResultsLine(t *testing.T) {
	dir := t.TempDir()
	args := []string{"match", "--white", "random", "--black", "attacker", "--games", "4", "--clock", "60+1", "--out", dir, "--index=false"}
	if code, out, errs := runBlindfish(t, context.Background(), args...); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	log := filepath.Join(dir, match.LogName)

	tearLog(t, dir)
	code, out, errs := runBlindfish(t, context.Background(), "match", "--merge", dir)
	if code != 0 || !strings.Contains(errs, log+":4: ") || !strings.Contains(out, "merged 4 games") {
		t.Errorf("merge with a torn line: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runBlindfish(t, context.Background(), args...)
	if code != 0 || !strings.Contains(errs, log+":4: torn last line") || !strings.Contains(out, "(3 already in "+dir+")") {
		t.Errorf("resume with a torn line: exit %d\n%s%s", code, out, errs)
	}
	if _, err := match.ReadLog(log); err != nil {
		t.Errorf("log after the resume: %v", err)
	}

	tearLog(t, dir)
	code, out, errs = runBlindfish(t, context.Background(), append(args, "--resume=false")...)
	if code != 0 || !strings.Contains(errs, log+":4: torn last line") {
		t.Errorf("--resume=false after a torn line: exit %d\n%s%s", code, out, errs)
	}
	lines, err := match.ReadLog(log)
	if err != nil || len(lines) != 7 {
		t.Errorf("log after --resume=false: %d lines, %v", len(lines), err)
	}

	data, _ := os.ReadFile(log)
	ls := strings.SplitAfter(string(data), "\n")
	ls[1] = "{\"record\": \"oops\n"
	os.WriteFile(log, []byte(strings.Join(ls, "")), 0o644)
	code, out, errs = runBlindfish(t, context.Background(), "match", "--merge", dir)
	if code != 0 || !strings.Contains(errs, log+":2: ") || !strings.Contains(out, "merged 6 games") {
		t.Errorf("merge with a bad middle line: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runBlindfish(t, context.Background(), args...)
	if code != 0 || !strings.Contains(errs, log+":2: ") || !strings.Contains(out, "(4 already in "+dir+")") {
		t.Errorf("resume with a bad middle line: exit %d\n%s%s", code, out, errs)
	}
}
