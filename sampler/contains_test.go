package sampler

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// farBoard is a board no belief of a real game holds: Black's pieces sit
// where they cannot have got to, so every search prunes it at once.
func farBoard(t *testing.T) chess.Board {
	t.Helper()
	b, err := chess.ParseFEN("8/8/8/8/pppppppp/rnbqkbnr/PPPPPPPP/RNBQKBNR w KQ - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLayerContainsCancelled: a scan cut short by its context is an error,
// not "absent".
func TestLayerContainsCancelled(t *testing.T) {
	start, err := chess.ParseFEN(chess.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	l := layerOf(storeOf([]chess.Board{start}))
	far := farBoard(t)
	if found, err := l.contains(context.Background(), 2, start.Key()); !found || err != nil {
		t.Fatalf("contains(start) = %v, %v; want true, nil", found, err)
	}
	if found, err := l.contains(context.Background(), 2, far.Key()); found || err != nil {
		t.Fatalf("contains(far) = %v, %v; want false, nil", found, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if found, err := l.contains(ctx, 2, far.Key()); found || !errors.Is(err, context.Canceled) {
		t.Fatalf("contains with a cancelled context = %v, %v; want false, context.Canceled", found, err)
	}
}

// TestExactContainsUnreadableSpill spills exact's backlog, makes the spill
// files unreadable, and asks about a board the belief does not hold:
// ContainsErr and Present must report that they could not look, Contains must
// not answer "absent" (it warns and answers present), and a cancelled context
// is an error too.
func TestExactContainsUnreadableSpill(t *testing.T) {
	const game = "../testdata/histories/random_bot-random_bot-1-002.json"
	start, turns := loadTurns(t, game, chess.White)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: 1 << 20, BacklogBudget: 256 << 10, MaxReplay: 1 << 40,
		SpillDir: t.TempDir(), Logger: logger})
	var path []chess.Board
	replayUntil(t, s, chess.White, start, turns, -1, func(_ int, _ checkpoint, p []chess.Board) bool {
		path = p
		return s.Stats().Spilled == 0
	})
	if s.Stats().Spilled == 0 {
		t.Fatal("the backlog never spilled")
	}
	ctx := context.Background()
	far := farBoard(t)
	farPath := make([]chess.Board, len(path))
	for i := range farPath {
		farPath[i] = far
	}
	// With the files intact: far is absent, the true board present.
	if found, err := ContainsErr(ctx, s, &far); found || err != nil {
		t.Fatalf("ContainsErr(far) = %v, %v before breaking the files; want false, nil", found, err)
	}
	if found, err := Present(ctx, s, farPath); found || err != nil {
		t.Fatalf("Present(far path) = %v, %v before breaking the files; want false, nil", found, err)
	}
	if !mustPresent(t, s, path) {
		t.Fatal("true board missing")
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if found, err := ContainsErr(cancelled, s, &far); !errors.Is(err, context.Canceled) {
		t.Errorf("ContainsErr with a cancelled context = %v, %v; want context.Canceled", found, err)
	}
	if found, err := Present(cancelled, s, farPath); !errors.Is(err, context.Canceled) {
		t.Errorf("Present with a cancelled context = %v, %v; want context.Canceled", found, err)
	}

	// Break every spill file: reading a piece back now fails.
	e := s.(*exact)
	broken := 0
	for _, seg := range e.backlog {
		if seg.disk != nil {
			if err := seg.disk.file.f.Truncate(0); err != nil {
				t.Fatal(err)
			}
			broken++
		}
	}
	if broken == 0 {
		t.Fatal("no spilled segment in the backlog")
	}
	if found, err := ContainsErr(ctx, s, &far); found || err == nil {
		t.Errorf("ContainsErr(far) = %v, %v with unreadable spill files; want an error", found, err)
	}
	// ContainsPath remembers what it saw in each segment: ask about a path
	// it has not seen.
	for i := range farPath {
		farPath[i].SetPiece(chess.A1, chess.NoPiece)
	}
	if found, err := Present(ctx, s, farPath); found || err == nil {
		t.Errorf("Present(far path) = %v, %v with unreadable spill files; want an error", found, err)
	}
	if !s.Contains(&far) {
		t.Error("Contains(far) = false with unreadable spill files: an absence it could not see")
	}
	if !bytes.Contains(logs.Bytes(), []byte("could not search")) {
		t.Errorf("Contains did not warn; log: %q", logs.String())
	}
}
