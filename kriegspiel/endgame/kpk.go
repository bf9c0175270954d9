package endgame

import (
	"math"
	"sync"

	"github.com/blindfish-rbc/blindfish/chess"
)

// King and pawn against king, after Ciancarini, Dalla Libera and Maran
// ("A Rational Approach to Kriegspiel"): a strategy over the information
// set, the squares the lone king may stand on. First the rule of the
// square, applied to every one of them: a king farther from the promotion
// square than the pawn's moves to it never catches the pawn, so when every
// square the king may stand on is outside the pawn's square, the pawn runs.
// Beyond that, a table: with the king's square known KPK is solved, and a
// table of every placement, either side to move, built once by retrograde
// analysis, says whether the pawn promotes to a queen the king can neither
// take nor be stalemated by, or else to a rook the king ending's table
// wins, and in how many of our moves. It sees what the
// rule cannot — our king's escort, the opposition, and the stalemates our
// king and the new queen may give (the tests check that the two agree).
//
// Over a belief, a position is won when the table wins it for every square
// the king may stand on. A try keeps it won when, for every square on which
// the referee would let it be made, the placement after it (the king to
// move) is won: the king's reply then reaches only won placements, and a
// square on which the try is refused is ruled out at no cost (we try
// again). The planner searches a few of our moves ahead, a try worth the
// worse of its answers (refused, or made and then the king's unseen step),
// and takes the try that keeps every square won with the worst square
// nearest promotion. The king's unseen steps spread the belief, though,
// and once it holds squares that want different moves (the opposition on
// one side of the pawn, a capture on the other) no try may be safe for
// all; the planner then waits with its king where the pawn stays won and
// tries tell it more, and after a while (at once where every try draws on
// some square) takes the least risk, the king's squares weighed by how
// likely its moves made them. Once the pawn promotes
// the queen or rook ending's mater takes over.

// kpkDraw is the table's value of a placement that is not won: the king
// takes the pawn, is stalemated, or holds the draw. It exceeds every
// distance.
const kpkDraw = 64

// kpkTable holds, for each placement of our king, our pawn and the enemy
// king, seen from the pawn's side as White, the number of our moves to a
// safe promotion (see kpkPromotion) under best play (our pushing move to the last rank
// included; 0 only when the pawn has mated), or kpkDraw. Placements that
// cannot occur are kpkDraw too; they are never looked up.
type kpkTable struct {
	// us has us to move, them the king.
	us, them [64 * 64 * 64]int8
}

func kpkIndex(k, p, e chess.Square) int { return int(k)<<12 | int(p)<<6 | int(e) }

// kpk returns the table, built on first use and never changed after (a
// constant, computed rather than stored: it is 512 KiB).
var kpk = sync.OnceValue(buildKPK)

// kpkPromotes reports whether a queen that has just promoted on q, with our
// king on k and the enemy king on e to move, is safe: the king cannot take
// it and is not stalemated (a mate is safe).
func kpkPromotes(k, q, e chess.Square) bool {
	if k == q || e == q {
		return false
	}
	guarded := chess.KingAttacks(k) | chess.QueenAttacks(q, k.Bit()|q.Bit())
	if chess.KingAttacks(e).Has(q) && !chess.KingAttacks(k).Has(q) {
		return false // it takes the queen
	}
	return chess.KingAttacks(e)&^guarded != 0 || guarded.Has(e)
}

// kpkPromotion returns the piece a pawn that has just promoted on q, with
// our king on k and the enemy king on e to move, should become: the queen
// where it is safe, else a rook the KRK table wins (where the queen would
// stalemate, a rook may leave the king a square), else none: the
// promotion draws.
func kpkPromotion(k, q, e chess.Square) chess.PieceType {
	for _, piece := range []chess.PieceType{chess.Queen, chess.Rook} {
		if kpkPromotionWins(piece, k, q, e) {
			return piece
		}
	}
	return chess.NoPieceType
}

// kpkPromotionWins reports whether the pawn's promotion to piece on q,
// with our king on k and the enemy king on e to move, wins.
func kpkPromotionWins(piece chess.PieceType, k, q, e chess.Square) bool {
	switch piece {
	case chess.Queen:
		return kpkPromotes(k, q, e)
	case chess.Rook:
		return k != q && e != q && krkMoves(k, q, e) != krkDraw
	}
	return false
}

// kpkPushes returns the squares the pawn on p can advance to with the kings
// on k and e, the last rank (a promotion) included.
func kpkPushes(k, p, e chess.Square) chess.Bitboard {
	occ := k.Bit() | e.Bit()
	one := p + 8
	if occ.Has(one) {
		return 0
	}
	to := one.Bit()
	if p.Rank() == 1 && !occ.Has(p+16) {
		to |= (p + 16).Bit()
	}
	return to
}

// buildKPK solves the ending backwards, as buildKRK does: a placement with
// us to move is won in n when one of our moves promotes safely (n = 1) or
// reaches one with the king to move won in n-1; one with the king to move
// is won in n when each of its moves reaches one with us to move won in at
// most n.
func buildKPK() *kpkTable {
	const unknown = -1
	t := new(kpkTable)
	for i := range t.us {
		t.us[i], t.them[i] = kpkDraw, kpkDraw
	}
	// The king's moves from e, or done with a final value.
	escapes := func(k, p, e chess.Square) (to chess.Bitboard, final int8, done bool) {
		to = chess.KingAttacks(e) &^ chess.KingAttacks(k) &^ chess.PawnAttacks(chess.White, p)
		switch {
		case to.Has(p):
			return 0, kpkDraw, true // it takes the pawn
		case to == 0 && chess.PawnAttacks(chess.White, p).Has(e):
			return 0, 0, true // mated by the pawn
		case to == 0:
			return 0, kpkDraw, true // stalemated
		}
		return to, 0, false
	}
	for k := chess.Square(0); k < 64; k++ {
		for p := chess.A2; p <= chess.H7; p++ {
			for e := chess.Square(0); e < 64; e++ {
				if k == p || k == e || p == e || chess.KingAttacks(k).Has(e) {
					continue
				}
				i := kpkIndex(k, p, e)
				if _, v, done := escapes(k, p, e); done {
					t.them[i] = v
				} else {
					t.them[i] = unknown
				}
				if chess.PawnAttacks(chess.White, p).Has(e) {
					continue // the king, not to move, would be in check
				}
				t.us[i] = unknown
				if p.Rank() == 6 && kpkPushes(k, p, e) != 0 && kpkPromotion(k, p+8, e) != chess.NoPieceType {
					t.us[i] = 1
				}
			}
		}
	}
	for n := int8(1); ; n++ {
		changed := false
		for i, v := range t.us {
			if v != unknown {
				continue
			}
			k, p, e := chess.Square(i>>12), chess.Square(i>>6&63), chess.Square(i&63)
			won := false
			for to := chess.KingAttacks(k) &^ chess.KingAttacks(e) &^ p.Bit(); to != 0 && !won; {
				won = t.them[kpkIndex(to.PopFirst(), p, e)] == n-1
			}
			if p.Rank() < 6 {
				for to := kpkPushes(k, p, e); to != 0 && !won; {
					won = t.them[kpkIndex(k, to.PopFirst(), e)] == n-1
				}
			}
			if won {
				t.us[i] = n
				changed = true
			}
		}
		for i, v := range t.them {
			if v != unknown {
				continue
			}
			k, p, e := chess.Square(i>>12), chess.Square(i>>6&63), chess.Square(i&63)
			to, _, _ := escapes(k, p, e)
			all := true
			for to != 0 && all {
				w := t.us[kpkIndex(k, p, to.PopFirst())]
				all = w != unknown && w != kpkDraw
			}
			if all {
				t.them[i] = n
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	for i := range t.us {
		if t.us[i] == unknown {
			t.us[i] = kpkDraw
		}
		if t.them[i] == unknown {
			t.them[i] = kpkDraw
		}
	}
	return t
}

// kpkMen returns the squares of our king and our pawn when they are our
// only men.
func kpkMen(mine *chess.Board, us chess.Color) (k, p chess.Square, ok bool) {
	pawns := mine.PiecesOf(us, chess.Pawn)
	if pawns.Count() != 1 || mine.Pieces(us).Count() != 2 || mine.KingSquare(us) == chess.NoSquare {
		return 0, 0, false
	}
	return mine.KingSquare(us), pawns.First(), true
}

// pawnView returns s as the table sees it: the pawn's side is White, so
// Black's squares are mirrored rank for rank.
func pawnView(us chess.Color, s chess.Square) chess.Square {
	if us == chess.Black {
		return s ^ 56
	}
	return s
}

// kpkWon reports whether the placement of our king k and pawn p (us to
// move) is won in the table for every square of set, and the largest
// number of moves it takes.
func kpkWon(us chess.Color, k, p chess.Square, set chess.Bitboard) (won bool, worst int) {
	t := kpk()
	k, p = pawnView(us, k), pawnView(us, p)
	for bb := set; bb != 0; {
		d := int(t.us[kpkIndex(k, p, pawnView(us, bb.PopFirst()))])
		if d == kpkDraw {
			return false, kpkDraw
		}
		worst = max(worst, d)
	}
	return set != 0, worst
}

// outsideSquare reports whether the rule of the square wins the race of
// our pawn on p against the king on e alone, us to move: the king is
// farther from the promotion square than the pawn's moves to it (a pawn on
// its first rank counts from its second, as it may step two), and our own
// king k does not stand in its path. It ignores our king otherwise, so a
// stalemate on the promotion, which our king can help give, is the
// table's to see.
func outsideSquare(us chess.Color, k, p, e chess.Square) bool {
	k, p, e = pawnView(us, k), pawnView(us, p), pawnView(us, e)
	queen := chess.MakeSquare(p.File(), 7)
	if chess.Between(p, queen).Has(k) || queen == k {
		return false
	}
	moves := 7 - max(p.Rank(), 2)
	return chebyshev(e, queen) > moves
}

// pawnCandidate reports whether the pawn planner considers m: what the
// mater does (see candidate), and a pawn's promotion to a rook, which wins
// where the queen's would stalemate.
func pawnCandidate(b *chess.Board, m chess.Move) bool {
	if m.Promotion == chess.Rook {
		return b.PieceAt(m.From).Type() == chess.Pawn && m.From.File() == m.To.File()
	}
	return candidate(b, m)
}

// kpkRookCost is what promoting to a rook costs over the queen, in moves
// to promotion: the rook's mate is longer, so it is taken only where the
// queen's promotion draws on some square.
const kpkRookCost = 0.5

// The pawn planner's search: how many of our moves it looks ahead, and how
// many refused tries in a row it follows at each turn (a refused try costs
// no move, so its branch is our turn again with fewer squares).
const (
	kpkDepth    = 3
	kpkRefusals = 2
)

// A try's worth is a cost, lower better: kpkLostCost for each square the
// table would then draw, and kpkSoonCost for each move of the search left
// when it does (a draw later leaves the king more moves to go astray),
// plus the largest of the squares' distances to
// promotion, plus kpkMeanWeight times their mean. A try that draws at once
// on some squares also carries the worth of the game going on on the
// others (see kpkPlan.made).
const (
	kpkLostCost   = 1000
	kpkSoonCost   = 100
	kpkMeanWeight = 0.1
)

// kpkSpreadCost is what each square the king may step to after the
// search's last move costs, in moves to promotion. Among tries that keep
// every square won, it prefers the one that leaves the king fewer squares:
// a belief that spreads both in front of the pawn and behind it leaves no
// try safe for all, and the planner must then guess (see choosePawn).
// Twenty squares weigh one move, so it only settles near ties.
const kpkSpreadCost = 0.05

// kpkPlan searches the pawn ending for one side.
type kpkPlan struct {
	us chess.Color
	t  *kpkTable
	// mt, when set, tells the positions that would repeat a third time.
	mt *Mater
}

// cost returns the worth of the king on any square of set with our king on
// k and pawn on p (ours, not yet mirrored), from the table for the side to
// move (us or them), less the moves already counted.
func (pl *kpkPlan) cost(table *[64 * 64 * 64]int8, k, p chess.Square, set chess.Bitboard, less int) (v float64, lost int) {
	k, p = pawnView(pl.us, k), pawnView(pl.us, p)
	worst, sum, n := 0, 0, 0
	for bb := set; bb != 0; {
		d := int(table[kpkIndex(k, p, pawnView(pl.us, bb.PopFirst()))])
		if d == kpkDraw {
			lost++
			continue
		}
		worst, sum, n = max(worst, d), sum+d, n+1
	}
	return kpkLostCost*float64(lost) + float64(worst-less) + kpkMeanWeight*float64(sum)/float64(max(n, 1)), lost
}

// turn returns the worth of our turn with our men mine and the king on any
// square of set, depth of our moves ahead: our best try's.
func (pl *kpkPlan) turn(mine *chess.Board, set chess.Bitboard, depth, refusals int) float64 {
	var buf [64]chess.Move
	best := math.Inf(1)
	for _, mv := range chess.AppendLegalMoves(mine, buf[:0]) {
		if !pawnCandidate(mine, mv) {
			continue
		}
		if v, ok := pl.try(mine, set, mv, depth, refusals); ok {
			best = min(best, v)
		}
	}
	if math.IsInf(best, 1) {
		k, p, _ := kpkMen(mine, pl.us)
		v, _ := pl.cost(&pl.t.us, k, p, set, depth)
		return v
	}
	return best
}

// try returns the worth of the try mv on mine against the king on any
// square of set, depth of our moves ahead: the worse of what it is worth
// when made and, where it may be refused, of our turn again with the
// squares that refuse it (the referee's answer tells which). ok is false
// when it is refused on every square.
func (pl *kpkPlan) try(mine *chess.Board, set chess.Bitboard, mv chess.Move, depth, refusals int) (v float64, ok bool) {
	t := try(mine, pl.us, set, mv)
	legal := set &^ t.illegal
	if legal == 0 {
		return 0, false
	}
	v = pl.made(&t, legal, depth, refusals)
	if t.illegal != 0 {
		var r float64
		if refusals > 0 {
			r = pl.turn(mine, t.illegal, depth, refusals-1)
		} else {
			k, p, _ := kpkMen(mine, pl.us)
			r, _ = pl.cost(&pl.t.us, k, p, t.illegal, depth)
		}
		v = max(v, r)
	}
	return v, true
}

// made returns the worth of the made try t with the king on any square of
// legal: the table's, one move ahead, or the worst of our best turns after
// the king's unseen reply, answer by answer.
func (pl *kpkPlan) made(t *trial, legal chess.Bitboard, depth, refusals int) float64 {
	k := t.after.KingSquare(pl.us)
	if t.move.Promotion != chess.NoPieceType {
		lost := 0
		for bb := legal; bb != 0; {
			if !kpkPromotionWins(t.move.Promotion, pawnView(pl.us, k), pawnView(pl.us, t.move.To), pawnView(pl.us, bb.PopFirst())) {
				lost++
			}
		}
		if lost > 0 {
			return kpkLostCost*float64(lost) + kpkSoonCost*float64(depth)
		}
		if t.move.Promotion == chess.Rook {
			return kpkRookCost - float64(depth)
		}
		return -float64(depth)
	}
	_, p, _ := kpkMen(&t.after, pl.us)
	var rep chess.Bitboard
	if pl.mt != nil {
		rep = pl.mt.repeats(&t.after, legal)
	}
	v, lost := pl.cost(&pl.t.them, k, p, legal&^rep, 1)
	if n := rep.Count(); n > 0 {
		v += kpkLostCost * float64(n)
		lost += n
	}
	ours := t.after
	ours.Apply(chess.Move{}) // the king's move, unseen: our turn again
	if lost > 0 {
		v += kpkSoonCost * float64(depth)
		// On the squares that do not draw at once the game goes on, and
		// what the try loses there later counts as well: scored by its
		// first loss alone, a try that gives up one square now and three
		// more a move later would beat one that gives up two later.
		rest := legal &^ rep &^ pl.drawn(&pl.t.them, k, p, legal&^rep)
		if depth > 1 && rest != 0 {
			v += pl.goOn(t, &ours, rest, depth, refusals)
		}
		return v
	}
	if depth <= 1 {
		var next chess.Bitboard
		for _, o := range t.outcomes {
			if o.end == goesOn {
				next |= t.next(o)
			}
		}
		if n := pl.repeats(&ours, next).Count(); n > 0 {
			return v + kpkLostCost*float64(n)
		}
		return v + float64(1-depth) + kpkSpreadCost*float64(next.Count())
	}
	return pl.goOn(t, &ours, legal, depth, refusals)
}

// goOn returns the worth of the game after the made try t with the king
// on any square of set, ours our men after its unseen reply: the worst of
// our best turns, answer by answer, depth-1 of our moves ahead.
func (pl *kpkPlan) goOn(t *trial, ours *chess.Board, set chess.Bitboard, depth, refusals int) float64 {
	worst := math.Inf(-1)
	for _, o := range t.outcomes {
		if o.squares&set == 0 {
			continue
		}
		o.squares &= set
		next := t.next(o)
		rep := pl.repeats(ours, next)
		w := pl.turn(ours, next&^rep, depth-1, refusals) - 1
		if n := rep.Count(); n > 0 {
			w += kpkLostCost*float64(n) + kpkSoonCost*float64(depth-1)
		}
		worst = max(worst, w)
	}
	if math.IsInf(worst, -1) {
		return 0
	}
	return worst
}

// drawn returns the squares of set on which the table, for the side to
// move, draws with our king on k and pawn on p (ours, not yet mirrored).
func (pl *kpkPlan) drawn(table *[64 * 64 * 64]int8, k, p chess.Square, set chess.Bitboard) chess.Bitboard {
	mk, mp := pawnView(pl.us, k), pawnView(pl.us, p)
	var out chess.Bitboard
	for bb := set; bb != 0; {
		s := bb.PopFirst()
		if table[kpkIndex(mk, mp, pawnView(pl.us, s))] == kpkDraw {
			out |= s.Bit()
		}
	}
	return out
}

// repeats returns the squares of set on which the king's step makes the
// position of our men ours, us to move, a third time (none without the
// game's record).
func (pl *kpkPlan) repeats(ours *chess.Board, set chess.Bitboard) chess.Bitboard {
	if pl.mt == nil {
		return 0
	}
	return pl.mt.repeats(ours, set)
}

// choosePawn is Choose for king and pawn: the try whose worth (see
// kpkPlan.try), with what repeating a placement costs, is lowest; among
// equals the one refused on more squares, which tells more. When no try
// keeps every square won and brings the pawn nearer, the king may stand
// anywhere the king's unseen moves spread the belief to; the planner then
// waits, moving its king where the pawn stays won, for kpkPatience moves,
// after which it takes the try that brings the pawn nearest for the least
// risk, the king's likely squares weighed (see weigh). Where every try
// already draws on some square (see safeNow) there is no waiting, and it
// takes the least risk at once: a count of the squares lost would pick by
// distance alone and may give the pawn to the king's likeliest square.
// Where some try is safe until our next turn, it never takes one that
// draws at once on some square, even where the search scores that one
// better for what it fears a move or two later.
func (mt *Mater) choosePawn(mine *chess.Board, us chess.Color, set chess.Bitboard, moves []chess.Move) (chess.Move, bool) {
	pl := kpkPlan{us: us, t: kpk(), mt: mt}
	if mine.FullmoveNumber() != mt.weighedAt {
		// The turn's first choice: the king has stepped, and a position
		// with us to move stands a third time by its step as well as by
		// our move (see kpkPlan.made).
		mt.stand(mine, set)
	}
	if m, ok := pl.run(mine, set, moves); ok {
		mt.weigh(mine, set)
		return m, true
	}
	stuck := mt.weigh(mine, set) - kpkPatience
	safe := pl.safeNow(mine, set, moves)
	if stuck < 0 && !safe {
		stuck = 0 // waiting would give the pawn away too: take the least risk now
	}
	best, ties := -1, 0
	var bestKey [2]float64
	for i, mv := range moves {
		if !pawnCandidate(mine, mv) {
			continue
		}
		v, ok := pl.try(mine, set, mv, kpkDepth, kpkRefusals)
		if !ok {
			continue // refused on every square: it tells nothing
		}
		if stuck < 0 && safe && v >= kpkLostCost/2 {
			// Some try keeps every square won until our next turn: one
			// that draws at once on a square the king may be on now is
			// not taken, however much the search fears for later. Its
			// loss is on the board already; a later one rests on the
			// worst square of a belief the king's steps have spread,
			// which the next turn's tries and answers may still narrow.
			if v1, _ := pl.try(mine, set, mv, 1, kpkRefusals); v1 >= kpkLostCost/2 {
				continue
			}
		}
		t := try(mine, us, set, mv)
		if stuck >= 0 {
			v = mt.risk(&pl, &t, set&^t.illegal, stuck)
		}
		key := [2]float64{v + kpkRepeatCost(mt.seen[t.after.Key()]), -float64(t.illegal.Count())}
		switch c := compareKeys(key, bestKey); {
		case best < 0 || c < 0:
			best, bestKey, ties = i, key, 1
		case c == 0:
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

// safeNow reports whether one of moves keeps the pawn won for every
// square of set until our next turn: made, the table wins on each square
// where the referee allows it, and refused, our turn again has such a try.
// Without one there is nothing to wait with; the next move already draws
// on some square, and the king's likely squares should choose which.
func (pl *kpkPlan) safeNow(mine *chess.Board, set chess.Bitboard, moves []chess.Move) bool {
	for _, mv := range moves {
		if !pawnCandidate(mine, mv) {
			continue
		}
		if v, ok := pl.try(mine, set, mv, 1, kpkRefusals); ok && v < kpkLostCost/2 {
			return true
		}
	}
	return false
}

// run returns the pawn's push when the rule of the square lets it run:
// the king is outside the pawn's square on every square of set, and the
// table agrees (it would not where the queen's promotion stalemates).
func (pl *kpkPlan) run(mine *chess.Board, set chess.Bitboard, moves []chess.Move) (chess.Move, bool) {
	k, p, ok := kpkMen(mine, pl.us)
	if !ok {
		return chess.Move{}, false
	}
	for bb := set; bb != 0; {
		if !outsideSquare(pl.us, k, p, bb.PopFirst()) {
			return chess.Move{}, false
		}
	}
	best, far := chess.Move{}, -1
	for _, mv := range moves {
		if mv.From != p || !pawnCandidate(mine, mv) {
			continue
		}
		t := try(mine, pl.us, set, mv)
		if v, ok := pl.try(mine, set, mv, 1, 0); !ok || t.illegal != 0 || v >= kpkLostCost/2 {
			continue
		}
		if d := abs(mv.To.Rank() - p.Rank()); d > far {
			best, far = mv, d // the double step, where there is one
		}
	}
	return best, far > 0
}

// How long the pawn planner waits for a safe advance (our turns since the
// largest distance to promotion over the belief last fell), and what a draw weighs against a move to promotion
// once it stops waiting: a try that is one move nearer promotion is taken
// when the king is on a square that draws with less than 1/kpkRiskCost of
// the weight, and more readily for each move waited longer.
const (
	kpkPatience = 3
	kpkRiskCost = 200
)

// risk is the worth of the made try t, legal on the squares legal, for a
// planner that stopped waiting stuck moves ago: the weight of the squares
// on which the table then draws, times kpkRiskCost shared over those
// moves, plus the largest distance to promotion of the others.
func (mt *Mater) risk(pl *kpkPlan, t *trial, legal chess.Bitboard, stuck int) float64 {
	k := pawnView(pl.us, t.after.KingSquare(pl.us))
	promoted := t.move.Promotion != chess.NoPieceType
	var p chess.Square
	if !promoted {
		_, p, _ = kpkMen(&t.after, pl.us)
		p = pawnView(pl.us, p)
	}
	rep := mt.repeats(&t.after, legal)
	lost, worst := 0.0, 0
	for bb := legal; bb != 0; {
		s := bb.PopFirst()
		e := pawnView(pl.us, s)
		d := 0
		switch {
		case rep.Has(s):
			d = kpkDraw
		case promoted && !kpkPromotionWins(t.move.Promotion, k, pawnView(pl.us, t.move.To), e):
			d = kpkDraw
		case !promoted:
			d = int(pl.t.them[kpkIndex(k, p, e)])
		}
		if d == kpkDraw {
			lost += mt.weights[s]
			continue
		}
		worst = max(worst, d)
	}
	return lost*kpkRiskCost/float64(stuck+1) + float64(worst)
}

// kpkKnowingPrior is the share of the guess (see weigh) that the king
// knowing the ending has before the referee has said anything: nothing
// tells the planner at the start which of the two kings it faces.
const kpkKnowingPrior = 0.5

// weigh updates the pawn planner's guess of how likely each square of set
// is to hold the king. It is a mixture of two kings, each with its own
// guess: one that knows the ending and steps where the table's distance
// to promotion (us to move) is longest, the ties weighed evenly, and one
// that wanders, blind to our men, stepping evenly to any square next to
// it (the belief then cuts those they guard). On a new turn each
// guess moves one step of its king; then each is cut to set, and each
// king's share of the mixture is multiplied by the weight its guess gave
// the squares the referee's answers left (Bayes' rule), so the answers
// decide how much the king behaves like either. A king whose guess held
// none of set has no share left; where neither held any, both start
// again evenly over set at kpkKnowingPrior. A fixed blend would fail one
// way or the other: the knowing king's guess alone thins out a king that
// stands beside the pawn instead, an even spread thins out the squares in
// front of the pawn where a knowing king waits for the opposition. It
// returns for how many turns the largest of the squares' distances to
// promotion (us to move) has not fallen below its least yet.
func (mt *Mater) weigh(mine *chess.Board, set chess.Bitboard) (stuck int) {
	if turn := mine.FullmoveNumber(); turn != mt.weighedAt {
		mt.knowing, mt.wandering = stepKnowing(mine, &mt.knowing), stepWandering(mine, &mt.wandering)
		mt.weighedAt = turn
		mt.stuck++
	}
	inK, inW := cutGuess(&mt.knowing, set), cutGuess(&mt.wandering, set)
	switch k, w := mt.knowingShare*inK, (1-mt.knowingShare)*inW; {
	case k+w == 0:
		evenGuess(&mt.knowing, set)
		evenGuess(&mt.wandering, set)
		mt.knowingShare = kpkKnowingPrior
	default:
		mt.knowingShare = k / (k + w)
		if inK == 0 {
			evenGuess(&mt.knowing, set) // no share left; keeps the guess defined
		}
		if inW == 0 {
			evenGuess(&mt.wandering, set)
		}
	}
	for s := range mt.weights {
		mt.weights[s] = mt.knowingShare*mt.knowing[s] + (1-mt.knowingShare)*mt.wandering[s]
	}
	k, p, _ := kpkMen(mine, mine.Turn())
	if won, worst := kpkWon(mine.Turn(), k, p, set); won && (mt.nearest == 0 || worst < mt.nearest) {
		mt.nearest, mt.stuck = worst, 0
	}
	return mt.stuck
}

// stepKnowing returns the guess g after one step of the king that knows
// the ending, against our men mine (us to move): each square's weight goes
// evenly to its steps where the table's distance to promotion is longest.
// Without our king and pawn alone on the board it wanders.
func stepKnowing(mine *chess.Board, g *[64]float64) [64]float64 {
	us := mine.Turn()
	k, p, men := kpkMen(mine, us)
	if !men {
		return stepWandering(mine, g)
	}
	// The king steps neither onto our men (the game went on, so the pawn
	// was not taken) nor where they attack.
	barred := attacks(mine, us) | mine.Occupied()
	var next [64]float64
	for s, w := range g {
		if w == 0 {
			continue
		}
		far, best := -1, chess.Bitboard(0)
		for bb := chess.KingAttacks(chess.Square(s)) &^ barred; bb != 0; {
			e := bb.PopFirst()
			switch d := int(kpk().us[kpkIndex(pawnView(us, k), pawnView(us, p), pawnView(us, e))]); {
			case d > far:
				far, best = d, e.Bit()
			case d == far:
				best |= e.Bit()
			}
		}
		share := w / float64(max(best.Count(), 1))
		for best != 0 {
			next[best.PopFirst()] += share
		}
	}
	return next
}

// stepWandering returns the guess g after one step of a king that wanders
// and does not see our men: each square's weight goes evenly to all the
// squares next to it, those our men hold or guard included. The belief
// cuts those, which also lowers this king's share where it stands near
// our men. Spread over the legal steps alone, the guess lost a game of
// TestKPKTraps ("no safe try, a move after the king was seen").
func stepWandering(mine *chess.Board, g *[64]float64) [64]float64 {
	var next [64]float64
	for s, w := range g {
		if w == 0 {
			continue
		}
		steps := chess.KingAttacks(chess.Square(s))
		share := w / float64(max(steps.Count(), 1))
		for steps != 0 {
			next[steps.PopFirst()] += share
		}
	}
	return next
}

// cutGuess cuts the guess g to set, scales it to sum to 1 where it holds
// any of set, and returns the weight it held there.
func cutGuess(g *[64]float64, set chess.Bitboard) float64 {
	total := 0.0
	for s := range g {
		if !set.Has(chess.Square(s)) {
			g[s] = 0
		}
		total += g[s]
	}
	if total > 0 {
		for s := range g {
			g[s] /= total
		}
	}
	return total
}

// evenGuess sets the guess g to weigh every square of set the same.
func evenGuess(g *[64]float64, set chess.Bitboard) {
	*g = [64]float64{}
	n := float64(set.Count())
	for bb := set; bb != 0; {
		g[bb.PopFirst()] = 1 / n
	}
}

// kpkRepeatCost is what a try costs whose placement of our men was made
// seen times before, in moves to promotion: a little for each visit, so
// that a planner that sees no progress tries something new. Where the
// position itself would stand a third time, a draw, the search counts the
// king's squares that repeat it as draws (Mater.repeats).
func kpkRepeatCost(seen int) float64 { return 3 * float64(seen) }

// compareKeys orders two score keys lexicographically.
func compareKeys(a, b [2]float64) int {
	for i := range a {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	return 0
}
