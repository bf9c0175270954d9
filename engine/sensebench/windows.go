package sensebench

import (
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// windowSizes counts, for every window centre, the boards of the belief that
// show what the true board shows in that window: the boards that sensing
// there would leave. A board shows the same as the truth in a window iff the
// window avoids every square where the two boards differ, so one pass per
// board finds all 64 answers: the centres whose window meets no difference
// are the complement of the differences grown by one square in every
// direction.
func windowSizes(ctx context.Context, s sampler.Sampler, truth *chess.Board) ([64]int, error) {
	per := make([][64]int, s.Workers())
	err := s.ForEach(ctx, func(w int, boards []chess.Board, _ []float64) error {
		acc := &per[w]
		for i := range boards {
			for m := ^grow(differences(&boards[i], truth)); m != 0; {
				acc[m.PopFirst()]++
			}
		}
		return nil
	})
	var out [64]int
	if err != nil {
		return out, fmt.Errorf("counting window outcomes: %w", err)
	}
	for _, a := range per {
		for q := range out {
			out[q] += a[q]
		}
	}
	return out, nil
}

// differences returns the squares where a and b hold different contents.
func differences(a, b *chess.Board) chess.Bitboard {
	var d chess.Bitboard
	for c := chess.White; c <= chess.Black; c++ {
		for t := chess.Pawn; t <= chess.King; t++ {
			d |= a.PiecesOf(c, t) ^ b.PiecesOf(c, t)
		}
	}
	return d
}

// grow adds to d every square next to one of its squares (the king step).
func grow(d chess.Bitboard) chess.Bitboard {
	const fileA, fileH chess.Bitboard = 0x0101010101010101, 0x8080808080808080
	notA, notH := d&^fileA, d&^fileH
	return d | d<<8 | d>>8 | notH<<1 | notA>>1 | notH<<9 | notA<<7 | notH>>7 | notA>>9
}
