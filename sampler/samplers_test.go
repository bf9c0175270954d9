package sampler

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// countingHandler counts warnings.
type countingHandler struct {
	mu    sync.Mutex
	warns int
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r.Level >= slog.LevelWarn {
		h.warns++
	}
	return nil
}
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }

// TestRegistry checks that every registered name builds its sampler.
func TestRegistry(t *testing.T) {
	want := []string{"exact", "aosp", "los", "hybrid", "particle"}
	names := Names()
	if len(names) != len(want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for i, n := range names {
		if n != want[i] {
			t.Fatalf("names %v, want %v", names, want)
		}
		s := mustNew(t, n, Options{})
		if s.Name() != n || Summary(n) == "" {
			t.Errorf("%s: name %q, summary %q", n, s.Name(), Summary(n))
		}
	}
	if _, err := New("nope", Options{}); err == nil {
		t.Error("an unknown name was accepted")
	}
}

// TestRecovery feeds every sampler observations that contradict everything it
// holds: it must never be left empty, must refill with boards that agree with
// the latest observation, must count each recovery and warn only once.
func TestRecovery(t *testing.T) {
	ctx := context.Background()
	// A black queen on e4 in the opening window: impossible before Black moves.
	var impossible []rbc.SquarePiece
	startBoard := chess.StartBoard()
	for _, sq := range rbc.Sense(&startBoard, chess.E4) {
		if sq.Square == chess.E4 {
			sq.Piece = chess.MakePiece(chess.Black, chess.Queen)
		}
		impossible = append(impossible, sq)
	}
	f, _ := newSenseFilter(impossible)
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			h := &countingHandler{}
			s := mustNew(t, name, Options{Logger: slog.New(h), PoolSize: 300, Seed: 7})
			if err := s.HandleGameStart(ctx, chess.White, chess.StartBoard()); err != nil {
				t.Fatal(err)
			}
			if err := s.HandleOpponentMoveResult(ctx, false, chess.NoSquare); err != nil {
				t.Fatal(err)
			}
			if err := s.HandleSenseResult(ctx, impossible); err != nil {
				t.Fatal(err)
			}
			if s.Size().Boards == 0 {
				t.Fatal("left empty")
			}
			if name != "los" && s.Stats().Recoveries != 1 {
				t.Fatalf("%d recoveries, want 1", s.Stats().Recoveries)
			}
			sample, err := s.Sample(ctx, 50, rand.New(rand.NewPCG(1, 1)))
			if err != nil || len(sample) == 0 {
				t.Fatalf("sample: %d boards, %v", len(sample), err)
			}
			for _, w := range sample {
				if !f.match(&w.Board) {
					t.Fatalf("recovered board %s disagrees with the sense", w.Board.FEN())
				}
				if w.Board.Turn() != chess.White || w.Board.Pieces(chess.White) != startBoard.Pieces(chess.White) {
					t.Fatalf("recovered board %s has the wrong side to move or our pieces wrong", w.Board.FEN())
				}
			}
			// Our pass, then a notice of a capture on h5, where we have no piece.
			if err := s.HandleMoveResult(ctx, chess.Move{}, chess.Move{}, false, chess.NoSquare); err != nil {
				t.Fatal(err)
			}
			if err := s.HandleOpponentMoveResult(ctx, true, chess.H5); err != nil {
				t.Fatal(err)
			}
			if s.Size().Boards == 0 {
				t.Fatal("left empty after the second contradiction")
			}
			if name != "los" && s.Stats().Recoveries != 2 {
				t.Errorf("%d recoveries, want 2", s.Stats().Recoveries)
			}
			if name != "los" && h.warns != 1 {
				t.Errorf("%d warnings, want exactly 1", h.warns)
			}
			sample, _ = s.Sample(ctx, 20, rand.New(rand.NewPCG(1, 1)))
			for _, w := range sample {
				if p := w.Board.PieceAt(chess.H5); p == chess.NoPiece || p.Color() != chess.Black {
					t.Fatalf("after a capture on h5 the board %s has no black piece there", w.Board.FEN())
				}
			}
		})
	}
}

// TestSamplersOnGames replays a few games through every sampler: none may be
// left empty, samples must be well formed, and each reports its recall.
func TestSamplersOnGames(t *testing.T) {
	files := historyFiles(t)
	n, turnLimit := 6, 20
	if !fullRun() {
		n, turnLimit = 2, 10
	}
	ctx := context.Background()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			present, checks, dropped := 0, 0, false
			for i := 0; i < n && i < len(files); i++ {
				f := files[i*len(files)/n]
				for _, c := range []chess.Color{chess.White, chess.Black} {
					start, turns := loadTurns(t, f, c)
					s := mustNew(t, name, Options{Seed: 3, PoolSize: 500, MemoryBudget: 16 << 20, BacklogBudget: 64 << 20})
					rng := rand.New(rand.NewPCG(4, 4))
					replayPath(t, s, c, start, turns, turnLimit, func(turn int, at checkpoint, path []chess.Board) {
						checks++
						truth := &path[len(path)-1]
						if mustPresent(t, s, path) {
							present++
						}
						if s.Size().Boards == 0 {
							t.Fatalf("%s %v turn %d %v: empty", filepath.Base(f), c, turn, at)
						}
						sample, err := s.Sample(ctx, 10, rng)
						if err != nil || len(sample) == 0 {
							t.Fatalf("sample: %d, %v", len(sample), err)
						}
						sum := 0.0
						for _, w := range sample {
							sum += w.Weight
							if w.Board.Turn() != truth.Turn() {
								t.Fatalf("%s turn %d %v: sampled board %s has the wrong side to move", filepath.Base(f), turn, at, w.Board.FEN())
							}
						}
						if sum < 0.999 || sum > 1.001 {
							t.Fatalf("sample weights sum to %v", sum)
						}
						if e := s.Entropy(); e < 0 || e != e {
							t.Fatalf("entropy %v", e)
						}
					})
					dropped = dropped || s.Stats().Dropped > 0
					s.Close()
				}
			}
			t.Logf("%s: true board present at %d of %d checks (%.1f%%)", name, present, checks, 100*float64(present)/float64(checks))
			if name == "exact" && present != checks && !dropped {
				t.Errorf("exact lost the true board")
			}
		})
	}
}

// TestExactBacklog replays games with a tiny budget: the true board must
// never be lost (it may wait in the backlog), something must be deferred, and
// whenever nothing is deferred the live set must equal the unbudgeted one.
func TestExactBacklog(t *testing.T) {
	files := historyFiles(t)
	deferredSeen, compared, dfsFound, checks := 0, 0, 0, 0
	games, limit := 8, 16
	if !fullRun() {
		games, limit = 4, 10
	}
	for i := 0; i < games && i < len(files); i++ {
		f := files[i*len(files)/games]
		for _, c := range []chess.Color{chess.White, chess.Black} {
			start, turns := loadTurns(t, f, c)
			small := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: 256 << 10, BacklogBudget: 1 << 30, MinLive: 64})
			big := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: recallBudget})
			ctx := context.Background()
			big.HandleGameStart(ctx, c, start)
			step := func(turn int, at checkpoint) {
				tr := &turns[turn]
				switch at {
				case afterNotice:
					tr.Notice(ctx, big)
				case afterSense:
					tr.SenseWith(ctx, big, tr.Sense)
				case afterMove:
					tr.Move(ctx, big)
				}
			}
			stop := false
			replayPath(t, small, c, start, turns, limit, func(turn int, at checkpoint, path []chess.Board) {
				if stop || big.Size().Boards > 100000 {
					stop = true // keep the test quick: the sets have grown large
					return
				}
				step(turn, at)
				checks++
				truth := &path[len(path)-1]
				if !mustPresent(t, small, path) {
					t.Fatalf("%s %v turn %d %v: true board lost (size %+v)", filepath.Base(f), c, turn, at, small.Size())
				}
				if small.Contains(truth) {
					dfsFound++
				}
				sz := small.Size()
				if sz.Deferred > 0 {
					deferredSeen++
					return
				}
				if big.Size().Deferred > 0 {
					return
				}
				compared++
				a, b := keysOf(t, small), keysOf(t, big)
				if len(a) != len(b) {
					t.Fatalf("%s %v turn %d %v: %d boards with the small budget, %d without", filepath.Base(f), c, turn, at, len(a), len(b))
				}
				for k := range b {
					if !a[k] {
						t.Fatalf("%s %v turn %d %v: a board is missing with the small budget", filepath.Base(f), c, turn, at)
					}
				}
			})
		}
	}
	if deferredSeen == 0 {
		t.Error("the tiny budget never deferred anything")
	}
	t.Logf("%d of %d checkpoints with boards deferred, %d compared equal; Contains found the true board at %d", deferredSeen, checks, compared, dfsFound)
}

// TestLOSSupport checks over recorded games that the true board always
// agrees with the latest observations as los understands them: every board
// los draws from must include it, else los could never hold the truth.
func TestLOSSupport(t *testing.T) {
	files := historyFiles(t)
	n := 4
	if fullRun() {
		n = len(files)
	}
	checks := 0
	for i := 0; i < n; i++ {
		f := files[i*len(files)/n]
		for _, c := range []chess.Color{chess.White, chess.Black} {
			start, turns := loadTurns(t, f, c)
			l := mustNew(t, "los", Options{Seed: 1, PoolSize: 50}).(*los)
			replayTurns(t, l, c, start, turns, -1, func(turn int, at checkpoint, truth *chess.Board) {
				checks++
				if l.know.turn > 0 && !l.gen.consistent(&l.know, truth) {
					t.Fatalf("%s %v turn %d %v: the true board %s is outside los's support", filepath.Base(f), c, turn, at, truth.FEN())
				}
			})
		}
	}
	t.Logf("%d checks", checks)
}

// TestParseNames: a list with blanks, all, and an unknown name.
func TestParseNames(t *testing.T) {
	names := Names()
	if got, err := ParseNames(names[0] + ", " + names[1]); err != nil || len(got) != 2 || got[1] != names[1] {
		t.Errorf("list: %v, %v", got, err)
	}
	if got, err := ParseNames("all"); err != nil || len(got) != len(names) {
		t.Errorf("all: %v, %v", got, err)
	}
	if _, err := ParseNames("nope"); err == nil {
		t.Error("unknown: no error")
	}
}
