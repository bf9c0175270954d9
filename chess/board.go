package chess

// Castling is a set of castling rights.
type Castling uint8

// The four castling rights.
const (
	WhiteKingside Castling = 1 << iota
	WhiteQueenside
	BlackKingside
	BlackQueenside
	AllCastling = WhiteKingside | WhiteQueenside | BlackKingside | BlackQueenside
)

// String returns the FEN castling field ("KQkq", "-").
func (c Castling) String() string {
	s := ""
	for i, ch := range "KQkq" {
		if c&(1<<i) != 0 {
			s += string(ch)
		}
	}
	if s == "" {
		return "-"
	}
	return s
}

// Board is a complete position: placement, side to move, castling rights,
// en-passant square and move counters. It is a value type of 80 bytes: copy it
// freely, and copy before changing a board that is shared (a board stored in a
// belief set must never be changed in place).
type Board struct {
	byType   [6]Bitboard // indexed by PieceType-1
	byColor  [2]Bitboard
	key      uint64
	turn     Color
	castling Castling
	ep       Square // set after every double push, as the harness's FENs show it
	_        uint8
	halfmove uint16
	fullmove uint16
}

// StartBoard returns the standard starting position.
func StartBoard() Board {
	b, err := ParseFEN(StartFEN)
	if err != nil {
		panic("chess: start FEN does not parse: " + err.Error())
	}
	return b
}

// StartFEN is the FEN of the standard starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Turn returns the side to move.
func (b *Board) Turn() Color { return b.turn }

// Castling returns the castling rights as recorded.
func (b *Board) Castling() Castling { return b.castling }

// EnPassant returns the square behind a pawn that just made a double push, or NoSquare.
func (b *Board) EnPassant() Square { return b.ep }

// EnPassantTaken returns the square of the pawn an en-passant capture would
// take, the one behind the en-passant square that has just made its double
// step, or NoSquare when there is no en-passant square.
func (b *Board) EnPassantTaken() Square {
	switch {
	case b.ep == NoSquare:
		return NoSquare
	case b.turn == White:
		return b.ep - 8
	}
	return b.ep + 8
}

// HalfmoveClock returns the number of half-moves since the last capture or pawn move.
func (b *Board) HalfmoveClock() int { return int(b.halfmove) }

// FullmoveNumber returns the move number, starting at 1 and counting up after Black's turn.
func (b *Board) FullmoveNumber() int { return int(b.fullmove) }

// Key returns the board's Zobrist key over placement, side to move, castling
// rights and a usable en-passant square. Move counters are left out, so boards
// that differ only in them share a key.
func (b *Board) Key() uint64 { return b.key }

// Occupied returns the squares holding any piece.
func (b *Board) Occupied() Bitboard { return b.byColor[White] | b.byColor[Black] }

// Pieces returns the squares holding pieces of colour c.
func (b *Board) Pieces(c Color) Bitboard { return b.byColor[c] }

// PiecesOf returns the squares holding pieces of colour c and type t.
func (b *Board) PiecesOf(c Color, t PieceType) Bitboard { return b.byType[t-1] & b.byColor[c] }

// PieceAt returns the piece on s, or NoPiece.
func (b *Board) PieceAt(s Square) Piece {
	bit := s.Bit()
	if (b.byColor[White]|b.byColor[Black])&bit == 0 {
		return NoPiece
	}
	c := White
	if b.byColor[Black]&bit != 0 {
		c = Black
	}
	for t := Pawn; t <= King; t++ {
		if b.byType[t-1]&bit != 0 {
			return MakePiece(c, t)
		}
	}
	return NoPiece
}

// KingSquare returns the square of colour c's king, or NoSquare when it has none.
// With several kings (possible only on hand-made boards) it returns the lowest.
func (b *Board) KingSquare(c Color) Square {
	k := b.byType[King-1] & b.byColor[c]
	if k == 0 {
		return NoSquare
	}
	return k.First()
}

// SetPiece puts p on s (NoPiece empties it), keeping the key up to date.
func (b *Board) SetPiece(s Square, p Piece) {
	b.clear(s)
	if p != NoPiece {
		b.put(s, p)
	}
}

func (b *Board) put(s Square, p Piece) {
	bit := s.Bit()
	b.byType[p.Type()-1] |= bit
	b.byColor[p.Color()] |= bit
	b.key ^= zobristPiece[p][s]
}

// clear empties s and returns what stood there.
func (b *Board) clear(s Square) Piece {
	u := uint(s) & 63
	bit := Bitboard(1) << u
	if (b.byColor[White]|b.byColor[Black])&bit == 0 {
		return NoPiece
	}
	// The type's bit summed without a branch: which type stands on a
	// square is as good as random to the branch predictor, where PieceAt
	// tries the types in turn.
	t := b.byType[Pawn-1]>>u&1 | b.byType[Knight-1]>>u&1*2 | b.byType[Bishop-1]>>u&1*3 |
		b.byType[Rook-1]>>u&1*4 | b.byType[Queen-1]>>u&1*5 | b.byType[King-1]>>u&1*6
	c := Color(b.byColor[Black] >> u & 1)
	p := MakePiece(c, PieceType(t))
	b.byType[t-1] &^= bit
	b.byColor[c] &^= bit
	b.key ^= zobristPiece[p][u]
	return p
}

// Attacked reports whether any piece of colour by attacks s.
func (b *Board) Attacked(s Square, by Color) bool {
	them := b.byColor[by]
	occ := b.Occupied()
	if pawnAttacks[by.Other()][s]&them&b.byType[Pawn-1] != 0 ||
		knightAttacks[s]&them&b.byType[Knight-1] != 0 ||
		kingAttacks[s]&them&b.byType[King-1] != 0 {
		return true
	}
	queens := b.byType[Queen-1]
	if RookAttacks(s, occ)&them&(b.byType[Rook-1]|queens) != 0 {
		return true
	}
	return BishopAttacks(s, occ)&them&(b.byType[Bishop-1]|queens) != 0
}

// KingCapturable reports whether the side to move can capture the enemy king
// right now. Such boards never arise in chess; in RBC they end the game next move.
func (b *Board) KingCapturable() bool {
	k := b.byType[King-1] & b.byColor[b.turn.Other()]
	for k != 0 {
		if b.Attacked(k.PopFirst(), b.turn) {
			return true
		}
	}
	return false
}

// KingMissing reports whether colour c has no king (it was captured).
func (b *Board) KingMissing(c Color) bool { return b.byType[King-1]&b.byColor[c] == 0 }

// epUsable reports whether the side to move has a pawn that could capture en passant.
func (b *Board) epUsable() bool {
	return b.ep != NoSquare && pawnAttacks[b.turn.Other()][b.ep]&b.byType[Pawn-1]&b.byColor[b.turn] != 0
}

// computeKey recomputes the Zobrist key from scratch.
func (b *Board) computeKey() uint64 {
	var k uint64
	for c := White; c <= Black; c++ {
		for t := Pawn; t <= King; t++ {
			bb := b.PiecesOf(c, t)
			for bb != 0 {
				k ^= zobristPiece[MakePiece(c, t)][bb.PopFirst()]
			}
		}
	}
	if b.turn == Black {
		k ^= zobristBlack
	}
	k ^= zobristCastling[b.castling]
	if b.epUsable() {
		k ^= zobristEP[b.ep.File()]
	}
	return k
}
