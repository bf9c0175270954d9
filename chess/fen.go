package chess

import (
	"fmt"
	"strconv"
	"strings"
)

// FENError describes what is wrong with a FEN and in which field.
type FENError struct {
	FEN   string
	Field string // "placement", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"
	Msg   string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("chess: bad FEN %q: %s: %s", e.FEN, e.Field, e.Msg)
}

// ParseFEN reads a position in Forsyth–Edwards Notation. It accepts every
// position the reference harness can produce (any number of kings, a side to
// move that can capture a king, castling rights as recorded) and rejects
// malformed text with a *FENError naming the field. The two move counters may
// be left out; they default to 0 and 1.
func ParseFEN(fen string) (Board, error) {
	var b Board
	b.ep = NoSquare
	fields := strings.Fields(fen)
	fail := func(field, format string, args ...any) (Board, error) {
		return Board{}, &FENError{FEN: fen, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(fields) < 4 || len(fields) > 6 {
		return fail("fields", "want 4 to 6 space-separated fields, got %d", len(fields))
	}
	ranks := strings.Split(fields[0], "/")
	if len(ranks) != 8 {
		return fail("placement", "want 8 ranks separated by '/', got %d", len(ranks))
	}
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				continue
			}
			p, err := ParsePiece(c)
			if err != nil {
				return fail("placement", "rank %d: unexpected character %q", rank+1, string(c))
			}
			if file > 7 {
				return fail("placement", "rank %d has more than 8 squares", rank+1)
			}
			if p.Type() == Pawn && (rank == 0 || rank == 7) {
				return fail("placement", "pawn on rank %d", rank+1)
			}
			b.put(MakeSquare(file, rank), p)
			file++
		}
		if file != 8 {
			return fail("placement", "rank %d has %d squares, want 8", rank+1, file)
		}
	}
	switch fields[1] {
	case "w":
		b.turn = White
	case "b":
		b.turn = Black
	default:
		return fail("side to move", "want w or b, got %q", fields[1])
	}
	if fields[2] != "-" {
		for _, c := range fields[2] {
			i := strings.IndexRune("KQkq", c)
			if i < 0 {
				return fail("castling", "unexpected character %q (want letters of KQkq, or -)", string(c))
			}
			if b.castling&(1<<i) != 0 {
				return fail("castling", "right %q given twice", string(c))
			}
			b.castling |= 1 << i
		}
	}
	if fields[3] != "-" {
		sq, err := ParseSquare(fields[3])
		if err != nil {
			return fail("en passant", "want a square or -, got %q", fields[3])
		}
		want := 5
		if b.turn == Black {
			want = 2
		}
		if sq.Rank() != want {
			return fail("en passant", "square %s is not on rank %d", fields[3], want+1)
		}
		b.ep = sq
	}
	b.fullmove = 1
	if len(fields) > 4 {
		n, err := strconv.ParseUint(fields[4], 10, 16)
		if err != nil {
			return fail("halfmove clock", "want a number from 0 to 65535, got %q", fields[4])
		}
		b.halfmove = uint16(n)
	}
	if len(fields) > 5 {
		n, err := strconv.ParseUint(fields[5], 10, 16)
		if err != nil {
			return fail("fullmove number", "want a number from 1 to 65535, got %q", fields[5])
		}
		b.fullmove = max(uint16(n), 1)
	}
	b.key = b.computeKey()
	return b, nil
}

// MustParseFEN is ParseFEN for constants in tests and tables: it panics on error.
func MustParseFEN(fen string) Board {
	b, err := ParseFEN(fen)
	if err != nil {
		panic(err)
	}
	return b
}

// FEN returns the position in Forsyth–Edwards Notation, showing the
// en-passant square after every double push as the harness's records do.
func (b *Board) FEN() string {
	var sb strings.Builder
	sb.Grow(90)
	for rank := 7; rank >= 0; rank-- {
		empty := 0
		for file := 0; file < 8; file++ {
			p := b.PieceAt(MakeSquare(file, rank))
			if p == NoPiece {
				empty++
				continue
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
				empty = 0
			}
			sb.WriteByte(p.Symbol())
		}
		if empty > 0 {
			sb.WriteByte(byte('0' + empty))
		}
		if rank > 0 {
			sb.WriteByte('/')
		}
	}
	sb.WriteByte(' ')
	sb.WriteString([...]string{"w", "b"}[b.turn])
	sb.WriteByte(' ')
	sb.WriteString(b.castling.String())
	sb.WriteByte(' ')
	sb.WriteString(b.ep.String())
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(int(b.halfmove)))
	sb.WriteByte(' ')
	sb.WriteString(strconv.Itoa(int(b.fullmove)))
	return sb.String()
}

// String returns the FEN.
func (b Board) String() string { return b.FEN() }
