package kriegspiel

import (
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chess/chesstest"
)

// TestCountPawnCapturesFastEqualsFull: the pawn tries counted without
// playing the captures equal those counted from every legal move, at every
// node two plies below the perft positions and on boards where a pawn that
// takes is pinned (along a file, a rank or a diagonal, by the man it takes
// or another), where en passant uncovers the king, and in check.
func TestCountPawnCapturesFastEqualsFull(t *testing.T) {
	var boards []chess.Board
	for _, fen := range []string{
		"4k3/8/8/8/4r3/3n1n2/4P3/4K3 w - - 0 1", // e2 pinned along the file: no try
		"4k3/8/8/8/8/2q1n3/3P4/4K3 w - - 0 1",   // d2 pinned by c3's queen, which it may take
		"4k3/8/8/8/8/2b1r3/3P4/4K3 w - - 0 1",   // d2 takes the pinning bishop but not the rook
		"4k3/8/8/8/8/2p1p3/K2P3r/8 w - - 0 1",   // d2 pinned along the rank
		"4k3/8/1b6/8/3n4/4P3/5K2/8 w - - 0 1",   // e3 pinned by b6: takes d4 uncovers the king
		"4k3/8/8/KpP4r/8/8/8/8 w - b6 0 2",      // cxb6 e.p. uncovers the rook
		"4k3/8/8/1pP5/8/8/8/4K3 w - b6 0 2",     // cxb6 e.p. is fine
		"4k3/8/8/3q4/2p1p3/3P4/8/3K4 w - - 0 1", // in check: the full count
		"4k3/8/8/8/8/5n2/4P3/4K3 w - - 0 1",     // in check by a knight the pawn takes
		"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",      // bxa8: a promotion counts once
		"4k3/8/8/8/8/8/3p4/2R2K2 b - - 0 1",     // Black's dxc1, a try
	} {
		boards = append(boards, chess.MustParseFEN(fen))
	}
	chesstest.WalkLegal(2, func(b *chess.Board, _ int) { boards = append(boards, *b) })
	tries := 0
	for i := range boards {
		b := &boards[i]
		want := countPawnCaptures(b)
		if got := countPawnCapturesFast(b, chess.InCheck(b)); got != want {
			t.Fatalf("%s: countPawnCapturesFast %d, want %d", b.FEN(), got, want)
		}
		tries += want
	}
	t.Logf("%d boards, %d pawn tries", len(boards), tries)
}

// TestHasLegalMoveFastEqualsFull: whether the side to move has a legal move,
// found by the shortest route, is what generating every legal move says, at
// every node two plies below the perft positions and on boards where the
// only knight or pawn that could move is pinned (along a line through the
// king, or beside it off every line), and on stalemates.
func TestHasLegalMoveFastEqualsFull(t *testing.T) {
	var boards []chess.Board
	for _, fen := range []string{
		"4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",  // e2's knight pinned along the file
		"4k3/8/8/8/8/2b5/3N4/4K3 w - - 0 1",  // d2's knight pinned along the diagonal
		"7k/8/8/8/8/8/5q2/N6K w - - 0 1",     // a1's knight free, the king walled in
		"7k/8/8/8/8/8/5q2/1N5K w - - 0 1",    // b1's knight free, off every line
		"k7/P7/1K6/8/8/8/8/8 b - - 0 1",      // stalemate
		"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",     // stalemate
		"4k3/4r3/8/8/8/8/4P3/4K3 w - - 0 1",  // e2's pawn pinned, but it steps along the pin
		"k7/8/8/8/8/8/3pP3/3RKR2 w - - 0 1",  // e2 blocked; d2 attacks, the king may take it
		"8/8/8/8/8/5k2/5p2/5K2 w - - 0 1",    // stalemate by a pawn
		"8/8/8/8/1q6/8/3P4/4K2k w - - 0 1",   // d2 pinned by b4 along the diagonal
		"8/8/8/8/8/8/r2PK3/7k w - - 0 1",     // d2 pinned along the rank, free to step
		"4k3/8/8/8/8/8/3q4/4K3 w - - 0 1",    // in check: the full count
		"r7/8/8/8/8/8/N1k5/K7 w - - 0 1",     // stalemate: a2's knight pinned along the file
		"7b/8/8/8/1n6/8/1P1n4/K6k w - - 0 1", // stalemate: b2's pawn pinned along the diagonal
	} {
		boards = append(boards, chess.MustParseFEN(fen))
	}
	chesstest.WalkLegal(2, func(b *chess.Board, _ int) { boards = append(boards, *b) })
	none := 0
	for i := range boards {
		b := &boards[i]
		if b.KingSquare(b.Turn()) == chess.NoSquare {
			continue
		}
		want := chess.HasLegalMove(b)
		if got := hasLegalMoveFast(b, chess.InCheck(b)); got != want {
			t.Fatalf("%s: hasLegalMoveFast %v, want %v", b.FEN(), got, want)
		}
		if !want {
			none++
		}
	}
	if none < 5 {
		t.Fatalf("only %d boards without a legal move", none)
	}
	t.Logf("%d boards, %d without a legal move", len(boards), none)
}
