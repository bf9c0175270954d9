package chess

import "fmt"

// Color is a side: White or Black.
type Color uint8

// The two colours. White moves first.
const (
	White Color = 0
	Black Color = 1
)

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "white" or "black".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// ParseColor reads "white"/"w"/"true" or "black"/"b"/"false".
func ParseColor(s string) (Color, error) {
	switch s {
	case "white", "w", "true", "White", "WHITE":
		return White, nil
	case "black", "b", "false", "Black", "BLACK":
		return Black, nil
	}
	return White, fmt.Errorf("chess: unknown colour %q (want white or black)", s)
}

// ParseSides reads a choice of sides: white, black or both (White then
// Black).
func ParseSides(s string) ([]Color, error) {
	switch s {
	case "both":
		return []Color{White, Black}, nil
	case "white", "black":
		c, _ := ParseColor(s)
		return []Color{c}, nil
	}
	return nil, fmt.Errorf("must be white, black or both, not %q", s)
}

// Square is a board square numbered as the harness does: a1 = 0, b1 = 1, … h8 = 63.
type Square int8

// NoSquare stands for "no square": no capture, no en-passant square, a passed sense.
const NoSquare Square = -1

// Named squares.
const (
	A1 Square = iota
	B1
	C1
	D1
	E1
	F1
	G1
	H1
	A2
	B2
	C2
	D2
	E2
	F2
	G2
	H2
	A3
	B3
	C3
	D3
	E3
	F3
	G3
	H3
	A4
	B4
	C4
	D4
	E4
	F4
	G4
	H4
	A5
	B5
	C5
	D5
	E5
	F5
	G5
	H5
	A6
	B6
	C6
	D6
	E6
	F6
	G6
	H6
	A7
	B7
	C7
	D7
	E7
	F7
	G7
	H7
	A8
	B8
	C8
	D8
	E8
	F8
	G8
	H8
)

// MakeSquare returns the square on file (0 = a) and rank (0 = first rank).
func MakeSquare(file, rank int) Square { return Square(rank*8 + file) }

// File returns 0 for the a-file … 7 for the h-file.
func (s Square) File() int { return int(s) & 7 }

// Rank returns 0 for the first rank … 7 for the eighth.
func (s Square) Rank() int { return int(s) >> 3 }

// Valid reports whether s is one of the 64 squares.
func (s Square) Valid() bool { return s >= 0 && s < 64 }

// String returns the algebraic name ("e4"), or "-" for NoSquare.
func (s Square) String() string {
	if !s.Valid() {
		return "-"
	}
	return string([]byte{byte('a' + s.File()), byte('1' + s.Rank())})
}

// ParseSquare reads an algebraic square name such as "e4".
func ParseSquare(name string) (Square, error) {
	if len(name) != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8' {
		return NoSquare, fmt.Errorf("chess: bad square %q", name)
	}
	return MakeSquare(int(name[0]-'a'), int(name[1]-'1')), nil
}

// Bitboard is a set of squares, bit i standing for square i.
type Bitboard uint64

// Bit returns the bitboard holding only s.
func (s Square) Bit() Bitboard { return 1 << uint(s) }

// Has reports whether s is in the set.
func (b Bitboard) Has(s Square) bool { return b&(1<<uint(s)) != 0 }
