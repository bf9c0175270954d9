package rbc

import (
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
)

// resolveBoards returns n boards: the recorded positions under
// testdata/histories and the children of each, repeated.
func resolveBoards(tb testing.TB, n int) []chess.Board {
	var boards []chess.Board
	for _, fen := range testfs.RecordedFENs(tb, filepath.Join("..", "testdata", "histories", "*.json")) {
		b := chess.MustParseFEN(fen)
		if b.KingMissing(chess.White) || b.KingMissing(chess.Black) {
			continue
		}
		boards = append(boards, b)
		for _, m := range b.AppendOptions(nil) {
			c := b
			c.Apply(m)
			boards = append(boards, c)
		}
	}
	for len(boards) < n {
		boards = append(boards, boards[:min(len(boards), n-len(boards))]...)
	}
	return boards[:n]
}

// BenchmarkResolve resolves every move action of 100k boards.
func BenchmarkResolve(b *testing.B) {
	boards := resolveBoards(b, 100_000)
	buf := make([]chess.Move, 0, 256)
	n := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range boards {
			buf = boards[j].AppendMoveActions(buf[:0])
			for _, m := range buf {
				Resolve(&boards[j], WithQueenDefault(&boards[j], m))
			}
			n += len(buf)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resolutions/s")
}
