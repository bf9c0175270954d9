package stockfishtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishpath"
)

// TestVerdict: missing Stockfish skips, except under CI; a broken explicit
// choice always fails.
func TestVerdict(t *testing.T) {
	bad := fmt.Errorf("%w: %q (no such file)", stockfishpath.ErrBadEnv, "/nowhere/stockfish")
	for _, c := range []struct {
		err  error
		ci   bool
		skip bool
		says string
	}{
		{stockfishpath.ErrNotFound, false, true, "install it"},
		{stockfishpath.ErrNotFound, true, false, "CI=true requires one"},
		{bad, false, false, "/nowhere/stockfish"},
		{bad, true, false, "/nowhere/stockfish"},
	} {
		skip, msg := verdict(c.err, c.ci)
		if skip != c.skip || !strings.Contains(msg, c.says) {
			t.Errorf("verdict(%v, ci=%v) = %v %q; want skip=%v, saying %q", c.err, c.ci, skip, msg, c.skip, c.says)
		}
	}
}

// recorder is a testing.TB that records Skip and Fatal instead of stopping.
type recorder struct {
	testing.TB
	skipped, failed, logged string
}

func (r *recorder) Helper()           {}
func (r *recorder) Skip(args ...any)  { r.skipped = fmt.Sprint(args...) }
func (r *recorder) Fatal(args ...any) { r.failed = fmt.Sprint(args...) }
func (r *recorder) Log(args ...any)   { r.logged = fmt.Sprint(args...) }

// TestPath: the path when $STOCKFISH_EXECUTABLE names an executable, a
// failure (not a skip) when it names nothing usable.
func TestPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "stockfish")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CI", "")
	t.Setenv(stockfishpath.Env, exe)
	r := &recorder{TB: t}
	if p := Path(r); p != exe || r.skipped != "" || r.failed != "" {
		t.Fatalf("Path = %q (skipped %q, failed %q); want %s", p, r.skipped, r.failed, exe)
	}
	missing := filepath.Join(dir, "missing")
	t.Setenv(stockfishpath.Env, missing)
	r = &recorder{TB: t}
	if Path(r); r.failed == "" || r.skipped != "" || !strings.Contains(r.failed, missing) {
		t.Fatalf("broken $%s: skipped %q, failed %q; want a failure naming it", stockfishpath.Env, r.skipped, r.failed)
	}
}

// TestOptional: the path when there is one; without one, false and a line
// in the log outside CI, a failure under CI=true; a broken explicit choice
// fails everywhere.
func TestOptional(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "stockfish")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CI", "")
	t.Setenv(stockfishpath.Env, exe)
	r := &recorder{TB: t}
	if p, ok := Optional(r); p != exe || !ok || r.failed != "" {
		t.Fatalf("Optional = %q %v (failed %q); want %s", p, ok, r.failed, exe)
	}
	missing := filepath.Join(dir, "missing")
	t.Setenv(stockfishpath.Env, missing)
	r = &recorder{TB: t}
	if _, ok := Optional(r); ok || !strings.Contains(r.failed, missing) {
		t.Fatalf("broken $%s: ok %v, failed %q; want a failure naming it", stockfishpath.Env, ok, r.failed)
	}
	// Nothing installed.
	r = &recorder{TB: t}
	if _, ok := optional(r, "", stockfishpath.ErrNotFound); ok || r.failed != "" || r.logged == "" {
		t.Errorf("no Stockfish outside CI: ok %v, failed %q, logged %q; want false and a log line", ok, r.failed, r.logged)
	}
	t.Setenv("CI", "true")
	r = &recorder{TB: t}
	if _, ok := optional(r, "", stockfishpath.ErrNotFound); ok || r.failed == "" {
		t.Errorf("no Stockfish under CI: ok %v, failed %q; want a failure", ok, r.failed)
	}
}
