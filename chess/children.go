package chess

// Child is one option of the side to move with what belief expansion needs of
// the board it leads to: that board's key and the square of the piece it
// captures (NoSquare for none).
type Child struct {
	Key     uint64
	Move    Move
	Capture Square
}

// AppendChildren appends every option of the side to move, exactly as
// AppendOptions lists them and in the same order, each with the key and the
// capture square that copying the board and applying the option would give.
// The keys are derived from this board's key without building the children:
// expansion deduplicates millions of children of which most are duplicates,
// and building a board only to read its key was most of the cost of making a
// child.
func (b *Board) AppendChildren(dst []Child) []Child {
	us := b.turn
	them := us.Other()
	ours, theirs := b.byColor[us], b.byColor[them]
	occ := ours | theirs
	targets := ^ours

	// Every child flips the side to move and loses a usable en-passant
	// square of this board.
	g := childGen{b: b, theirs: theirs, us: us}
	g.base = b.key ^ zobristBlack
	if b.epUsable() {
		g.base ^= zobristEP[b.ep.File()]
	}

	for bb := b.byType[Knight-1] & ours; bb != 0; {
		from := bb.PopFirst()
		dst = g.appendPiece(dst, Knight, from, knightAttacks[from]&targets)
	}
	for bb := (b.byType[Bishop-1] | b.byType[Queen-1]) & ours; bb != 0; {
		from := bb.PopFirst()
		t := Queen
		if b.byType[Bishop-1].Has(from) {
			t = Bishop
		}
		dst = g.appendPiece(dst, t, from, BishopAttacks(from, occ)&targets)
	}
	for bb := (b.byType[Rook-1] | b.byType[Queen-1]) & ours; bb != 0; {
		from := bb.PopFirst()
		t := Queen
		if b.byType[Rook-1].Has(from) {
			t = Rook
		}
		dst = g.appendPiece(dst, t, from, RookAttacks(from, occ)&targets)
	}
	for bb := b.byType[King-1] & ours; bb != 0; {
		from := bb.PopFirst()
		dst = g.appendPiece(dst, King, from, kingAttacks[from]&targets)
	}
	for i := 2 * int(us); i < 2*int(us)+2; i++ {
		if b.canCastle(i, occ) {
			m := castlingMove[i]
			rookFrom, rookTo := m.To+1, m.To-1
			if m.To < m.From {
				rookFrom, rookTo = m.To-2, m.To+1
			}
			king, rook := &zobristPiece[MakePiece(us, King)], &zobristPiece[MakePiece(us, Rook)]
			k := g.base ^ king[m.From] ^ king[m.To] ^ rook[rookFrom] ^ rook[rookTo] ^ g.castlingDelta(m.From, m.To)
			dst = append(dst, Child{Key: k, Move: m, Capture: NoSquare})
		}
	}

	pawns := b.byType[Pawn-1] & ours
	pawn := &zobristPiece[MakePiece(us, Pawn)]
	single, double, forward := pawnPushes(us, pawns, ^occ)
	for bb := single; bb != 0; {
		to := bb.PopFirst()
		dst = g.appendPawn(dst, to-forward, to, NoPiece, NoSquare)
	}
	theirPawns := theirs & b.byType[Pawn-1]
	for bb := double; bb != 0; {
		to := bb.PopFirst()
		from := to - 2*forward
		k := g.base ^ pawn[from] ^ pawn[to]
		// The child's en-passant square counts in its key only when one of
		// their pawns can take on it.
		if ep := from + forward; pawnAttacks[us][ep]&theirPawns != 0 {
			k ^= zobristEP[ep.File()]
		}
		dst = append(dst, Child{Key: k, Move: Move{From: from, To: to}, Capture: NoSquare})
	}
	epTarget := Bitboard(0)
	if b.ep != NoSquare && !occ.Has(b.ep) && theirPawns&(b.ep-forward).Bit() != 0 {
		epTarget = b.ep.Bit()
	}
	for bb := pawns; bb != 0; {
		from := bb.PopFirst()
		for t := pawnAttacks[us][from] & (theirs | epTarget); t != 0; {
			to := t.PopFirst()
			if theirs.Has(to) {
				dst = g.appendPawn(dst, from, to, b.theirPiece(to, them), to)
			} else { // en passant: their pawn behind the target goes
				dst = g.appendPawn(dst, from, to, MakePiece(them, Pawn), to-forward)
			}
		}
	}
	return append(dst, Child{Key: g.base, Capture: NoSquare})
}

// childGen holds what every child of one board shares.
type childGen struct {
	b      *Board
	theirs Bitboard
	us     Color
	// base is the board's key with the side to move flipped and its usable
	// en-passant square removed: the key of the null move's child.
	base uint64
}

// castlingDelta returns the key change of the castling rights a move from
// from to to clears.
func (g *childGen) castlingDelta(from, to Square) uint64 {
	c := g.b.castling
	return zobristCastling[c] ^ zobristCastling[c&^(castlingClears[from]|castlingClears[to])]
}

// appendPiece appends the moves of our piece of type t from from to each of
// targets (none of them ours).
func (g *childGen) appendPiece(dst []Child, t PieceType, from Square, targets Bitboard) []Child {
	z := &zobristPiece[MakePiece(g.us, t)]
	fromKey := g.base ^ z[from]
	for targets != 0 {
		to := targets.PopFirst()
		k := fromKey ^ z[to]
		capture := NoSquare
		if g.theirs.Has(to) {
			k ^= zobristPiece[g.b.theirPiece(to, g.us.Other())][to]
			capture = to
		}
		if g.b.castling != 0 {
			k ^= g.castlingDelta(from, to)
		}
		dst = append(dst, Child{Key: k, Move: Move{From: from, To: to}, Capture: capture})
	}
	return dst
}

// appendPawn appends a pawn move from from to to, as the four promotions on
// the back rank, taking victim (NoPiece for none) on capture.
func (g *childGen) appendPawn(dst []Child, from, to Square, victim Piece, capture Square) []Child {
	k := g.base ^ zobristPiece[MakePiece(g.us, Pawn)][from] ^ g.castlingDelta(from, to)
	if victim != NoPiece {
		k ^= zobristPiece[victim][capture]
	}
	if !BackRanks.Has(to) {
		k ^= zobristPiece[MakePiece(g.us, Pawn)][to]
		return append(dst, Child{Key: k, Move: Move{From: from, To: to}, Capture: capture})
	}
	for _, t := range [4]PieceType{Queen, Rook, Bishop, Knight} {
		dst = append(dst, Child{Key: k ^ zobristPiece[MakePiece(g.us, t)][to], Move: Move{From: from, To: to, Promotion: t}, Capture: capture})
	}
	return dst
}

// theirPiece returns the piece of colour c on s, which must hold one.
func (b *Board) theirPiece(s Square, c Color) Piece {
	bit := s.Bit()
	t := Pawn
	for t < King && b.byType[t-1]&bit == 0 {
		t++
	}
	return MakePiece(c, t)
}

// KeyAfter returns the key that copying the board and applying m (a
// pseudo-legal move or the null move, as Apply takes) would give, without
// building that board: a belief update that drops most children as
// duplicates of earlier ones reads their keys first.
func (b *Board) KeyAfter(m Move) uint64 {
	base := b.childBase()
	if m.IsNull() {
		return base
	}
	return b.keyAfter(base, m, b.PieceAt(m.From))
}

// AppendKeysAfter appends KeyAfter(m) for each of moves, in order. What
// every child of the board shares (the side to move's flip, a usable
// en-passant square) is worked out once, and the man that moves once a run
// of moves from one square, as a move generator lists them: Kriegspiel's
// expansion reads the key of every legal move of every board.
func (b *Board) AppendKeysAfter(dst []uint64, moves []Move) []uint64 {
	base := b.childBase()
	them := b.turn.Other()
	theirs := b.byColor[them]
	homes := Bitboard(0) // the squares whose moves may clear a right
	if b.castling != 0 {
		homes = castlingHomes
	}
	from, p := NoSquare, NoPiece
	var z *[64]uint64 // the moving man's keys
	var fromKey uint64
	plain := false // the man is no pawn and no king
	for _, m := range moves {
		if m.IsNull() {
			dst = append(dst, base)
			continue
		}
		if m.From != from {
			from, p = m.From, b.PieceAt(m.From)
			z = &zobristPiece[p]
			fromKey = base ^ z[from]
			plain = p.Type() != Pawn && p.Type() != King
		}
		if !plain {
			dst = append(dst, b.keyAfter(base, m, p))
			continue
		}
		to := m.To
		k := fromKey ^ z[to]
		if theirs.Has(to) {
			k ^= zobristPiece[b.theirPiece(to, them)][to]
		}
		if (from.Bit()|to.Bit())&homes != 0 {
			c := b.castling
			k ^= zobristCastling[c] ^ zobristCastling[c&^(castlingClears[from]|castlingClears[to])]
		}
		dst = append(dst, k)
	}
	return dst
}

// childBase returns the key of the board with the side to move flipped and
// its usable en-passant square gone: the key of the null move's child, and
// what every child's key starts from.
func (b *Board) childBase() uint64 {
	k := b.key ^ zobristBlack
	if b.epUsable() {
		k ^= zobristEP[b.ep.File()]
	}
	return k
}

// keyAfter is KeyAfter of the move m (not the null move) of the man p,
// from base, the board's childBase.
func (b *Board) keyAfter(base uint64, m Move, p Piece) uint64 {
	us := b.turn
	them := us.Other()
	from, to := m.From, m.To
	k := base ^ zobristPiece[p][from]
	theirs := b.byColor[them]
	if theirs.Has(to) {
		k ^= zobristPiece[b.theirPiece(to, them)][to]
	}
	switch p.Type() {
	case Pawn:
		switch {
		case to == b.ep && from.File() != to.File() && !b.Occupied().Has(to):
			capture := to - 8
			if us == Black {
				capture = to + 8
			}
			k ^= zobristPiece[MakePiece(them, Pawn)][capture]
		case to-from == 16 || from-to == 16:
			if ep := (from + to) / 2; pawnAttacks[us][ep]&theirs&b.byType[Pawn-1] != 0 {
				k ^= zobristEP[ep.File()]
			}
		}
	case King:
		if to-from == 2 || from-to == 2 {
			rookFrom, rookTo := to+1, to-1
			if to < from {
				rookFrom, rookTo = to-2, to+1
			}
			rook := &zobristPiece[MakePiece(us, Rook)]
			k ^= rook[rookFrom] ^ rook[rookTo]
		}
	}
	if m.Promotion != NoPieceType {
		p = MakePiece(us, m.Promotion)
	}
	k ^= zobristPiece[p][to]
	// Most moves touch no king's or rook's home square and clear no right.
	if b.castling != 0 && (from.Bit()|to.Bit())&castlingHomes != 0 {
		c := b.castling
		k ^= zobristCastling[c] ^ zobristCastling[c&^(castlingClears[from]|castlingClears[to])]
	}
	return k
}

// castlingHomes are the squares a move from or to clears castling rights
// (those castlingClears names).
const castlingHomes = 1<<E1 | 1<<A1 | 1<<H1 | 1<<E8 | 1<<A8 | 1<<H8
