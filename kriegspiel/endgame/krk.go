package endgame

import (
	"sync"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// The king and rook ending scored by distance to mate. With the king's
// square known, KRK is a solved ending: a table of the moves to mate of
// every placement (computed once, by retrograde analysis, in well under a
// second) says how far each square the king may stand on is from mate under
// best play on both sides. The mater's general score (the king's box, the
// squares it may stand on, our king's distance) has no notion of the
// textbook's tempo and opposition, so once the king is nearly located it
// circles against a defender that dodges well; the table folds the
// technique — confine, approach, take the opposition, check — into one
// number per square. It is no guide while the squares are many: it
// assumes the king is seen, and the king's unseen moves spread the belief
// again after every move, so the wide phase (mate.go) herds with the
// rectangle of the squares and gives the table only a share.

// krkDraw is the table's value of a placement that is not won: the king
// takes the rook, or is stalemated. It is also the cost a draw adds to a
// belief's score, larger than any distance to mate (at most 16 moves).
const krkDraw = 64

// krkTable holds, for each placement of our king, our rook and the enemy
// king with the enemy to move, the number of our moves to mate under best
// play (0: it is mated), or krkDraw. Placements that cannot occur are
// krkDraw too; they are never looked up.
type krkTable [64 * 64 * 64]int8

func krkIndex(k, r, e rbc.Square) int { return int(k)<<12 | int(r)<<6 | int(e) }

// krk returns the table, built on first use and never changed after (a
// constant, computed rather than stored: it is 256 KiB).
var krk = sync.OnceValue(buildKRK)

// buildKRK solves the ending backwards: from the mates, a placement with us
// to move is won in n when one of our moves reaches a placement with the
// king to move won in n-1; one with the king to move is won in n when each
// of its moves reaches one with us to move won in at most n.
func buildKRK() *krkTable {
	const unknown = -1
	black, white := new(krkTable), new(krkTable) // the king to move; us
	for i := range black {
		black[i], white[i] = krkDraw, krkDraw
	}
	legal := func(k, r, e rbc.Square) bool {
		return k != r && k != e && r != e && !rbc.KingAttacks(k).Has(e)
	}
	// The king's moves from e, or done with a final value.
	escapes := func(k, r, e rbc.Square) (to rbc.Bitboard, final int8, done bool) {
		guarded := rbc.KingAttacks(k) | rbc.RookAttacks(r, k.Bit())
		to = rbc.KingAttacks(e) &^ guarded
		if to.Has(r) { // the rook is next to it and our king does not guard it
			return 0, krkDraw, true // it takes the rook
		}
		if to == 0 {
			if guarded.Has(e) {
				return 0, 0, true
			}
			return 0, krkDraw, true
		}
		return to, 0, false
	}
	for k := rbc.Square(0); k < 64; k++ {
		for r := rbc.Square(0); r < 64; r++ {
			for e := rbc.Square(0); e < 64; e++ {
				if !legal(k, r, e) {
					continue
				}
				i := krkIndex(k, r, e)
				if _, v, done := escapes(k, r, e); done {
					black[i] = v
				} else {
					black[i] = unknown
				}
				if !rbc.RookAttacks(r, k.Bit()).Has(e) {
					white[i] = unknown
				}
			}
		}
	}
	for n := int8(1); ; n++ {
		changed := false
		for i, v := range white {
			if v != unknown {
				continue
			}
			k, r, e := rbc.Square(i>>12), rbc.Square(i>>6&63), rbc.Square(i&63)
			won := false
			for to := rbc.KingAttacks(k) &^ rbc.KingAttacks(e) &^ r.Bit(); to != 0 && !won; {
				won = black[krkIndex(to.PopFirst(), r, e)] == n-1
			}
			for to := rbc.RookAttacks(r, k.Bit()|e.Bit()) &^ k.Bit() &^ e.Bit(); to != 0 && !won; {
				won = black[krkIndex(k, to.PopFirst(), e)] == n-1
			}
			if won {
				white[i] = n
				changed = true
			}
		}
		for i, v := range black {
			if v != unknown {
				continue
			}
			k, r, e := rbc.Square(i>>12), rbc.Square(i>>6&63), rbc.Square(i&63)
			to, _, _ := escapes(k, r, e)
			all := true
			for to != 0 && all {
				w := white[krkIndex(k, r, to.PopFirst())]
				all = w != unknown && w != krkDraw
			}
			if all {
				black[i] = n
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for i := range black {
		if black[i] == unknown {
			black[i] = krkDraw
		}
	}
	return black
}

// krkMoves returns the table's moves to mate with our king on k, our rook
// on r and the enemy king, to move, on e.
func krkMoves(k, r, e rbc.Square) int { return int(krk()[krkIndex(k, r, e)]) }

// krkMen returns the squares of our king and our rook when they are our
// only men.
func krkMen(mine *rbc.Board, us rbc.Color) (k, r rbc.Square, ok bool) {
	rooks := mine.PiecesOf(us, rbc.Rook)
	if rooks.Count() != 1 || mine.Pieces(us).Count() != 2 {
		return 0, 0, false
	}
	return mine.KingSquare(us), rooks.First(), true
}

// krkScore is the worth of the king to move on any square of set, with our
// men mine (king and rook only): the sum of the squares' distances to mate
// — which falls as the king is driven and as fewer squares remain — and
// twice the largest, so that no square is left behind.
func krkScore(k, r rbc.Square, set rbc.Bitboard) float64 {
	sum, worst := 0, 0
	for bb := set; bb != 0; {
		d := krkMoves(k, r, bb.PopFirst())
		sum += d
		worst = max(worst, d)
	}
	return -float64(sum + 2*worst)
}
