// Package stockfishtest is the one way tests decide whether Stockfish is
// here: every test that needs it starts with Path.
package stockfishtest

import (
	"errors"
	"os"
	"testing"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishpath"
)

// Path returns the Stockfish binary (stockfishpath.Lookup). When none is
// found it skips the test, except under CI=true, where Stockfish must be
// installed and its absence fails the test. An explicit $STOCKFISH_EXECUTABLE
// that names no executable file fails the test everywhere: it is a mistake
// to report, not a reason to skip.
func Path(t testing.TB) string {
	t.Helper()
	path, err := stockfishpath.Lookup()
	if err == nil {
		return path
	}
	if skip, msg := verdict(err, InCI()); skip {
		t.Skip(msg)
	} else {
		t.Fatal(msg)
	}
	return ""
}

// Optional returns the Stockfish binary and true, or "" and false when none
// is installed, for a test that runs with or without it (leaving Trout out
// of a match, say). Like Path, it fails the test under CI=true, where
// Stockfish must be installed, and on an explicit $STOCKFISH_EXECUTABLE that
// names no executable file.
func Optional(t testing.TB) (string, bool) {
	t.Helper()
	path, err := stockfishpath.Lookup()
	return optional(t, path, err)
}

// optional is Optional on the lookup's answer.
func optional(t testing.TB, path string, err error) (string, bool) {
	t.Helper()
	if err == nil {
		return path, true
	}
	if skip, msg := verdict(err, InCI()); skip {
		t.Log(msg)
	} else {
		t.Fatal(msg)
	}
	return "", false
}

// verdict says whether a test that needs Stockfish and met err looking for
// it is skipped (or fails), and why.
func verdict(err error, ci bool) (skip bool, msg string) {
	switch {
	case !errors.Is(err, stockfishpath.ErrNotFound):
		return false, "Stockfish: " + err.Error()
	case ci:
		return false, err.Error() + ", and CI=true requires one (apt-get install stockfish)"
	default:
		return true, err.Error() + "; install it (apt-get install stockfish) to run this test"
	}
}

// InCI reports whether the tests run under CI (CI=true), where nothing they
// need may be missing.
func InCI() bool { return os.Getenv("CI") == "true" }
