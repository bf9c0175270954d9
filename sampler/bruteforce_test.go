package sampler

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// bruteForce enumerates the boards consistent with the observations the
// naive way, independently of the sampler's machinery: a Go map, every
// option applied to every board, the sense compared as the harness's list
// (rbc.Sense), the move resolved on every board.
type bruteForce struct {
	set   map[uint64]chess.Board
	stage stage
}

func newBruteForce(c chess.Color, start chess.Board) *bruteForce {
	bf := &bruteForce{set: map[uint64]chess.Board{start.Key(): start}, stage: oppToMove}
	if start.Turn() == c {
		bf.stage = usToMove
	}
	return bf
}

func (bf *bruteForce) notice(square chess.Square) {
	next := map[uint64]chess.Board{}
	if bf.stage == usToMove {
		if !square.Valid() {
			next = bf.set
		}
	} else {
		for _, b := range bf.set {
			for _, m := range b.AppendOptions(nil) {
				c := b
				if c.Apply(m) == square {
					next[c.Key()] = c
				}
			}
		}
	}
	bf.set, bf.stage = next, usToMove
}

func (bf *bruteForce) sense(center chess.Square, result []rbc.SquarePiece) {
	for k, b := range bf.set {
		if !slices.Equal(rbc.Sense(&b, center), result) {
			delete(bf.set, k)
		}
	}
}

func (bf *bruteForce) move(req, taken chess.Move, capture chess.Square) {
	next := map[uint64]chess.Board{}
	for _, b := range bf.set {
		t, c := rbc.Resolve(&b, rbc.WithQueenDefault(&b, req))
		if t == taken && c == capture {
			b.Apply(t)
			next[b.Key()] = b
		}
	}
	bf.set, bf.stage = next, oppToMove
}

// keysOf collects the keys of a sampler's boards through ForEach, failing on
// duplicates.
func keysOf(t *testing.T, s Sampler) map[uint64]bool {
	t.Helper()
	all := make([][]uint64, s.Workers()) // one per worker: ForEach runs them at once
	err := s.ForEach(context.Background(), func(w int, boards []chess.Board, _ []float64) error {
		for i := range boards {
			all[w] = append(all[w], boards[i].Key())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	keys := map[uint64]bool{}
	for _, ks := range all {
		for _, k := range ks {
			if keys[k] {
				t.Fatalf("%s holds a board twice", s.Name())
			}
			keys[k] = true
		}
	}
	return keys
}

// TestExactEqualsBruteForce compares the exact set with the brute-force
// enumeration after every observation of the first turns of several games,
// from both sides, with a budget large enough for nothing to be deferred and
// with a tiny one (nothing may be lost: live plus backlog is the same set).
func TestExactEqualsBruteForce(t *testing.T) {
	files := historyFiles(t)
	var picked []string
	for i := 0; i < len(files) && len(picked) < 8; i += max(1, len(files)/8) {
		picked = append(picked, files[i])
	}
	turnsPerGame := 4
	for _, f := range picked {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			name := fmt.Sprintf("%s/%v", filepath.Base(f), c)
			start, turns := loadTurns(t, f, c)
			s := mustNew(t, "exact", Options{Seed: 1, Workers: 2})
			bf := newBruteForce(c, start)
			compare := func(turn int, at checkpoint) {
				got := keysOf(t, s)
				if len(got) != len(bf.set) || s.Size().Boards != len(bf.set) {
					t.Fatalf("%s turn %d %v: exact has %d boards (size %d), brute force %d", name, turn, at, len(got), s.Size().Boards, len(bf.set))
				}
				for k, b := range bf.set {
					if !got[k] {
						t.Fatalf("%s turn %d %v: exact lacks %s", name, turn, at, b.FEN())
					}
				}
			}
			replayTurns(t, s, c, start, turns, turnsPerGame, func(turn int, at checkpoint, truth *chess.Board) {
				tr := &turns[turn]
				switch at {
				case afterNotice:
					bf.notice(tr.CaptureSquare)
				case afterSense:
					bf.sense(tr.Sense, tr.SenseResult)
				case afterMove:
					bf.move(tr.Requested, tr.Taken, tr.Capture)
				}
				compare(turn, at)
				if _, ok := bf.set[truth.Key()]; !ok {
					t.Fatalf("%s turn %d %v: brute force lost the true board", name, turn, at)
				}
			})
		}
	}
}
