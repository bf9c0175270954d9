package chess

// Move generation. One generator serves two purposes:
//   - the opponent's options for belief expansion: every pseudo-legal move on
//     the true board (check ignored, castling without check rules);
//   - the move actions a player may request: the same generator run with the
//     opponent's pieces removed, plus every pawn diagonal.
// Moves are appended to a caller-provided slice so that nothing allocates.

// castlingPath holds, per right, the squares between king and rook that must be empty.
var castlingPath = [4]Bitboard{
	F1.Bit() | G1.Bit(),
	B1.Bit() | C1.Bit() | D1.Bit(),
	F8.Bit() | G8.Bit(),
	B8.Bit() | C8.Bit() | D8.Bit(),
}

// castlingMove and castlingRook give the king's move and the rook's start per right.
var (
	castlingMove = [4]Move{{From: E1, To: G1}, {From: E1, To: C1}, {From: E8, To: G8}, {From: E8, To: C8}}
	castlingRook = [4]Square{H1, A1, H8, A8}
)

// castlingClears is, per square, the rights lost when a move starts or ends there.
var castlingClears = func() (m [64]Castling) {
	m[E1], m[H1], m[A1] = WhiteKingside|WhiteQueenside, WhiteKingside, WhiteQueenside
	m[E8], m[H8], m[A8] = BlackKingside|BlackQueenside, BlackKingside, BlackQueenside
	return m
}()

// canCastle reports whether right i (0 = white kingside … 3 = black queenside)
// is held and usable: king and rook on their home squares and, for the pieces
// in occ, nothing between them. Check is never considered.
func (b *Board) canCastle(i int, occ Bitboard) bool {
	if b.castling&(1<<i) == 0 {
		return false
	}
	us := Color(i >> 1)
	return b.PiecesOf(us, King).Has(castlingMove[i].From) &&
		b.PiecesOf(us, Rook).Has(castlingRook[i]) &&
		occ&castlingPath[i] == 0
}

// appendMoves appends the pseudo-legal moves of the side to move, treating
// theirs as the opponent's pieces (pass 0 to ignore them).
func (b *Board) appendMoves(dst []Move, theirs Bitboard, withEP bool) []Move {
	us := b.turn
	ours := b.byColor[us]
	occ := ours | theirs
	targets := ^ours

	for bb := b.byType[Knight-1] & ours; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, knightAttacks[from]&targets)
	}
	for bb := (b.byType[Bishop-1] | b.byType[Queen-1]) & ours; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, BishopAttacks(from, occ)&targets)
	}
	for bb := (b.byType[Rook-1] | b.byType[Queen-1]) & ours; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, RookAttacks(from, occ)&targets)
	}
	for bb := b.byType[King-1] & ours; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, kingAttacks[from]&targets)
	}
	for i := 2 * int(us); i < 2*int(us)+2; i++ {
		if b.canCastle(i, occ) {
			dst = append(dst, castlingMove[i])
		}
	}

	pawns := b.byType[Pawn-1] & ours
	single, double, forward := pawnPushes(us, pawns, ^occ)
	for bb := single; bb != 0; {
		to := bb.PopFirst()
		dst = AppendPawnMove(dst, to-forward, to)
	}
	for bb := double; bb != 0; {
		to := bb.PopFirst()
		dst = append(dst, Move{From: to - 2*forward, To: to})
	}
	epTarget := Bitboard(0)
	if withEP && b.ep != NoSquare && !occ.Has(b.ep) &&
		theirs&b.byType[Pawn-1]&(b.ep-forward).Bit() != 0 {
		epTarget = b.ep.Bit()
	}
	for bb := pawns; bb != 0; {
		from := bb.PopFirst()
		for t := pawnAttacks[us][from] & (theirs | epTarget); t != 0; {
			dst = AppendPawnMove(dst, from, t.PopFirst())
		}
	}
	return dst
}

func appendTargets(dst []Move, from Square, targets Bitboard) []Move {
	for targets != 0 {
		dst = append(dst, Move{From: from, To: targets.PopFirst()})
	}
	return dst
}

// AppendPawnMove appends a pawn move, as the four promotions when it reaches the back rank.
func AppendPawnMove(dst []Move, from, to Square) []Move {
	if BackRanks.Has(to) {
		return append(dst,
			Move{From: from, To: to, Promotion: Queen},
			Move{From: from, To: to, Promotion: Rook},
			Move{From: from, To: to, Promotion: Bishop},
			Move{From: from, To: to, Promotion: Knight})
	}
	return append(dst, Move{From: from, To: to})
}

// AppendOptions appends every move the side to move can actually make on this
// board: each pseudo-legal move (check ignored, castling without check rules)
// and, last, the null move, which stands for a pass or a request that resolved
// to no move. These are exactly the taken moves the harness can produce, so
// they are the children of a board in belief expansion.
func (b *Board) AppendOptions(dst []Move) []Move {
	return append(b.appendMoves(dst, b.byColor[b.turn.Other()], true), Move{})
}

// AppendMoveActions appends the moves the side to move may request, exactly as
// the harness lists them: the pseudo-legal moves with the opponent's pieces
// removed, plus every pawn diagonal onto a square without one of our pieces
// (even an empty one; onto the back rank both bare and with each promotion).
// The list depends on our own pieces only.
func (b *Board) AppendMoveActions(dst []Move) []Move {
	dst = b.appendMoves(dst, 0, false)
	us := b.turn
	ours := b.byColor[us]
	for bb := b.byType[Pawn-1] & ours; bb != 0; {
		from := bb.PopFirst()
		for t := pawnAttacks[us][from] &^ ours; t != 0; {
			to := t.PopFirst()
			dst = append(dst, Move{From: from, To: to})
			if BackRanks.Has(to) {
				dst = AppendPawnMove(dst, from, to)
			}
		}
	}
	return dst
}

// MoveActions returns the move actions of the side to move (see AppendMoveActions).
func (b *Board) MoveActions() []Move { return b.AppendMoveActions(make([]Move, 0, 64)) }

// IsMoveAction reports whether m is one of the side to move's move actions.
func (b *Board) IsMoveAction(m Move) bool {
	if m.IsNull() || !m.From.Valid() || !m.To.Valid() {
		return false
	}
	var buf [256]Move
	for _, a := range b.AppendMoveActions(buf[:0]) {
		if a == m {
			return true
		}
	}
	return false
}

// pawnPushes returns the squares us's pawns can push to on the empty
// squares: one step (single) and two from their starting rank (double), and
// the step, +8 for White and -8 for Black, so that a push to `to` comes from
// to-forward (to-2*forward for a double one). Move generation and
// AppendChildren share it so that their pawn moves cannot drift apart.
func pawnPushes(us Color, pawns, empty Bitboard) (single, double Bitboard, forward Square) {
	if us == White {
		single = (pawns << 8) & empty
		return single, ((single & (rank1 << 16)) << 8) & empty, 8
	}
	single = (pawns >> 8) & empty
	return single, ((single & (rank1 << 40)) >> 8) & empty, -8
}
