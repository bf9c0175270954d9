package chess

// Legal-move generation for ordinary chess. RBC has no check rules (a king
// may be left en prise and is captured) and plays the pseudo-legal moves of
// movegen.go; Kriegspiel's and invisible chess's referees need the legal
// ones, and check, mate and stalemate. The generator is a pin-and-check-mask one:
// nothing is played on a copy except the rare en-passant capture, and nothing
// allocates beyond the caller's slice.

// Attackers returns the pieces of colour by that attack square s on b.
func Attackers(b *Board, s Square, by Color) Bitboard {
	return AttackersWith(b, s, by, b.Occupied())
}

// AttackersWith is Attackers with the occupied squares given, so that a
// king's escape can be tested with the king lifted off the board (a slider's
// ray then runs through the square it leaves).
func AttackersWith(b *Board, s Square, by Color, occ Bitboard) Bitboard {
	queens := b.PiecesOf(by, Queen)
	return PawnAttacks(by.Other(), s)&b.PiecesOf(by, Pawn) |
		KnightAttacks(s)&b.PiecesOf(by, Knight) |
		KingAttacks(s)&b.PiecesOf(by, King) |
		RookAttacks(s, occ)&(b.PiecesOf(by, Rook)|queens) |
		BishopAttacks(s, occ)&(b.PiecesOf(by, Bishop)|queens)
}

// Checkers returns the enemy pieces that give check to the side to move (the
// empty set when it has no king).
func Checkers(b *Board) Bitboard {
	us := b.Turn()
	k := b.KingSquare(us)
	if k == NoSquare {
		return 0
	}
	return Attackers(b, k, us.Other())
}

// InCheck reports whether the side to move is in check.
func InCheck(b *Board) bool { return Checkers(b) != 0 }

// castle describes one castling: the king's move, the rook's square, the
// squares that must be empty and the squares the king crosses or lands on,
// which must not be attacked.
type castle struct {
	right Castling
	king  Move
	rook  Square
	empty Bitboard
	safe  Bitboard
}

// castles lists the four castlings, White's first.
var castles = [4]castle{
	{WhiteKingside, Move{From: E1, To: G1}, H1, F1.Bit() | G1.Bit(), F1.Bit() | G1.Bit()},
	{WhiteQueenside, Move{From: E1, To: C1}, A1, B1.Bit() | C1.Bit() | D1.Bit(), C1.Bit() | D1.Bit()},
	{BlackKingside, Move{From: E8, To: G8}, H8, F8.Bit() | G8.Bit(), F8.Bit() | G8.Bit()},
	{BlackQueenside, Move{From: E8, To: C8}, A8, B8.Bit() | C8.Bit() | D8.Bit(), C8.Bit() | D8.Bit()},
}

// pin is a pinned piece and the squares it may still move to: the line
// from its king to the pinner, the pinner included.
type pin struct {
	sq  Square
	ray Bitboard
}

// AppendLegalMoves appends the legal moves of the side to move in the order
// knights, bishops, rooks, queens, king, castling, pawns (promotions as queen,
// rook, bishop, knight), en-passant captures. A side without a king has no check rules: each of
// its pseudo-legal moves is legal.
func AppendLegalMoves(b *Board, dst []Move) []Move {
	us := b.Turn()
	them := us.Other()
	ours, theirs := b.Pieces(us), b.Pieces(them)
	occ := ours | theirs
	k := b.KingSquare(us)
	if k == NoSquare {
		return appendWithoutKing(b, dst)
	}

	checkers := AttackersWith(b, k, them, occ)
	// target holds the squares a piece other than the king may move to: all
	// of them, or in single check the checker and the squares between it and
	// the king; in double check only the king may move.
	target := ^ours
	if checkers != 0 {
		if checkers.Count() > 1 {
			return AppendEnPassant(b, appendKingMoves(b, dst, k, us, ours, occ), k)
		}
		c := checkers.First()
		target = Between(k, c) | c.Bit()
	}

	// Pins: an enemy slider that would attack the king through exactly one
	// of our pieces pins it to the line between them.
	var pins [8]pin
	npins := 0
	var pinned Bitboard
	queens := b.PiecesOf(them, Queen)
	snipers := RookAttacks(k, theirs)&(b.PiecesOf(them, Rook)|queens) |
		BishopAttacks(k, theirs)&(b.PiecesOf(them, Bishop)|queens)
	for snipers != 0 {
		s := snipers.PopFirst()
		line := Between(k, s)
		if blockers := line & occ; blockers.Count() == 1 && blockers&ours != 0 {
			pinned |= blockers
			pins[npins] = pin{blockers.First(), line | s.Bit()}
			npins++
		}
	}
	allowed := func(from Square) Bitboard {
		if !pinned.Has(from) {
			return target
		}
		for _, p := range pins[:npins] {
			if p.sq == from {
				return target & p.ray
			}
		}
		return 0
	}

	for bb := b.PiecesOf(us, Knight) &^ pinned; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, KnightAttacks(from)&target)
	}
	for bb := b.PiecesOf(us, Bishop); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, BishopAttacks(from, occ)&allowed(from))
	}
	for bb := b.PiecesOf(us, Rook); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, RookAttacks(from, occ)&allowed(from))
	}
	for bb := b.PiecesOf(us, Queen); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, QueenAttacks(from, occ)&allowed(from))
	}
	dst = appendKingMoves(b, dst, k, us, ours, occ)
	if checkers == 0 {
		for _, c := range castles[2*us : 2*us+2] {
			if b.Castling()&c.right != 0 && k == c.king.From &&
				b.PiecesOf(us, Rook).Has(c.rook) && occ&c.empty == 0 &&
				!anyAttacked(b, c.safe, them, occ) {
				dst = append(dst, c.king)
			}
		}
	}

	forward := Square(8)
	startRank := 1
	if us == Black {
		forward, startRank = -8, 6
	}
	for bb := b.PiecesOf(us, Pawn); bb != 0; {
		from := bb.PopFirst()
		mask := allowed(from)
		if one := from + forward; !occ.Has(one) {
			if mask.Has(one) {
				dst = AppendPawnMove(dst, from, one)
			}
			if two := one + forward; from.Rank() == startRank && !occ.Has(two) && mask.Has(two) {
				dst = append(dst, Move{From: from, To: two})
			}
		}
		for t := PawnAttacks(us, from) & theirs & mask; t != 0; {
			dst = AppendPawnMove(dst, from, t.PopFirst())
		}
	}
	return AppendEnPassant(b, dst, k)
}

// AppendEnPassant appends the legal en-passant captures. They are rare enough
// to test by playing them, which covers every way they can go wrong: the
// capture removes two men from one rank (and can uncover the king sideways),
// and it can take a checking pawn.
func AppendEnPassant(b *Board, dst []Move, k Square) []Move {
	us := b.Turn()
	them := us.Other()
	ep, behind := b.EnPassant(), b.EnPassantTaken()
	if ep == NoSquare || b.Occupied().Has(ep) || !b.PiecesOf(them, Pawn).Has(behind) {
		return dst
	}
	for bb := PawnAttacks(them, ep) & b.PiecesOf(us, Pawn); bb != 0; {
		m := Move{From: bb.PopFirst(), To: ep}
		c := *b
		c.Apply(m)
		if AttackersWith(&c, k, them, c.Occupied()) == 0 {
			dst = append(dst, m)
		}
	}
	return dst
}

// appendKingMoves appends the king's steps onto squares no enemy piece would
// attack with the king gone from k.
func appendKingMoves(b *Board, dst []Move, k Square, us Color, ours, occ Bitboard) []Move {
	lifted := occ &^ k.Bit()
	for t := KingAttacks(k) &^ ours; t != 0; {
		to := t.PopFirst()
		if AttackersWith(b, to, us.Other(), lifted) == 0 {
			dst = append(dst, Move{From: k, To: to})
		}
	}
	return dst
}

// anyAttacked reports whether any square of set is attacked by colour by.
func anyAttacked(b *Board, set Bitboard, by Color, occ Bitboard) bool {
	for set != 0 {
		if AttackersWith(b, set.PopFirst(), by, occ) != 0 {
			return true
		}
	}
	return false
}

// appendWithoutKing appends the pseudo-legal moves of a side that has no king
// (only hand-made boards have one): the options without the null move.
func appendWithoutKing(b *Board, dst []Move) []Move {
	n := len(dst)
	dst = b.AppendOptions(dst)
	out := dst[:n]
	for _, m := range dst[n:] {
		if !m.IsNull() {
			out = append(out, m)
		}
	}
	return out
}

// LegalMoves returns the legal moves of the side to move (see AppendLegalMoves).
func LegalMoves(b *Board) []Move { return AppendLegalMoves(b, make([]Move, 0, 64)) }

// IsLegal reports whether m is a legal move of the side to move.
func IsLegal(b *Board, m Move) bool {
	if m.IsNull() || !m.From.Valid() || !m.To.Valid() || !b.Pieces(b.Turn()).Has(m.From) {
		return false
	}
	var buf [256]Move
	for _, l := range AppendLegalMoves(b, buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// HasLegalMove reports whether the side to move has any legal move.
func HasLegalMove(b *Board) bool {
	var buf [256]Move
	return len(AppendLegalMoves(b, buf[:0])) > 0
}

// IsCheckmate reports whether the side to move is in check and has no legal move.
func IsCheckmate(b *Board) bool { return InCheck(b) && !HasLegalMove(b) }

// IsStalemate reports whether the side to move is not in check and has no legal move.
func IsStalemate(b *Board) bool { return !InCheck(b) && !HasLegalMove(b) }
