package endgame

import (
	"math"
	"math/rand/v2"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Mater chooses our tries against a lone king over the belief's squares, in
// the manner of Bolognesi and Ciancarini's metapositions: a shallow search
// over our moves in which the king's hidden square is the opponent's choice
// (a try is worth its worst answer), scored by how small the region the king
// can reach is, how few squares it may stand on, and how close our king is.
// Two moves are never played: one that stalemates the king on some square
// it may stand on, and one after which the king may take a queen or rook
// nothing guards. Since a refused try costs no move, tries are not judged
// by whether they may be refused, only by what they are worth when made,
// and among equals the one refused on more squares (which tells more) goes
// first.
//
// King and rook against king is played in two phases, since the general
// score is too weak for it (see krk.go): while the king may stand on many
// squares the search sweeps them towards an edge behind a wall of the rook
// guarded by our king (a rook that splits the board in four leaves the
// squares spread over its four boxes); once they are few it looks one move
// ahead and scores by the table's distances to mate.
//
// King and pawn against king has a planner of its own (kpk.go), which keeps
// the pawn won for every square the king may stand on and, once the pawn
// promotes, leaves the queen ending to the search above.
type Mater struct {
	// Depth is how many of our moves the search looks ahead (at least 1);
	// the narrow phase of the rook ending looks one.
	Depth int
	rng   *rand.Rand
	// seen counts the placements of our men our moves made this game: a
	// move that makes one again is worth less for each time, so that a
	// search that sees no progress tries something new rather than cycle
	// into a draw by repetition.
	seen map[uint64]int
	// stood counts, for each position of our men this game (the king to
	// move after our moves; in the pawn ending also us to move after the
	// king's step, see choosePawn), how many times the king may have
	// stood on each square then: a third time on the same square draws
	// by repetition (kpk.go).
	stood map[uint64]*[64]uint8
	// plan is how the current choice scores its leaves.
	plan plan
	// weights guesses how likely each square is to hold the king, for the
	// pawn ending (kpk.go), as of the turn of fullmove number weighedAt:
	// the guesses knowing (a king that knows the ending) and wandering (one
	// that steps anywhere) mixed, knowingShare of it the first (see weigh);
	// nearest is the least of the belief's largest distances to promotion
	// yet, and stuck counts our turns since it last fell.
	weights, knowing, wandering [64]float64
	knowingShare                float64
	weighedAt                   int
	nearest, stuck              int
}

// plan says which score the search's leaves get.
type plan int

const (
	general   plan = iota // score: the king's box, its squares, our king's distance
	krkWide               // the rook ending, many squares: herd them
	krkNarrow             // the rook ending, few squares: the table's distances
)

// krkFew is the most squares of the rook ending's narrow phase; with more
// the sweep's score guides, which keeps the wall that the table's
// distances alone, summed over nine or ten squares, sometimes let go.
const krkFew = 8

// repeatPenalty is what each earlier visit of a placement costs a move, in
// the score's units (a square of the king's box is 4).
const repeatPenalty = 25

// DefaultDepth is the search depth the benchmark's numbers were measured with.
const DefaultDepth = 2

// NewMater returns a mater whose choices among equal tries follow from seed.
func NewMater(seed uint64) *Mater {
	return &Mater{Depth: DefaultDepth, rng: rand.New(rand.NewPCG(seed, 0x6d617465)), seen: map[uint64]int{}, stood: map[uint64]*[64]uint8{}}
}

// The scores: a mate is worth winScore less the moves it takes; a move that
// can lose the piece or stalemate loses riskScore for each square where it
// does.
const (
	winScore  = 1e6
	riskScore = 1e4
)

// Playable reports whether the mater knows the position: we have a queen
// or a rook, or only a pawn (kpk.go), and the opponent only its king (what
// the belief assumes).
func Playable(mine *chess.Board, us chess.Color) bool {
	if _, _, ok := kpkMen(mine, us); ok {
		return true
	}
	return mine.KingSquare(us) != chess.NoSquare && heavy(mine, us) != 0
}

// Choose returns the try to ask among moves (the referee's list) for the
// king on any of the belief's squares; ok is false when none of them is a
// move the mater judges (then the caller chooses).
func (mt *Mater) Choose(bl *Belief, moves []chess.Move) (m chess.Move, ok bool) {
	mine := bl.Mine()
	us := bl.Color()
	set := bl.Squares()
	if _, _, ok := kpkMen(&mine, us); ok {
		return mt.choosePawn(&mine, us, set, moves)
	}
	depth := max(mt.Depth, 1)
	mt.plan = general
	if _, _, ok := krkMen(&mine, us); ok {
		mt.plan = krkWide
		if set.Count() <= krkFew {
			// The table holds what a deeper search would find, and the
			// squares a second move would face have spread again.
			mt.plan, depth = krkNarrow, 1
		}
	}
	best, bestScore, bestInfo := -1, math.Inf(-1), -1
	ties := 0
	for i, mv := range moves {
		if !candidate(&mine, mv) {
			continue
		}
		t := try(&mine, us, set, mv)
		if len(t.outcomes) == 0 {
			continue // refused on every square: it tells nothing
		}
		score := mt.judge(&t, us, depth-1) - repeatPenalty*float64(mt.seen[t.after.Key()])
		info := t.illegal.Count()
		switch {
		case best < 0 || score > bestScore || (score == bestScore && info > bestInfo):
			best, bestScore, bestInfo, ties = i, score, info, 1
		case score == bestScore && info == bestInfo:
			ties++
			if mt.rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	if best < 0 {
		return chess.Move{}, false
	}
	return moves[best], true
}

// Played notes that our move made the placement of our men after, with the
// king (to move) on one of squares.
func (mt *Mater) Played(after *chess.Board, squares chess.Bitboard) {
	mt.seen[after.Key()]++
	mt.stand(after, squares)
}

// stand notes that the position of our men on b (either side to move)
// stood with the king on one of squares.
func (mt *Mater) stand(b *chess.Board, squares chess.Bitboard) {
	key := b.Key()
	on := mt.stood[key]
	if on == nil {
		on = new([64]uint8)
		mt.stood[key] = on
	}
	for squares != 0 {
		s := squares.PopFirst()
		if on[s] < math.MaxUint8 {
			on[s]++
		}
	}
}

// repeats returns the squares of set on which the king, to move after our
// move made the placement of our men after, may make that position a third
// time: squares it may have stood on at both earlier times this placement
// was made. It may call a square a draw that was not (the king need not
// have stood there both times), never the other way. With after our men
// and us to move, it tells the same of the king's step: the pawn planner
// notes those positions too (choosePawn), the rook and queen search does
// not.
func (mt *Mater) repeats(after *chess.Board, set chess.Bitboard) chess.Bitboard {
	on := mt.stood[after.Key()]
	if on == nil {
		return 0
	}
	var out chess.Bitboard
	for bb := set; bb != 0; {
		if s := bb.PopFirst(); on[s] >= 2 {
			out |= s.Bit()
		}
	}
	return out
}

// judge returns what the made try t is worth: its worst outcome, each
// searched depth more of our moves deep.
func (mt *Mater) judge(t *trial, us chess.Color, depth int) float64 {
	// A square where the move stalemates the king, or lets it take the
	// piece, is a draw if the king stands there: worth more than anything
	// the heuristic weighs, and the sooner the worse.
	risk := riskScore * float64(depth+1) * float64(t.stalemate+t.hangs)
	worst := math.Inf(1)
	for _, o := range t.outcomes {
		v := winScore + float64(depth)
		switch {
		case o.end == mates:
		case depth == 0 && mt.plan != general:
			v = mt.rookScore(&t.after, us, o.squares, t.next(o))
		default:
			v = mt.value(&t.after, us, t.next(o), depth)
		}
		worst = min(worst, v)
	}
	return worst - risk
}

// value returns what our turn is worth with our men mine and the king on
// any square of set: the heuristic at depth 0, else our best move's worth.
func (mt *Mater) value(mine *chess.Board, us chess.Color, set chess.Bitboard, depth int) float64 {
	if depth == 0 || set == 0 {
		return score(mine, us, set)
	}
	ours := *mine
	if ours.Turn() != us {
		ours.Apply(chess.Move{}) // the king's move, unseen: our turn again
	}
	var buf [128]chess.Move
	best := math.Inf(-1)
	for _, mv := range chess.AppendLegalMoves(&ours, buf[:0]) {
		if !candidate(&ours, mv) {
			continue
		}
		t := try(&ours, us, set, mv)
		if len(t.outcomes) == 0 {
			continue
		}
		best = max(best, mt.judge(&t, us, depth-1))
	}
	if math.IsInf(best, -1) {
		return score(mine, us, set)
	}
	return best
}

// score is the heuristic worth of our turn, higher better. It counts the
// box the king is confined to — the squares it can reach through squares we
// do not attack, from the worst square it may stand on (each part of the
// board our men's lines cut off is a box of its own, and the king is in one
// of them) — then the squares it may stand on now (what we do not know),
// and our king's distance from them (it must come to help).
func score(mine *chess.Board, us chess.Color, set chess.Bitboard) float64 {
	a := attacks(mine, us)
	largest, total := 0, chess.Bitboard(0)
	for left := set; left != 0; {
		box := left.First().Bit()
		for {
			grown := box | spread(box)&^a
			if grown == box {
				break
			}
			box = grown
		}
		left &^= box
		total |= box
		largest = max(largest, box.Count())
	}
	k := mine.KingSquare(us)
	dist := 0
	for bb := set; bb != 0; {
		dist += chebyshev(k, bb.PopFirst())
	}
	n := set.Count()
	return -(4*float64(largest) + float64(total.Count()) + float64(n) + 2*float64(dist)/float64(max(n, 1)))
}

// rookScore is the rook ending's worth of a made move that leaves our men
// mine and the king to move on any square of squares, from which it can
// reach next.
func (mt *Mater) rookScore(mine *chess.Board, us chess.Color, squares, next chess.Bitboard) float64 {
	k, r, _ := krkMen(mine, us)
	if mt.plan == krkNarrow {
		return krkScore(k, r, squares)
	}
	return sweepScore(k, r, attacks(mine, us), next)
}

// rectangle returns the area of the smallest rectangle holding set.
func rectangle(set chess.Bitboard) int {
	if set == 0 {
		return 0
	}
	f0, f1, r0, r1 := 7, 0, 7, 0
	for bb := set; bb != 0; {
		s := bb.PopFirst()
		f0, f1 = min(f0, s.File()), max(f1, s.File())
		r0, r1 = min(r0, s.Rank()), max(r1, s.Rank())
	}
	return (f1 - f0 + 1) * (r1 - r0 + 1)
}

// chebyshev is the number of king steps from a to b.
func chebyshev(a, b chess.Square) int {
	return max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank()))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
