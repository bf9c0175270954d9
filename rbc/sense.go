package rbc

import "github.com/blindfish-rbc/blindfish/chess"

// SquarePiece is one square of a sense result and what stands on it.
type SquarePiece struct {
	Square chess.Square
	Piece  chess.Piece
}

// SenseWindow returns the 3×3 window centred on center, clipped at the edges.
func SenseWindow(center chess.Square) chess.Bitboard {
	return chess.KingAttacks(center) | center.Bit()
}

// AppendSense appends the sense result for center in the harness's order:
// the rank above, the same rank, the rank below, each from file−1 to file+1,
// clipped at the board's edge.
func AppendSense(b *chess.Board, dst []SquarePiece, center chess.Square) []SquarePiece {
	f, r := center.File(), center.Rank()
	for dr := 1; dr >= -1; dr-- {
		for df := -1; df <= 1; df++ {
			ff, rr := f+df, r+dr
			if ff < 0 || ff > 7 || rr < 0 || rr > 7 {
				continue
			}
			s := chess.MakeSquare(ff, rr)
			dst = append(dst, SquarePiece{Square: s, Piece: b.PieceAt(s)})
		}
	}
	return dst
}

// Sense returns the sense result for center (see AppendSense); NoSquare
// (a passed sense) gives an empty result.
func Sense(b *chess.Board, center chess.Square) []SquarePiece {
	if !center.Valid() {
		return nil
	}
	return AppendSense(b, make([]SquarePiece, 0, 9), center)
}

// SenseKey returns a number that identifies exactly what the window around
// center shows on this board: two boards give the same sense result for center
// iff their keys are equal (each square is a base-13 digit). It is the basis of
// sense-outcome partitions in belief filtering and sense selection.
func SenseKey(b *chess.Board, center chess.Square) uint64 {
	var k uint64
	occ := b.Occupied()
	for w := SenseWindow(center); w != 0; {
		s := w.PopFirst()
		k *= 13
		if occ.Has(s) {
			p := b.PieceAt(s)
			k += 6*uint64(p.Color()) + uint64(p.Type())
		}
	}
	return k
}
