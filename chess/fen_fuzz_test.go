package chess

import (
	"errors"
	"testing"
)

// FuzzParseFEN: the FEN reader never panics, its errors are *FENError values
// naming a field, and any board it accepts writes a FEN that reads back to
// the very same board (placement, side, castling, en passant, counters, key).
func FuzzParseFEN(f *testing.F) {
	for _, fen := range []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"rnbqkbnr/ppppppp1/5N2/7p/8/8/PPPPPPPP/R1BQKBNR w KQkq h6 0 4",
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
		"4k3/8/8/8/8/8/8/4K2R w Kkq - 99 150",
		"8/8/8/8/8/8/8/8 b - -",
		"kk6/8/8/8/8/8/8/KK6 w - - 0 0",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
		"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"p7/8/8/8/8/8/8/8 w - - 0 1",
		"8/8/8/8/8/8/8/8 w KK - 0 1",
		"8/8/8/8/8/8/8/8 w - e4 0 1",
		"8/8/8/8/8/8/8/8 w - - 70000 1",
		"",
	} {
		f.Add(fen)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		b, err := ParseFEN(fen)
		if err != nil {
			var fe *FENError
			if !errors.As(err, &fe) || fe.Field == "" {
				t.Fatalf("error without a field: %v", err)
			}
			return
		}
		out := b.FEN()
		b2, err := ParseFEN(out)
		if err != nil {
			t.Fatalf("FEN() of an accepted board does not parse: %q -> %q: %v", fen, out, err)
		}
		if b2 != b || b2.Key() != b.Key() || b2.Key() != b2.computeKey() {
			t.Fatalf("board changed in a round trip: %q -> %q -> %q", fen, out, b2.FEN())
		}
		if out2 := b2.FEN(); out2 != out {
			t.Fatalf("FEN not stable: %q then %q", out, out2)
		}
	})
}
