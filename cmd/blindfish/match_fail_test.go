package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/match"
)

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
