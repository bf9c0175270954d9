package sampler

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestExactRecall replays every recorded game from both sides: the true board
// must be in the exact set (live or deferred) after every observation, and
// nothing may be dropped. The memory budgets are small to keep the test
// quick, so the games against random movers sensed at random push the
// backlog to disk, which is exercised too (SAMPLER_RECALL_MIB=2048 runs it
// with the default budgets). Replay work per observation is bounded as in
// play: when it finds nothing consistent in time, the live set is refilled
// from the latest observations while the backlog waits (a recovery, counted
// and reported), so recoveries are allowed here; they are not where the
// backlog is empty (the set itself lost the true board).
func TestExactRecall(t *testing.T) {
	files := historyFiles(t)
	if !fullRun() {
		files = files[:min(len(files), 6)]
	}
	live, backlog := int64(recallBudget), int64(recallBacklog)
	if mb, err := strconv.ParseInt(os.Getenv("SAMPLER_RECALL_MIB"), 10, 64); err == nil && mb > 0 {
		live, backlog = mb<<20, mb<<20 // e.g. 2048 for the defaults
	}
	dir := t.TempDir()
	total, present, maxSize, deferredChecks, spilledSides, recoveries := 0, 0, 0, 0, 0, 0
	var maxSpill int64
	for _, f := range files {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			name := fmt.Sprintf("%s/%v", filepath.Base(f), c)
			t0 := time.Now()
			start, turns := loadTurns(t, f, c)
			s := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: live, BacklogBudget: backlog, MaxReplay: recallReplay, SpillDir: dir})
			replayUntil(t, s, c, start, turns, -1, func(turn int, at checkpoint, path []chess.Board) bool {
				total++
				maxSize = max(maxSize, s.Size().Boards)
				if s.Size().Deferred > 0 {
					deferredChecks++
				}
				if s.Size().Boards == 0 {
					t.Fatalf("%s turn %d %v: empty belief", name, turn, at)
				}
				if s.Stats().Recoveries > 0 && s.Size().Deferred == 0 && s.Stats().Replayed == 0 {
					t.Fatalf("%s turn %d %v: recovered without a backlog: the set lost the true board", name, turn, at)
				}
				if !mustPresent(t, s, path) {
					t.Fatalf("%s turn %d %v: true board %s missing (size %+v, stats %+v)", name, turn, at, path[len(path)-1].FEN(), s.Size(), s.Stats())
				}
				present++
				return true
			})
			st := s.Stats()
			if st.Dropped != 0 {
				t.Errorf("%s: %d boards dropped", name, st.Dropped)
			}
			recoveries += st.Recoveries
			if st.PeakSpillBytes > 0 {
				spilledSides++
				maxSpill = max(maxSpill, st.PeakSpillBytes)
			}
			if testing.Verbose() {
				t.Logf("%s: %d turns, largest set %d, %d deferred at the end (%d on disk, peak %d MiB), %v", name, len(turns), st.MaxBoards, st.Deferred, st.Spilled, st.PeakSpillBytes>>20, time.Since(t0).Round(time.Millisecond))
			}
			s.Close()
		}
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Errorf("spill files left behind: %v %v", entries, err)
	}
	t.Logf("true board present at %d of %d checks over %d games and both sides; largest live set %d; %d checks with boards deferred; %d game sides spilled (peak %d MiB); %d recoveries while the backlog waited",
		present, total, len(files), maxSize, deferredChecks, spilledSides, maxSpill>>20, recoveries)
}

// recallReplay bounds the replay work per observation in the recall test
// (an eighth of the default): against random movers most of the time goes
// into replaying the backlog whenever the live set runs low.
const recallReplay = 1 << 20

// recallBudget keeps the recall test quick: the largest recorded sets pass
// it, so the backlog and its replay are exercised too.
const recallBudget, recallBacklog = 4 << 20, 8 << 20

// TestExactSpill replays a game against a random mover, sensed at random,
// with a backlog budget far too small for it: the backlog goes to disk, the
// true board stays in the belief at every checkpoint, nothing is dropped, and
// the spill files are closed when the sampler is. With no disk budget the
// same game drops boards and says so.
func TestExactSpill(t *testing.T) {
	const game = "../testdata/histories/random_bot-random_bot-1-002.json"
	start, turns := loadTurns(t, game, chess.White)
	limit := 30
	if testing.Short() {
		limit = 16
	}
	dir := t.TempDir()
	fds := openFiles(t)
	s := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: 1 << 20, BacklogBudget: 256 << 10, MaxReplay: 1 << 40, SpillDir: dir})
	replayPath(t, s, chess.White, start, turns, limit, func(turn int, at checkpoint, path []chess.Board) {
		if !mustPresent(t, s, path) {
			t.Fatalf("turn %d %v: true board missing (size %+v, stats %+v)", turn, at, s.Size(), s.Stats())
		}
	})
	st := s.Stats()
	if st.PeakSpillBytes == 0 || st.Dropped != 0 || st.Recoveries != 0 {
		t.Fatalf("stats %+v: want a spilled backlog, nothing dropped, no recovery", st)
	}
	if st.Spilled > int64(st.Deferred) || st.Spilled < 0 {
		t.Errorf("%d boards on disk of %d deferred", st.Spilled, st.Deferred)
	}
	if s.Size().Exact {
		t.Errorf("size %+v: exact while boards are deferred", s.Size())
	}
	if fds >= 0 && st.Spilled > 0 && openFiles(t) <= fds {
		t.Errorf("no spill file open with %d boards on disk", st.Spilled)
	}
	s.Close()
	if after := openFiles(t); fds >= 0 && after > fds {
		t.Errorf("%d files open after Close, %d before the game", after, fds)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("spill files left in %s: %v", dir, entries)
	}
	t.Logf("%d turns: %d boards deferred, %d on disk (peak %d KiB), %d replayed", limit, st.Deferred, st.Spilled, st.PeakSpillBytes>>10, st.Replayed)

	nodisk := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: 1 << 20, BacklogBudget: 256 << 10, MaxReplay: 1 << 40, SpillBudget: -1})
	replayTurns(t, nodisk, chess.White, start, turns, limit, func(int, checkpoint, *chess.Board) {})
	if st := nodisk.Stats(); st.Dropped == 0 || st.PeakSpillBytes != 0 || nodisk.Size().Exact {
		t.Errorf("without a disk budget: stats %+v, size %+v; want boards dropped and the size not exact", st, nodisk.Size())
	}
}

// openFiles counts the process's open file descriptors (-1 where /proc is
// missing).
func openFiles(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(entries)
}
