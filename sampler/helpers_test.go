package sampler

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/record"
)

// fullRun reports whether the long tests run over every recorded game: set
// BLINDFISH_FULL_TESTS=1 (it takes tens of minutes on 2 cores). The default
// run, and every -short or -race run, uses the first few games only.
func fullRun() bool {
	return os.Getenv("BLINDFISH_FULL_TESTS") == "1" && !testing.Short() && !raceEnabled
}

// historyFiles returns the recorded games of the repository's testdata.
func historyFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("../testdata/histories/*.json")
	if err != nil || len(files) == 0 {
		t.Skip("no recorded games in ../testdata/histories")
	}
	return files
}

func loadTurns(t testing.TB, file string, c chess.Color) (chess.Board, []ObservedTurn) {
	t.Helper()
	h, err := record.LoadHistoryFile(file)
	if err != nil {
		t.Fatal(err)
	}
	start, turns, err := Observations(h, c)
	if err != nil {
		t.Fatal(err)
	}
	return start, turns
}

// checkpoint says where in a turn a belief is checked.
type checkpoint int

const (
	afterNotice checkpoint = iota
	afterSense
	afterMove
)

func (c checkpoint) String() string {
	return [...]string{"after notice", "after sense", "after move"}[c]
}

// replayTurns feeds turns[:limit] to s and calls check at each checkpoint
// with the true board.
func replayTurns(t testing.TB, s Sampler, c chess.Color, start chess.Board, turns []ObservedTurn, limit int,
	check func(turn int, at checkpoint, truth *chess.Board)) {
	t.Helper()
	replayPath(t, s, c, start, turns, limit, func(turn int, at checkpoint, path []chess.Board) {
		check(turn, at, &path[len(path)-1])
	})
}

// replayPath is replayTurns that passes the true board after every
// observation so far (for Present).
func replayPath(t testing.TB, s Sampler, c chess.Color, start chess.Board, turns []ObservedTurn, limit int,
	check0 func(turn int, at checkpoint, path []chess.Board)) {
	t.Helper()
	replayUntil(t, s, c, start, turns, limit, func(turn int, at checkpoint, path []chess.Board) bool {
		check0(turn, at, path)
		return true
	})
}

// replayUntil is replayPath that stops when check returns false: the
// belief then has seen exactly the observations of the path check was given
// last (so that a test may go on asking it about that path).
func replayUntil(t testing.TB, s Sampler, c chess.Color, start chess.Board, turns []ObservedTurn, limit int,
	check0 func(turn int, at checkpoint, path []chess.Board) bool) {
	t.Helper()
	path := []chess.Board{start}
	check := func(turn int, at checkpoint, truth *chess.Board) bool {
		path = append(path, *truth)
		return check0(turn, at, path)
	}
	ctx := context.Background()
	if err := s.HandleGameStart(ctx, c, start); err != nil {
		t.Fatal(err)
	}
	for i := range turns {
		if i == limit {
			break
		}
		tr := &turns[i]
		if err := tr.Notice(ctx, s); err != nil {
			t.Fatal(err)
		}
		if !check(i, afterNotice, &tr.Before) {
			return
		}
		if err := tr.SenseWith(ctx, s, tr.Sense); err != nil {
			t.Fatal(err)
		}
		if !check(i, afterSense, &tr.Before) {
			return
		}
		if tr.HasMove {
			if err := tr.Move(ctx, s); err != nil {
				t.Fatal(err)
			}
			if !check(i, afterMove, &tr.After) {
				return
			}
		}
	}
}

func mustNew(t testing.TB, name string, opts Options) Sampler {
	t.Helper()
	s, err := New(name, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// mustPresent is Present that fails the test when the belief could not look.
func mustPresent(t testing.TB, s Sampler, path []chess.Board) bool {
	t.Helper()
	ok, err := Present(context.Background(), s, path)
	if err != nil {
		t.Fatalf("Present: %v", err)
	}
	return ok
}
