// Package stockfishpath finds the Stockfish binary. It is the one place that
// decides where Stockfish is (evaluator.LookupStockfish is this Lookup), and
// imports nothing of the project, so that the tests of every package, those
// of evaluator and evaluator/uci included, can ask it (through
// evaluator/stockfishtest) without an import cycle.
package stockfishpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
)

// Env is the environment variable that names the Stockfish binary, as the
// reference Trout bot and the tournament tooling expect.
const Env = "STOCKFISH_EXECUTABLE"

// Default is where Debian's stockfish package installs the binary;
// /usr/games is often missing from PATH.
const Default = "/usr/games/stockfish"

// defaultPath is Default, a variable for the tests.
var defaultPath = Default

// ErrNotFound reports that no Stockfish binary was found.
var ErrNotFound = errors.New("no Stockfish found ($" + Env + ", PATH, " + Default + ")")

// ErrBadEnv reports that $STOCKFISH_EXECUTABLE is set but names no
// executable file.
var ErrBadEnv = errors.New("$" + Env + " names no executable file")

// Lookup returns the Stockfish binary: $STOCKFISH_EXECUTABLE when it is set,
// else "stockfish" on PATH, else Default. An explicit choice that is broken
// is an error wrapping ErrBadEnv that names the path and what is wrong with
// it (it is not silently replaced by another Stockfish, so that a typo is
// noticed); when nothing is found the error is ErrNotFound.
func Lookup() (string, error) {
	if p := os.Getenv(Env); p != "" {
		if err := checkExecutable(p); err != nil {
			return p, fmt.Errorf("%w: %q (%v)", ErrBadEnv, p, err)
		}
		return p, nil
	}
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p, nil
	}
	if checkExecutable(defaultPath) == nil {
		return defaultPath, nil
	}
	return "", ErrNotFound
}

// checkExecutable says why path is not an executable regular file, or nil.
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		if errors.Is(err, fs.ErrNotExist) {
			return errors.New("no such file")
		}
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm()&0o111 == 0:
		return errors.New("not executable")
	}
	return nil
}
