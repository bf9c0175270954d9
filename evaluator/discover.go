package evaluator

import (
	"os"
	"os/exec"
)

// StockfishEnv is the environment variable that names the Stockfish binary,
// as the reference Trout bot and the tournament tooling expect.
const StockfishEnv = "STOCKFISH_EXECUTABLE"

// DefaultStockfishPath is where Debian's stockfish package installs the
// binary; /usr/games is often missing from PATH.
const DefaultStockfishPath = "/usr/games/stockfish"

// FindStockfish looks for a Stockfish binary: $STOCKFISH_EXECUTABLE first
// (an explicit choice wins even if it is broken, so that a typo is noticed
// rather than silently replaced), then "stockfish" on PATH, then
// /usr/games/stockfish. It reports false when none is an executable file.
func FindStockfish() (string, bool) {
	if p := os.Getenv(StockfishEnv); p != "" {
		return p, isExecutable(p)
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p, true
	}
	if isExecutable(DefaultStockfishPath) {
		return DefaultStockfishPath, true
	}
	return "", false
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
