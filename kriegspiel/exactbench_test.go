package kriegspiel

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// processCPU returns the CPU time the process has used, so that a rate can
// be given per CPU second on a shared machine (0 where it cannot be read).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkExpandBelief is sampler's BenchmarkExpand for Kriegspiel: the
// exact belief of Black in a random wild16 game (the first of seeds 1-20),
// first past 50,000 boards
// before an opponent's turn, expanded by that turn (every legal move of
// every board made, filtered by what was heard, deduplicated). It reports
// the legal moves generated and filtered ("children") per second of wall
// and of CPU time, as sampler's does.
func BenchmarkExpandBelief(b *testing.B) {
	var parents *Belief
	var heard []Heard
	for seed := uint64(1); seed <= 20 && parents == nil; seed++ {
		rec := randomRecord(b, Wild16(), seed, 16)
		start, err := chess.ParseFEN(rec.StartFEN)
		if err != nil {
			b.Fatal(err)
		}
		bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
		bl.SetLimit(1 << 20)
		bl.SetWorkers(2)
		_ = followBelief(rec, bl, chess.Black, -1, 0, func(turn int, bl *Belief, _ *chess.Board) error {
			if bl.Len() < 50_000 || turn+1 >= len(rec.Turns) || rec.Turns[turn+1].Color == chess.Black {
				return nil
			}
			cp := *bl
			parents = &cp
			heard = rec.Turns[turn+1].Overheard()
			b.Logf("seed %d, turn %d: %d boards", seed, turn, bl.Len())
			return errStop
		})
	}
	if parents == nil {
		b.Skip("the game's belief never passed 50,000 boards")
	}
	var children int64
	var buf [256]chess.Move
	for _, p := range parents.Boards() {
		children += int64(len(chess.AppendLegalMoves(&p, buf[:0])))
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var made int64
			kept, judged := 0, 0
			c0, t0 := processCPU(), time.Now()
			for b.Loop() {
				bl := *parents
				bl.SetWorkers(workers)
				if err := bl.Opponent(context.Background(), heard); err != nil {
					b.Fatal(err)
				}
				made += children
				kept, judged = bl.Len(), bl.judged
			}
			wall, cpu := time.Since(t0), processCPU()-c0
			b.ReportMetric(float64(made)/wall.Seconds()/1e6, "Mchildren/s")
			if cpu > 0 {
				b.ReportMetric(float64(made)/cpu.Seconds()/1e6, "Mchildren/cpu-s")
			}
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(float64(parents.Len()), "parents")
			b.ReportMetric(float64(kept), "distinct")
			b.ReportMetric(float64(judged), "judged")
		})
	}
}
