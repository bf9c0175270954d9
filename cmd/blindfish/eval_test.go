package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// crashFENs are RBC boards that crash or confuse Stockfish when sent raw.
var crashFENs = map[string]string{
	"side to move can capture the king": "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 3",
	"castling without rook":             "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 9",
	"triple check":                      "4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1",
	"stale en passant":                  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
}

func TestEvalEmbeddedOnCrashBoards(t *testing.T) {
	for name, fen := range crashFENs {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runCmd(t, "eval", "--engine", "embedded", "--fen", fen, "--depth", "2")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range []string{"evaluator: embedded", "guard:", "score:"} {
				if !strings.Contains(out, want) {
					t.Fatalf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestEvalStockfishOnCrashBoards(t *testing.T) {
	stockfishtest.Path(t)
	for name, fen := range crashFENs {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runCmd(t, "eval", "--engine", "stockfish", "--fen", fen, "--nodes", "2000", "--move", "0000")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(out, "evaluator: stockfish") || !strings.Contains(out, "move score:") {
				t.Fatalf("output:\n%s", out)
			}
			if strings.Contains(errs, "engine failed") {
				t.Fatalf("engine failed:\n%s", errs)
			}
		})
	}
}

func TestEvalOutput(t *testing.T) {
	code, out, errs := runCmd(t, "eval", "--engine", "embedded", "--fen", "k7/8/8/8/8/8/8/R3K3 w - - 0 1", "--move", "a1a8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"guard:     terminal: side to move can capture the king",
		"score:     wins: captures the king in 1 (white to move; value 9999; by guard",
		"move:      a1a8 requested, taken: a1a8, captures on a8",
		"move score: +9000 for white (captures the king)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The request is resolved as the harness would: the rook stops on a5.
	code, out, errs = runCmd(t, "eval", "--engine", "embedded", "--fen", "k7/8/8/p7/8/8/8/R3K3 w - -", "--move", "a1a8", "--depth", "1")
	if code != 0 || !strings.Contains(out, "taken: a1a5, captures on a5") {
		t.Fatalf("exit %d, output:\n%s%s", code, out, errs)
	}
	// Castling rights without the rook are dropped before the engine sees them.
	code, out, _ = runCmd(t, "eval", "--engine", "embedded", "--fen", crashFENs["castling without rook"], "--depth", "1")
	if code != 0 || !strings.Contains(out, "engine-safe after dropping castling") || !strings.Contains(out, " w Qq - 0 1)") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	// A pass is always allowed.
	code, out, _ = runCmd(t, "eval", "--engine", "embedded", "--fen", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "--move", "0000")
	if code != 0 || !strings.Contains(out, "taken: no move (pass)") || !strings.Contains(out, "-7000 for white (leaves own king capturable)") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestEvalErrors(t *testing.T) {
	start := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no fen", []string{}, 2, "--fen is required"},
		{"bad fen", []string{"--fen", "rnbqkbnr/pppppppp/8/8 w"}, 1, "bad FEN"},
		{"pawn on the back rank", []string{"--fen", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"}, 1, "pawn on rank 8"},
		// Boards no RBC game reaches are refused, not scored (the engine's
		// guard against them is the evaluator's own test).
		{"missing king", []string{"--fen", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 5"}, 1, "black has 0 kings"},
		{"two kings", []string{"--fen", "rnbqkbnr/pppppppp/8/8/8/3K4/PPPPPPPP/RNBQKBNR w KQkq - 0 1"}, 1, "white has 2 kings"},
		{"two limits", []string{"--fen", start, "--depth", "3", "--nodes", "100"}, 2, "at most one of"},
		{"negative depth", []string{"--fen", start, "--depth", "-1"}, 2, "must not be negative"},
		{"unknown engine", []string{"--fen", start, "--engine", "lc0"}, 2, "unknown kind"},
		{"stray argument", []string{"--fen", start, "extra"}, 2, "unexpected argument"},
		{"bad move", []string{"--fen", start, "--move", "e2e9"}, 1, "bad move"},
		{"not a move action", []string{"--fen", start, "--move", "e2e5"}, 1, "not a move action"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := runCmd(t, append([]string{"eval", "--engine", "embedded"}, c.args...)...)
			if c.name == "unknown engine" {
				code, _, errs = runCmd(t, append([]string{"eval"}, c.args...)...)
			}
			if code != c.code || !strings.Contains(errs, c.msg) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errs, c.code, c.msg)
			}
		})
	}
}

func TestEvalMissingStockfish(t *testing.T) {
	t.Setenv(evaluator.StockfishEnv, "/nonexistent/stockfish")
	fen := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	code, _, errs := runCmd(t, "eval", "--engine", "stockfish", "--fen", fen)
	// The explicit but broken choice is named, not taken for "no Stockfish".
	if code != 1 || !strings.Contains(errs, "STOCKFISH_EXECUTABLE") || !strings.Contains(errs, "/nonexistent/stockfish") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	// auto falls back to the embedded evaluator and says so.
	code, out, errs := runCmd(t, "eval", "--fen", fen, "--depth", "1")
	if code != 0 || !strings.Contains(out, "evaluator: embedded") {
		t.Fatalf("exit %d, output:\n%s%s", code, out, errs)
	}
}
