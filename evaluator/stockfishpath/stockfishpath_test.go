package stockfishpath

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLookup: $STOCKFISH_EXECUTABLE first (a broken one is an error that says
// what is wrong, never "not found" nor another Stockfish), then PATH, then
// the Debian location, else ErrNotFound.
func TestLookup(t *testing.T) {
	dir := t.TempDir()
	exe := writeFile(t, dir, "my-stockfish", 0o755)
	plain := writeFile(t, dir, "not-executable", 0o644)
	pathDir := t.TempDir()
	onPath := writeFile(t, pathDir, "stockfish", 0o755)
	t.Setenv("PATH", pathDir) // a Stockfish on PATH must not replace a broken explicit one
	defer func(p string) { defaultPath = p }(defaultPath)
	defaultPath = filepath.Join(dir, "no-default")

	t.Setenv(Env, exe)
	if p, err := Lookup(); err != nil || p != exe {
		t.Fatalf("env executable: %q %v", p, err)
	}
	for _, c := range []struct{ path, why string }{
		{plain, "not executable"},
		{filepath.Join(dir, "missing"), "no such file"},
		{dir, "not a regular file"},
	} {
		t.Setenv(Env, c.path)
		p, err := Lookup()
		if !errors.Is(err, ErrBadEnv) || errors.Is(err, ErrNotFound) || p != c.path {
			t.Fatalf("env %s: %q %v; want ErrBadEnv", c.path, p, err)
		}
		if msg := err.Error(); !strings.Contains(msg, Env) || !strings.Contains(msg, c.path) || !strings.Contains(msg, c.why) {
			t.Errorf("env %s: error %q does not say what is wrong (%s)", c.path, msg, c.why)
		}
	}

	t.Setenv(Env, "")
	if p, err := Lookup(); err != nil || p != onPath {
		t.Fatalf("PATH: %q %v", p, err)
	}
	t.Setenv("PATH", t.TempDir())
	if p, err := Lookup(); !errors.Is(err, ErrNotFound) || p != "" {
		t.Fatalf("nothing: %q %v; want ErrNotFound", p, err)
	}
	defaultPath = exe
	if p, err := Lookup(); err != nil || p != exe {
		t.Fatalf("default location: %q %v", p, err)
	}
}
