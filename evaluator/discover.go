package evaluator

import "github.com/blindfish-rbc/blindfish/evaluator/stockfishpath"

// StockfishEnv is the environment variable that names the Stockfish binary,
// as the reference Trout bot and the tournament tooling expect.
const StockfishEnv = stockfishpath.Env

// DefaultStockfishPath is where Debian's stockfish package installs the
// binary; /usr/games is often missing from PATH.
const DefaultStockfishPath = stockfishpath.Default

// LookupStockfish returns the Stockfish binary: $STOCKFISH_EXECUTABLE when it
// is set, else "stockfish" on PATH, else /usr/games/stockfish. When none is
// found the error is ErrNoStockfish; an explicit $STOCKFISH_EXECUTABLE that
// names no executable file is an error of its own (wrapping ErrBadStockfishEnv
// and naming the path), never silently replaced by another Stockfish.
func LookupStockfish() (string, error) {
	return stockfishpath.Lookup()
}

// ErrBadStockfishEnv reports that $STOCKFISH_EXECUTABLE is set but names no
// executable file.
var ErrBadStockfishEnv = stockfishpath.ErrBadEnv

// FindStockfish is LookupStockfish without the reason: the path found, or
// the broken explicit choice with false, or "" and false.
func FindStockfish() (string, bool) {
	p, err := LookupStockfish()
	return p, err == nil
}
