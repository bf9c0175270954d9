// Package embedded is a small chess-like search on the RBC rules, used to
// score positions when no Stockfish is installed and for the boards the guard
// keeps away from Stockfish (doubled kings, impossible checks).
//
// It searches RBC options, not chess moves: every pseudo-legal move
// including castling without check rules, plus the pass. Check needs no
// special rule: a side that can capture the enemy king wins on the spot, so
// leaving a king en prise is found to lose one ply later. The evaluation is
// material plus piece-square tables written for this package; the search is
// iterative-deepening alpha-beta with a capture quiescence search. It is
// deterministic (no randomness, no maps, no shared tables written after
// initialisation) so that tests and caches can rely on it.
package embedded

import (
	"github.com/blindfish-rbc/blindfish/chess"
)

// tables holds the piece-square bonuses from White's point of view, indexed
// by piece type and square, for the middlegame and the endgame. They are
// computed once from simple shape rules (centralisation, advancement, a
// sheltered king early and an active king late) rather than tuned by hand.
type tables struct {
	mid, end [7][64]int
}

var pst = buildTables()

func buildTables() *tables {
	t := new(tables)
	for s := chess.Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		// centre is 0 on d4/e4/d5/e5 and 3 on the rim (Chebyshev distance in half-squares).
		centre := max(abs(2*f-7), abs(2*r-7)) / 2
		fileCentre := abs(2*f-7) / 2 // 0 on d/e … 3 on a/h

		pawn := [8]int{0, 0, 4, 10, 20, 34, 56, 0}[r]
		if fileCentre == 0 && r >= 2 && r <= 4 {
			pawn += 12
		}
		if fileCentre == 3 {
			pawn -= 4
		}
		t.mid[chess.Pawn][s] = pawn
		t.end[chess.Pawn][s] = [8]int{0, 0, 8, 18, 32, 52, 80, 0}[r]

		t.mid[chess.Knight][s] = 24 - 12*centre
		t.end[chess.Knight][s] = 16 - 8*centre

		t.mid[chess.Bishop][s] = 12 - 5*centre
		t.end[chess.Bishop][s] = 8 - 4*centre

		rook := 0
		if r == 6 {
			rook = 18
		}
		if fileCentre <= 1 {
			rook += 4
		}
		t.mid[chess.Rook][s] = rook
		t.end[chess.Rook][s] = rook / 2

		t.mid[chess.Queen][s] = 6 - 3*centre
		t.end[chess.Queen][s] = 12 - 5*centre

		king := -18 * r
		if r == 0 && (f <= 2 || f >= 6) {
			king += 14
		}
		t.mid[chess.King][s] = king
		t.end[chess.King][s] = 24 - 10*centre
	}
	return t
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// phaseFull is the non-pawn material (both sides) at which the middlegame
// tables apply fully; below it the endgame tables take over linearly.
const phaseFull = 2 * (2*320 + 2*330 + 2*500 + 960)

// tempo is the bonus for having the move.
const tempo = 10

// Evaluate returns the static score of b in centipawns from the side to
// move's point of view: material, piece-square terms blended by game phase,
// and a small bonus for having the move. It does not look at threats; the
// search does.
func Evaluate(b *chess.Board) int {
	var mid, end, phase int
	for c := chess.White; c <= chess.Black; c++ {
		sign := 1
		flip := chess.Square(0)
		if c == chess.Black {
			sign, flip = -1, 56
		}
		for t := chess.Pawn; t <= chess.King; t++ {
			bb := b.PiecesOf(c, t)
			n := bb.Count()
			mid += sign * n * chess.PieceValue(t)
			end += sign * n * chess.PieceValue(t)
			if t != chess.Pawn {
				phase += n * chess.PieceValue(t)
			}
			for bb != 0 {
				s := bb.PopFirst() ^ flip
				mid += sign * pst.mid[t][s]
				end += sign * pst.end[t][s]
			}
		}
	}
	phase = min(phase, phaseFull)
	score := (mid*phase + end*(phaseFull-phase)) / phaseFull
	if b.Turn() == chess.Black {
		score = -score
	}
	return score + tempo
}
