package evaluator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
)

func writeExecutable(t *testing.T, dir, name string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLookupStockfish: an explicit $STOCKFISH_EXECUTABLE that names no
// executable file is an error that says so, not "no Stockfish" (the lookup
// order is tested in stockfishpath).
func TestLookupStockfish(t *testing.T) {
	dir := t.TempDir()
	exe := writeExecutable(t, dir, "my-stockfish", 0o755)
	plain := writeExecutable(t, dir, "not-executable", 0o644)
	t.Setenv(StockfishEnv, exe)
	if p, err := LookupStockfish(); err != nil || p != exe {
		t.Fatalf("env executable: %q %v", p, err)
	}
	if p, ok := FindStockfish(); !ok || p != exe {
		t.Fatalf("FindStockfish, env executable: %q %v", p, ok)
	}
	t.Setenv(StockfishEnv, plain)
	if p, err := LookupStockfish(); !errors.Is(err, ErrBadStockfishEnv) || errors.Is(err, ErrNoStockfish) || p != plain {
		t.Fatalf("env not executable: %q %v", p, err)
	}
	if p, ok := FindStockfish(); ok || p != plain {
		t.Fatalf("FindStockfish, env not executable: %q %v", p, ok)
	}
	t.Setenv(StockfishEnv, "")
	t.Setenv("PATH", t.TempDir())
	if p, err := LookupStockfish(); err != nil && (!errors.Is(err, ErrNoStockfish) || p != "") {
		t.Fatalf("nothing on PATH: %q %v", p, err)
	}
}

func TestOpen(t *testing.T) {
	ctx := context.Background()
	ev, err := Open(ctx, KindEmbedded, OpenConfig{Logger: quietLogger()})
	if err != nil || ev.Name() != "embedded" {
		t.Fatalf("embedded: %v %v", ev, err)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	t.Setenv(StockfishEnv, missing)
	if _, err := Open(ctx, KindStockfish, OpenConfig{Logger: quietLogger()}); !errors.Is(err, ErrBadStockfishEnv) || !strings.Contains(err.Error(), missing) {
		t.Fatalf("stockfish named but missing: %v", err)
	}
	ev, err = Open(ctx, KindAuto, OpenConfig{Logger: quietLogger()})
	if err != nil || ev.Name() != "embedded" {
		t.Fatalf("auto with the stockfish named missing: %v %v", ev, err)
	}
	t.Setenv(StockfishEnv, "")
	t.Setenv("PATH", t.TempDir())
	if _, err := LookupStockfish(); errors.Is(err, ErrNoStockfish) { // else /usr/games/stockfish is here
		if _, err := Open(ctx, KindStockfish, OpenConfig{Logger: quietLogger()}); !errors.Is(err, ErrNoStockfish) {
			t.Fatalf("stockfish missing: %v", err)
		}
		ev, err = Open(ctx, KindAuto, OpenConfig{Logger: quietLogger()})
		if err != nil || ev.Name() != "embedded" {
			t.Fatalf("auto without stockfish: %v %v", ev, err)
		}
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
	stockfishtest.Path(t)
	ev, err := Open(context.Background(), KindAuto, OpenConfig{Engines: 1, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer ev.Close()
	if _, ok := ev.(*Stockfish); !ok {
		t.Fatalf("auto with Stockfish installed gave %s", ev.Name())
	}
}
