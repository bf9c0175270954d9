package evaluator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func writeExecutable(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindStockfish(t *testing.T) {
	dir := t.TempDir()
	exe := writeExecutable(t, dir, "my-stockfish", 0o755)
	plain := writeExecutable(t, dir, "not-executable", 0o644)

	t.Setenv(StockfishEnv, exe)
	if p, ok := FindStockfish(); !ok || p != exe {
		t.Fatalf("env executable: %q %v", p, ok)
	}
	// An explicit but unusable choice is reported, not silently replaced.
	t.Setenv(StockfishEnv, plain)
	if p, ok := FindStockfish(); ok || p != plain {
		t.Fatalf("env not executable: %q %v", p, ok)
	}
	t.Setenv(StockfishEnv, filepath.Join(dir, "missing"))
	if _, ok := FindStockfish(); ok {
		t.Fatal("missing env path reported as found")
	}
	// Then PATH.
	pathDir := t.TempDir()
	onPath := writeExecutable(t, pathDir, "stockfish", 0o755)
	t.Setenv(StockfishEnv, "")
	t.Setenv("PATH", pathDir)
	if p, ok := FindStockfish(); !ok || p != onPath {
		t.Fatalf("PATH: %q %v", p, ok)
	}
	// Then the Debian location (present or not on this machine).
	t.Setenv("PATH", t.TempDir())
	p, ok := FindStockfish()
	if ok != isExecutable(DefaultStockfishPath) || (ok && p != DefaultStockfishPath) {
		t.Fatalf("fallback: %q %v", p, ok)
	}
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	ev, err := Open(ctx, KindEmbedded, OpenConfig{Logger: quietLogger()})
	if err != nil || ev.Name() != "embedded" {
		t.Fatalf("embedded: %v %v", ev, err)
	}
	t.Setenv(StockfishEnv, filepath.Join(t.TempDir(), "missing"))
	if _, err := Open(ctx, KindStockfish, OpenConfig{Logger: quietLogger()}); !errors.Is(err, ErrNoStockfish) {
		t.Fatalf("stockfish missing: %v", err)
	}
	ev, err = Open(ctx, KindAuto, OpenConfig{Logger: quietLogger()})
	if err != nil || ev.Name() != "embedded" {
		t.Fatalf("auto without stockfish: %v %v", ev, err)
	}
	// A "Stockfish" that is no UCI engine: auto falls back, stockfish fails.
	t.Setenv(StockfishEnv, writeExecutable(t, t.TempDir(), "fake", 0o755))
	cfg := OpenConfig{Engines: 1, Logger: quietLogger(), Pool: PoolConfig{CommandTimeout: 2 * time.Second}}
	if _, err := Open(ctx, KindStockfish, cfg); err == nil {
		t.Fatal("a non-engine opened as stockfish")
	}
	ev, err = Open(ctx, KindAuto, cfg)
	if err != nil || ev.Name() != "embedded" {
		t.Fatalf("auto with a broken stockfish: %v %v", ev, err)
	}
	if _, err := ParseKind("lc0"); err == nil {
		t.Fatal("ParseKind accepted lc0")
	}
}

func TestOpenStockfish(t *testing.T) {
	requireStockfish(t)
	ev, err := Open(context.Background(), KindAuto, OpenConfig{Engines: 1, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	if _, ok := ev.(*Stockfish); !ok {
		t.Fatalf("auto with Stockfish installed gave %s", ev.Name())
	}
}
