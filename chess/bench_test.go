package chess

import (
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/internal/testfs"
)

// recordedFENs returns every board before and after a move in the recorded
// games under testdata/histories.
func recordedFENs(tb testing.TB) []string {
	tb.Helper()
	return testfs.RecordedFENs(tb, filepath.Join("..", "testdata", "histories", "*.json"))
}

// benchBoards returns n varied boards: recorded positions and their children,
// the kind of boards a belief set holds.
func benchBoards(tb testing.TB, n int) []Board {
	var boards []Board
	var buf []Move
	for _, fen := range recordedFENs(tb) {
		b := MustParseFEN(fen)
		if b.KingMissing(White) || b.KingMissing(Black) {
			continue
		}
		boards = append(boards, b)
		buf = b.AppendOptions(buf[:0])
		for _, m := range buf {
			c := b
			c.Apply(m)
			boards = append(boards, c)
		}
		if len(boards) >= n {
			break
		}
	}
	for len(boards) < n {
		boards = append(boards, boards[:min(len(boards), n-len(boards))]...)
	}
	return boards[:n]
}

// BenchmarkMoveActions generates the move actions of 100k boards per iteration.
func BenchmarkMoveActions(b *testing.B) {
	boards := benchBoards(b, 100_000)
	buf := make([]Move, 0, 256)
	moves := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range boards {
			buf = boards[j].AppendMoveActions(buf[:0])
			moves += len(buf)
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(len(boards)*b.N)/b.Elapsed().Seconds(), "boards/s")
}

// BenchmarkExpandOptions expands 100k boards by every opponent option per
// iteration: generate, copy, apply, and read the child's key and capture
// square, as belief expansion does.
func BenchmarkExpandOptions(b *testing.B) {
	boards := benchBoards(b, 100_000)
	buf := make([]Move, 0, 256)
	children := 0
	var sink uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range boards {
			buf = boards[j].AppendOptions(buf[:0])
			for _, m := range buf {
				c := boards[j]
				capture := c.Apply(m)
				sink ^= c.Key() + uint64(capture)
			}
			children += len(buf)
		}
	}
	if sink == 42 {
		b.Log(sink)
	}
	b.ReportMetric(float64(children)/b.Elapsed().Seconds(), "children/s")
	b.ReportMetric(float64(children)/float64(b.N*len(boards)), "children/board")
}

// BenchmarkChildren does BenchmarkExpandOptions's work with AppendChildren,
// which derives each child's key and capture square without building it.
func BenchmarkChildren(b *testing.B) {
	boards := benchBoards(b, 100_000)
	buf := make([]Child, 0, 256)
	children := 0
	var sink uint64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range boards {
			buf = boards[j].AppendChildren(buf[:0])
			for _, c := range buf {
				sink ^= c.Key + uint64(c.Capture)
			}
			children += len(buf)
		}
	}
	if sink == 42 {
		b.Log(sink)
	}
	b.ReportMetric(float64(children)/b.Elapsed().Seconds(), "children/s")
}

// BenchmarkKeysAfter reads the key of every option of 100k boards, one
// KeyAfter a move ("each") or one AppendKeysAfter a board ("batch"), as
// Kriegspiel's expansion reads the keys of every legal move.
func BenchmarkKeysAfter(b *testing.B) {
	boards := benchBoards(b, 100_000)
	moves := make([][]Move, len(boards))
	keys := 0
	for j := range boards {
		moves[j] = boards[j].AppendOptions(nil)
		keys += len(moves[j])
	}
	for _, batch := range []bool{false, true} {
		name := "each"
		if batch {
			name = "batch"
		}
		b.Run(name, func(b *testing.B) {
			buf := make([]uint64, 0, 256)
			var sink uint64
			for b.Loop() {
				for j := range boards {
					if batch {
						buf = boards[j].AppendKeysAfter(buf[:0], moves[j])
						for _, k := range buf {
							sink ^= k
						}
						continue
					}
					for _, m := range moves[j] {
						sink ^= boards[j].KeyAfter(m)
					}
				}
			}
			if sink == 42 {
				b.Log(sink)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*keys), "ns/key")
		})
	}
}
