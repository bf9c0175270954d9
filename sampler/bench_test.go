package sampler

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// benchGame is the recorded game whose belief the benchmarks work on: an
// attacker playing white against a random mover, whose information sets grow
// fast. benchTurn is the turn whose belief is used.
const (
	benchGame = "../testdata/histories/attacker_bot-random_bot-3-008.json"
	benchTurn = 7
)

// benchBelief replays the bench game as white up to benchTurn and returns the
// exact sampler's boards after the move (parents for expansion), and the
// turn's record.
func benchBelief(b *testing.B) (*exact, ObservedTurn) {
	b.Helper()
	if _, err := os.Stat(benchGame); err != nil {
		b.Skip("bench game missing")
	}
	s := mustNew(b, "exact", Options{Seed: 1}).(*exact)
	turns := benchReplay(b, s)
	if err := s.wait(context.Background()); err != nil { // the background expansion of the last turn
		b.Fatal(err)
	}
	return s, turns[benchTurn+1]
}

// benchReplay feeds the bench game to s as white, up to benchTurn's move,
// and returns the game's turns.
func benchReplay(b *testing.B, s Sampler) []ObservedTurn {
	b.Helper()
	start, turns := loadTurns(b, benchGame, chess.White)
	ctx := context.Background()
	if err := s.HandleGameStart(ctx, chess.White, start); err != nil {
		b.Fatal(err)
	}
	for i := 0; i <= benchTurn; i++ {
		tr := &turns[i]
		if err := tr.Notice(ctx, s); err != nil {
			b.Fatal(err)
		}
		if err := tr.SenseWith(ctx, s, tr.Sense); err != nil {
			b.Fatal(err)
		}
		if err := tr.Move(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	return turns
}

// reportRate reports items per wall second, and per CPU second of the whole
// process (a shared machine slows wall time, not CPU time).
func reportRate(b *testing.B, items int64, unit string, wall, cpu time.Duration) {
	b.ReportMetric(float64(items)/wall.Seconds()/1e6, "M"+unit+"/s")
	if cpu > 0 {
		b.ReportMetric(float64(items)/cpu.Seconds()/1e6, "M"+unit+"/cpu-s")
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkExpand measures expansion with deduplication and grouping by
// capture square from the bench belief's ~296k parents: children generated
// and distinct children kept, per second (wall and CPU), with 1 and 2
// workers.
func BenchmarkExpand(b *testing.B) {
	s, _ := benchBelief(b)
	p := s.live.parts[0]
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var children, kept int64
			var exp *expansion
			c0, t0 := cpuTime(), time.Now()
			for b.Loop() {
				var err error
				exp, err = expand(context.Background(), workers, p.base, p.lo, p.hi, -1, 8<<30)
				if err != nil {
					b.Fatal(err)
				}
				children += exp.children
				for g := range exp.groups {
					kept += int64(exp.groups[g].n)
				}
			}
			wall, cpu := time.Since(t0), cpuTime()-c0
			reportRate(b, children, "children", wall, cpu)
			reportRate(b, kept, "distinct", wall, cpu)
			distinct := 0
			for g := range exp.groups {
				distinct += exp.groups[g].n
			}
			b.ReportMetric(float64(p.n), "parents")
			b.ReportMetric(float64(distinct), "distinct")
		})
	}
}

// BenchmarkSenseFilter measures filtering the set after the capture notice
// (children rebuilt from refs) by a sense result, in boards per second.
func BenchmarkSenseFilter(b *testing.B) {
	s, tr := benchBelief(b)
	l := layer{}
	l.add(s.pending.groups[groupOf(tr.CaptureSquare)])
	f, err := newSenseFilter(rbc.Sense(&tr.Before, chess.D6))
	if err != nil {
		b.Fatal(err)
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var boards int64
			kept := 0
			c0, t0 := cpuTime(), time.Now()
			for b.Loop() {
				c := l
				if err := c.filter(context.Background(), workers, f.match); err != nil {
					b.Fatal(err)
				}
				boards += int64(l.n)
				kept = c.n
			}
			reportRate(b, boards, "boards", time.Since(t0), cpuTime()-c0)
			b.ReportMetric(float64(l.n), "set")
			b.ReportMetric(float64(kept), "kept")
		})
	}
}

// BenchmarkMoveFilter measures the move-result filter (resolve, compare,
// apply, deduplicate) over the set after the sense, in boards per second.
func BenchmarkMoveFilter(b *testing.B) {
	s, tr := benchBelief(b)
	l := layer{}
	l.add(s.pending.groups[groupOf(tr.CaptureSquare)])
	o := observation{kind: obsMove, requested: tr.Requested, taken: tr.Taken, square: tr.Capture}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			var boards int64
			c0, t0 := cpuTime(), time.Now()
			for b.Loop() {
				if _, _, err := l.applyMove(context.Background(), workers, &o, 1<<30); err != nil {
					b.Fatal(err)
				}
				boards += int64(l.n)
			}
			reportRate(b, boards, "boards", time.Since(t0), cpuTime()-c0)
		})
	}
}

// BenchmarkStorage reports the memory per stored board: after the notice
// (refs plus the parents they point into) and after our move (whole boards).
func BenchmarkStorage(b *testing.B) {
	s, tr := benchBelief(b)
	for b.Loop() {
	}
	ctx := context.Background()
	b.ReportMetric(float64(s.usage())/float64(s.live.n), "B/board-after-move")
	if err := tr.Notice(ctx, s); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.usage())/float64(s.live.n), "B/board-after-notice")
	b.ReportMetric(float64(s.live.n), "boards-after-notice")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLargestSet replays the first 16 turns of the bench game (whose
// set outgrows any budget) with the default budgets and reports the largest
// live set held.
func BenchmarkLargestSet(b *testing.B) {
	if _, err := os.Stat(benchGame); err != nil {
		b.Skip("bench game missing")
	}
	start, turns := loadTurns(b, benchGame, chess.White)
	for b.Loop() {
		s := mustNew(b, "exact", Options{Seed: 1})
		ctx := context.Background()
		_ = s.HandleGameStart(ctx, chess.White, start)
		for i := range min(16, len(turns)) {
			tr := &turns[i]
			_ = tr.Notice(ctx, s)
			_ = tr.SenseWith(ctx, s, tr.Sense)
			_ = tr.Move(ctx, s)
		}
		st := s.Stats()
		b.ReportMetric(float64(st.MaxBoards), "max-boards")
		b.ReportMetric(float64(st.PeakBytes)/(1<<20), "peak-MiB")
		b.ReportMetric(float64(st.Deferred), "deferred")
		b.ReportMetric(float64(st.PeakSpillBytes)/(1<<20), "spilled-MiB")
		b.ReportMetric(float64(st.Dropped), "dropped")
		s.Close()
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLOSDraw measures los's draw of a pool (the default 2,000 distinct
// boards consistent with the latest observations), after the bench game's
// move at benchTurn: the draw every recovery and every los observation makes.
// It reports CPU time per draw too (wall time on a shared machine is noise).
func BenchmarkLOSDraw(b *testing.B) {
	if _, err := os.Stat(benchGame); err != nil {
		b.Skip("bench game missing")
	}
	l := mustNew(b, "los", Options{Seed: 1}).(*los)
	benchReplay(b, l)
	b.ResetTimer()
	c0 := cpuTime()
	for range b.N {
		l.refresh()
	}
	if cpu := cpuTime() - c0; cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(len(l.pool)), "boards")
}
