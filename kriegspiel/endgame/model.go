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
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// attacks returns the squares our men attack on b, with only our men in the way.
func attacks(b *chess.Board, us chess.Color) chess.Bitboard {
	occ := b.Pieces(us)
	var a chess.Bitboard
	for bb := b.PiecesOf(us, chess.Pawn); bb != 0; {
		a |= chess.PawnAttacks(us, bb.PopFirst())
	}
	for bb := b.PiecesOf(us, chess.Knight); bb != 0; {
		a |= chess.KnightAttacks(bb.PopFirst())
	}
	queens := b.PiecesOf(us, chess.Queen)
	for bb := b.PiecesOf(us, chess.Bishop) | queens; bb != 0; {
		a |= chess.BishopAttacks(bb.PopFirst(), occ)
	}
	for bb := b.PiecesOf(us, chess.Rook) | queens; bb != 0; {
		a |= chess.RookAttacks(bb.PopFirst(), occ)
	}
	if k := b.KingSquare(us); k != chess.NoSquare {
		a |= chess.KingAttacks(k)
	}
	return a
}

// spread returns the squares one king step from some square of set reaches.
func spread(set chess.Bitboard) chess.Bitboard {
	var out chess.Bitboard
	for set != 0 {
		out |= chess.KingAttacks(set.PopFirst())
	}
	return out
}

// heavy returns our queens and rooks: the men that mate, which the king must
// never be able to take.
func heavy(b *chess.Board, us chess.Color) chess.Bitboard {
	return b.PiecesOf(us, chess.Queen) | b.PiecesOf(us, chess.Rook)
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
	squares chess.Bitboard
}

// trial is what a try would do against every square of the king at once.
type trial struct {
	move chess.Move
	// illegal holds the squares on which the try is refused.
	illegal chess.Bitboard
	// after is our men once the move is made, attacked what they attack.
	after    chess.Board
	attacked chess.Bitboard
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
func candidate(b *chess.Board, m chess.Move) bool {
	p := b.PieceAt(m.From)
	switch p.Type() {
	case chess.Pawn:
		return m.From.File() == m.To.File() && (m.Promotion == chess.NoPieceType || m.Promotion == chess.Queen)
	case chess.King:
		d := m.To.File() - m.From.File()
		return d < 2 && d > -2
	}
	return p != chess.NoPiece
}

// try judges the candidate move m of our men (mine, us to move) against the
// king on any square of set.
func try(mine *chess.Board, us chess.Color, set chess.Bitboard, m chess.Move) trial {
	t := trial{move: m}
	switch mine.PieceAt(m.From).Type() {
	case chess.King:
		t.illegal = chess.KingAttacks(m.To) & set
	case chess.Knight:
	case chess.Pawn:
		t.illegal = (chess.Between(m.From, m.To) | m.To.Bit()) & set
	default:
		t.illegal = chess.Between(m.From, m.To) & set
	}
	t.after = *mine
	t.after.Apply(m)
	t.attacked = attacks(&t.after, us)
	for legal := set &^ t.illegal; legal != 0; {
		s := legal.PopFirst()
		var o outcome
		checkers := chess.Attackers(&t.after, s, us)
		for i := 0; checkers != 0 && i < 2; i++ {
			o.checks[i] = kriegspiel.CheckDirection(checkers.PopFirst(), s)
		}
		if chess.KingAttacks(s)&^t.attacked == 0 {
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
func (t *trial) add(o outcome, s chess.Square) {
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
func (t *trial) next(o outcome) chess.Bitboard { return spread(o.squares) &^ t.attacked }
