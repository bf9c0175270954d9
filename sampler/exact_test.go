package sampler

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestExactRecall replays every recorded game from both sides: the true board
// must be in the exact set (live or deferred) after every observation, and no
// recovery may happen. A game whose information set outgrows both budgets
// (boards dropped from the backlog: games against random movers sensed at
// random) is reported and left at its first drop. The budgets are small to
// keep the test quick; the drops happen at larger budgets too, a few turns
// later (SAMPLER_RECALL_MIB=2048 runs it with the default budgets).
func TestExactRecall(t *testing.T) {
	files := historyFiles(t)
	if !fullRun() {
		files = files[:min(len(files), 6)]
	}
	live, backlog := int64(recallBudget), int64(recallBacklog)
	if mb, err := strconv.ParseInt(os.Getenv("SAMPLER_RECALL_MIB"), 10, 64); err == nil && mb > 0 {
		live, backlog = mb<<20, mb<<20 // e.g. 2048 for the defaults
	}
	total, present, maxSize, deferredChecks, exploded := 0, 0, 0, 0, 0
	for _, f := range files {
		for _, c := range []rbc.Color{rbc.White, rbc.Black} {
			name := fmt.Sprintf("%s/%v", filepath.Base(f), c)
			t0 := time.Now()
			start, turns := loadTurns(t, f, c)
			s := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: live, BacklogBudget: backlog, MaxReplay: 1 << 40})
			firstDrop := -1
			replayUntil(t, s, c, start, turns, -1, func(turn int, at checkpoint, path []rbc.Board) bool {
				if firstDrop >= 0 {
					return false // recall is not defined past a drop: next game
				}
				total++
				maxSize = max(maxSize, s.Size().Boards)
				if s.Size().Deferred > 0 {
					deferredChecks++
				}
				if s.Stats().Dropped > 0 && firstDrop < 0 {
					firstDrop = turn
				}
				if Present(s, path) {
					present++
				} else if firstDrop < 0 {
					t.Fatalf("%s turn %d %v: true board %s missing (size %+v)", name, turn, at, path[len(path)-1].FEN(), s.Size())
				}
				return true
			})
			st := s.Stats()
			if st.Recoveries != 0 && firstDrop < 0 {
				t.Errorf("%s: %d recoveries", name, st.Recoveries)
			}
			if firstDrop >= 0 {
				exploded++
				t.Logf("%s: the information set outgrew both budgets at turn %d of %d (%d boards dropped); not followed further",
					name, firstDrop+1, len(turns), st.Dropped)
			}
			if testing.Verbose() {
				t.Logf("%s: %d turns, largest set %d, %d deferred at the end, %v", name, len(turns), st.MaxBoards, st.Deferred, time.Since(t0).Round(time.Millisecond))
			}
			s.Close()
		}
	}
	t.Logf("true board present at %d of %d checks over %d games and both sides; largest live set %d; %d checks with boards deferred; %d game sides outgrew the budgets",
		present, total, len(files), maxSize, deferredChecks, exploded)
}

// recallBudget keeps the recall test quick: the largest recorded sets pass
// it, so the backlog and its replay are exercised too.
const recallBudget, recallBacklog = 16 << 20, 32 << 20
