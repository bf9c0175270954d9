package endgame

import (
	"math"
	"sync"

	"github.com/blindfish-rbc/blindfish/chess"
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
// again after every move, so the wide phase sweeps (below).

// krkDraw is the table's value of a placement that is not won: the king
// takes the rook, or is stalemated. It is also the cost a draw adds to a
// belief's score, larger than any distance to mate (at most 16 moves).
const krkDraw = 64

// krkTable holds, for each placement of our king, our rook and the enemy
// king with the enemy to move, the number of our moves to mate under best
// play (0: it is mated), or krkDraw. Placements that cannot occur are
// krkDraw too; they are never looked up.
type krkTable [64 * 64 * 64]int8

func krkIndex(k, r, e chess.Square) int { return int(k)<<12 | int(r)<<6 | int(e) }

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
	legal := func(k, r, e chess.Square) bool {
		return k != r && k != e && r != e && !chess.KingAttacks(k).Has(e)
	}
	// The king's moves from e, or done with a final value.
	escapes := func(k, r, e chess.Square) (to chess.Bitboard, final int8, done bool) {
		guarded := chess.KingAttacks(k) | chess.RookAttacks(r, k.Bit())
		to = chess.KingAttacks(e) &^ guarded
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
	for k := chess.Square(0); k < 64; k++ {
		for r := chess.Square(0); r < 64; r++ {
			for e := chess.Square(0); e < 64; e++ {
				if !legal(k, r, e) {
					continue
				}
				i := krkIndex(k, r, e)
				if _, v, done := escapes(k, r, e); done {
					black[i] = v
				} else {
					black[i] = unknown
				}
				if !chess.RookAttacks(r, k.Bit()).Has(e) {
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
			k, r, e := chess.Square(i>>12), chess.Square(i>>6&63), chess.Square(i&63)
			won := false
			for to := chess.KingAttacks(k) &^ chess.KingAttacks(e) &^ r.Bit(); to != 0 && !won; {
				won = black[krkIndex(to.PopFirst(), r, e)] == n-1
			}
			for to := chess.RookAttacks(r, k.Bit()|e.Bit()) &^ k.Bit() &^ e.Bit(); to != 0 && !won; {
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
			k, r, e := chess.Square(i>>12), chess.Square(i>>6&63), chess.Square(i&63)
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
func krkMoves(k, r, e chess.Square) int { return int(krk()[krkIndex(k, r, e)]) }

// krkMen returns the squares of our king and our rook when they are our
// only men.
func krkMen(mine *chess.Board, us chess.Color) (k, r chess.Square, ok bool) {
	rooks := mine.PiecesOf(us, chess.Rook)
	if rooks.Count() != 1 || mine.Pieces(us).Count() != 2 {
		return 0, 0, false
	}
	return mine.KingSquare(us), rooks.First(), true
}

// krkScore is the worth of the king to move on any square of set, with our
// men mine (king and rook only): the sum of the squares' distances to mate
// — which falls as the king is driven and as fewer squares remain — and
// twice the largest, so that no square is left behind.
func krkScore(k, r chess.Square, set chess.Bitboard) float64 {
	sum, worst := 0, 0
	for bb := set; bb != 0; {
		d := krkMoves(k, r, bb.PopFirst())
		sum += d
		worst = max(worst, d)
	}
	return -float64(sum + 2*worst)
}

// The wide phase's plan is the textbook sweep, made safe for a king that
// cannot be seen: the rook's line is a wall that every square the king may
// stand on lies beyond, and our king stands in front of the rook, on the
// square next to it on the king's side. There it guards the rook and every
// square next to it beyond the wall, so no square the king may stand on
// can reach the rook; our king then steps one further and the rook moves
// up behind it, still guarded, and the wall has advanced a line. Before
// there is a wall the rook goes to an edge with our king in front of where
// it lands. The search sees the two moves of each step, and the plan is
// scored by what it takes from the king: the region it can reach past our
// attacks, the rectangle of the squares it may stand on (what we do not
// know), and how far our men are from the formation.
const (
	sweepBox       = 2  // for a square of the region the king can reach
	sweepRectangle = 2  // for a square of the squares' rectangle
	sweepFormation = 2  // for a king step from the formation
	sweepNoWall    = 10 // while no wall holds every square
	sweepEdge      = 2  // for a line between the rook and an edge, before the wall
)

// sweepScore is the wide phase's worth of a made move that leaves our king
// on k and rook on r, with a attacked, and the king to reach next.
func sweepScore(k, r chess.Square, a, next chess.Bitboard) float64 {
	box := next
	for {
		grown := box | spread(box)&^a
		if grown == box {
			break
		}
		box = grown
	}
	d, walled := formation(k, r, next)
	v := sweepBox*box.Count() + sweepRectangle*rectangle(next) + sweepFormation*d + next.Count()
	if !walled {
		v += sweepNoWall
	}
	return -float64(v)
}

// frame returns s in the orientation o of a sweep: x along the wall, y
// the lines from the edge it starts at (0: from rank 1 up, 1: from rank 8
// down, 2: from file a right, 3: from file h left).
func frame(o int, s chess.Square) (x, y int) {
	switch o {
	case 0:
		return s.File(), s.Rank()
	case 1:
		return s.File(), 7 - s.Rank()
	case 2:
		return s.Rank(), s.File()
	default:
		return s.Rank(), 7 - s.File()
	}
}

// formation returns how far our king k and rook r are from the sweep's
// formation over the squares set, and whether a wall holds them: for an
// orientation in which every square of set lies beyond the rook's line,
// our king's steps from the square in front of the rook; for none, the
// least over the orientations of the rook's lines from the edge, weighed,
// and our king's steps from the square in front of where the rook would
// land on it.
func formation(k, r chess.Square, set chess.Bitboard) (d int, walled bool) {
	wall, setup := math.MaxInt, math.MaxInt
	for o := range 4 {
		kx, ky := frame(o, k)
		rx, ry := frame(o, r)
		beyond := true
		for bb := set; bb != 0 && beyond; {
			_, y := frame(o, bb.PopFirst())
			beyond = y > ry
		}
		if beyond {
			wall = min(wall, max(abs(kx-rx), abs(ky-ry-1)))
			continue
		}
		setup = min(setup, sweepEdge*ry+max(abs(kx-rx), abs(ky-1)))
	}
	if wall < math.MaxInt {
		return wall, true
	}
	return setup, false
}
