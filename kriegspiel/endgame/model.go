package endgame

// The planner's model of the referee against a lone king, on bitboards.
// With nothing but a king on the other side the rules come down to a few
// set operations, the same for every square the king may stand on: a try
// is illegal only where the king stands in its path (or next to our king's
// target); the squares our men attack after it do not depend on where the
// king is (it never blocks a ray to itself, and a king that steps away
// from a check cannot hide behind the square it left); and the king's
// escapes from any square are its steps minus those squares. So one try is
// judged for the whole set at once. The Belief does not use this model
// (it asks the referee's own rules); the tests check that the two agree.

import (
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// attacks returns the squares our men attack on b, with only our men in the way.
func attacks(b *rbc.Board, us rbc.Color) rbc.Bitboard {
	occ := b.Pieces(us)
	var a rbc.Bitboard
	for bb := b.PiecesOf(us, rbc.Pawn); bb != 0; {
		a |= rbc.PawnAttacks(us, bb.PopFirst())
	}
	for bb := b.PiecesOf(us, rbc.Knight); bb != 0; {
		a |= rbc.KnightAttacks(bb.PopFirst())
	}
	queens := b.PiecesOf(us, rbc.Queen)
	for bb := b.PiecesOf(us, rbc.Bishop) | queens; bb != 0; {
		a |= rbc.BishopAttacks(bb.PopFirst(), occ)
	}
	for bb := b.PiecesOf(us, rbc.Rook) | queens; bb != 0; {
		a |= rbc.RookAttacks(bb.PopFirst(), occ)
	}
	if k := b.KingSquare(us); k != rbc.NoSquare {
		a |= rbc.KingAttacks(k)
	}
	return a
}

// spread returns the squares one king step from some square of set reaches.
func spread(set rbc.Bitboard) rbc.Bitboard {
	var out rbc.Bitboard
	for set != 0 {
		out |= rbc.KingAttacks(set.PopFirst())
	}
	return out
}

// heavy returns our queens and rooks: the men that mate, which the king must
// never be able to take.
func heavy(b *rbc.Board, us rbc.Color) rbc.Bitboard {
	return b.PiecesOf(us, rbc.Queen) | b.PiecesOf(us, rbc.Rook)
}

// The endings a try can announce that the planner tells apart.
const (
	goesOn = iota
	mates
	stalemates
)

// outcome is one answer a made try can get: the squares of the king on
// which the referee gives it.
type outcome struct {
	checks  [2]kriegspiel.Check
	end     int
	squares rbc.Bitboard
}

// trial is what a try would do against every square of the king at once.
type trial struct {
	move rbc.Move
	// illegal holds the squares on which the try is refused.
	illegal rbc.Bitboard
	// after is our men once the move is made, attacked what they attack.
	after    rbc.Board
	attacked rbc.Bitboard
	// outcomes are the answers the made move can get, by square.
	outcomes []outcome
	// stalemate counts the squares on which the move stalemates the king,
	// hangs those from which the king may then take a queen or rook that
	// nothing guards.
	stalemate, hangs int
}

// candidate reports whether the planner considers m: a move of a piece or
// the king (not castling), or a pawn push to the queen or no promotion. A
// pawn capture is always refused against a lone king.
func candidate(b *rbc.Board, m rbc.Move) bool {
	p := b.PieceAt(m.From)
	switch p.Type() {
	case rbc.Pawn:
		return m.From.File() == m.To.File() && (m.Promotion == rbc.NoPieceType || m.Promotion == rbc.Queen)
	case rbc.King:
		d := m.To.File() - m.From.File()
		return d < 2 && d > -2
	}
	return p != rbc.NoPiece
}

// try judges the candidate move m of our men (mine, us to move) against the
// king on any square of set.
func try(mine *rbc.Board, us rbc.Color, set rbc.Bitboard, m rbc.Move) trial {
	t := trial{move: m}
	switch mine.PieceAt(m.From).Type() {
	case rbc.King:
		t.illegal = rbc.KingAttacks(m.To) & set
	case rbc.Knight:
	case rbc.Pawn:
		t.illegal = (rbc.Between(m.From, m.To) | m.To.Bit()) & set
	default:
		t.illegal = rbc.Between(m.From, m.To) & set
	}
	t.after = *mine
	t.after.Apply(m)
	t.attacked = attacks(&t.after, us)
	for legal := set &^ t.illegal; legal != 0; {
		s := legal.PopFirst()
		var o outcome
		checkers := kriegspiel.Attackers(&t.after, s, us)
		for i := 0; checkers != 0 && i < 2; i++ {
			o.checks[i] = kriegspiel.CheckDirection(checkers.PopFirst(), s)
		}
		if rbc.KingAttacks(s)&^t.attacked == 0 {
			o.end = stalemates
			if o.checks[0] != kriegspiel.NoCheck {
				o.end = mates
			}
		}
		t.add(o, s)
	}
	for _, o := range t.outcomes {
		switch {
		case o.end == stalemates:
			t.stalemate += o.squares.Count()
		case o.end == goesOn:
			t.hangs += (o.squares & spread(heavy(&t.after, us)&^t.attacked)).Count()
		}
	}
	return t
}

// add puts square s into the outcome with o's answer.
func (t *trial) add(o outcome, s rbc.Square) {
	for i := range t.outcomes {
		if t.outcomes[i].checks == o.checks && t.outcomes[i].end == o.end {
			t.outcomes[i].squares |= s.Bit()
			return
		}
	}
	o.squares = s.Bit()
	t.outcomes = append(t.outcomes, o)
}

// next returns the squares the king may stand on at our next turn after an
// outcome that goes on: its steps onto squares our men do not attack.
func (t *trial) next(o outcome) rbc.Bitboard { return spread(o.squares) &^ t.attacked }
