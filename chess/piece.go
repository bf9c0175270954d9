package chess

import "fmt"

// PieceType is a kind of piece. The numbering follows the harness (pawn = 1 … king = 6).
type PieceType uint8

// The piece types.
const (
	NoPieceType PieceType = iota
	Pawn
	Knight
	Bishop
	Rook
	Queen
	King
)

// String returns the lower-case letter of the type ("p", "n", …), or "" for none.
func (t PieceType) String() string {
	if t > King {
		return "?"
	}
	return [...]string{"", "p", "n", "b", "r", "q", "k"}[t]
}

// Piece is a coloured piece, or NoPiece for an empty square.
type Piece uint8

// NoPiece is the content of an empty square.
const NoPiece Piece = 0

// MakePiece returns the piece of colour c and type t.
func MakePiece(c Color, t PieceType) Piece { return Piece(uint8(c)<<3 | uint8(t)) }

// Type returns the piece's type.
func (p Piece) Type() PieceType { return PieceType(p & 7) }

// Color returns the piece's colour (meaningless for NoPiece).
func (p Piece) Color() Color { return Color(p >> 3) }

// Symbol returns the FEN letter: upper case for White, lower case for Black, '.' for none.
func (p Piece) Symbol() byte {
	if p == NoPiece || p.Type() > King {
		return '.'
	}
	c := "pnbrqk"[p.Type()-1]
	if p.Color() == White {
		c -= 'a' - 'A'
	}
	return c
}

// String returns the FEN letter of the piece.
func (p Piece) String() string { return string(p.Symbol()) }

// ParsePiece reads a FEN letter ("P", "k", …).
func ParsePiece(c byte) (Piece, error) {
	color := White
	if c >= 'a' && c <= 'z' {
		color = Black
		c -= 'a' - 'A'
	}
	switch c {
	case 'P':
		return MakePiece(color, Pawn), nil
	case 'N':
		return MakePiece(color, Knight), nil
	case 'B':
		return MakePiece(color, Bishop), nil
	case 'R':
		return MakePiece(color, Rook), nil
	case 'Q':
		return MakePiece(color, Queen), nil
	case 'K':
		return MakePiece(color, King), nil
	}
	return NoPiece, fmt.Errorf("chess: bad piece letter %q", string(c))
}
