package chess

import (
	"errors"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name, fen, reason string // reason "" for a valid position
	}{
		{"start", StartFEN, ""},
		{"side to move can take the king", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 3", ""},
		{"side not to move in check", "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", ""},
		{"kings side by side", "8/8/8/3kK3/8/8/8/8 b - - 0 1", ""},
		{"castling right without its rook", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 9", ""},
		{"nine queens", "QQQQQQQQ/8/8/8/8/8/8/Q3K2k w - - 0 1", ""},
		{"three kings", "rnbqkbnr/pppppppp/8/8/8/3K4/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white has 2 kings"},
		{"no kings", "8/8/8/8/8/8/8/R6r w - - 0 1", "white has 0 kings"},
		{"black king missing", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 5", "black has 0 kings"},
		{"seventeen men", "4k3/8/8/8/8/1N6/PPPPPPPP/RNBQKBNR w KQ - 0 1", "white has 17 men"},
		{"nine pawns", "4k3/8/8/8/7P/8/PPPPPPPP/4K3 w - - 0 1", "white has 9 pawns"},
		{"a promotion without a missing pawn", "qq2k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1", "black has 1 pieces beyond"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := MustParseFEN(tc.fen)
			err := b.Validate()
			if tc.reason == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var pe *PositionError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("Validate() = %v, want a PositionError saying %q", err, tc.reason)
			}
			if _, err := ParsePosition(tc.fen); !errors.As(err, &pe) {
				t.Errorf("ParsePosition() = %v, want the PositionError", err)
			}
		})
	}
	// A pawn on a back rank cannot be parsed, but a board can be built
	// with one.
	var b Board
	b.put(MakeSquare(4, 0), MakePiece(White, King))
	b.put(MakeSquare(4, 7), MakePiece(Black, King))
	b.put(MakeSquare(0, 7), MakePiece(White, Pawn))
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), "a pawn on a8") {
		t.Errorf("Validate() = %v, want a pawn on a8", err)
	}
}
