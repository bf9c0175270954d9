package kriegspiel

import (
	"strings"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// The draw rules that look at the position: insufficient material and the
// identity of positions for repetition.

// lightSquares are the light squares (a1 is dark).
const lightSquares rbc.Bitboard = 0x55AA55AA55AA55AA

// InsufficientMaterial reports whether neither side has the material to mate,
// by the reference referee's definition (python-chess's): a side cannot win
// when it has no pawn, rook or queen and either nothing but its king, or a
// lone knight while the opponent has no pawn, knight, bishop or rook (which
// could help a mate along), or bishops all on one colour while nobody has a
// pawn or knight or a bishop of the other colour. The game is drawn when
// both sides cannot win.
func InsufficientMaterial(b *rbc.Board) bool {
	return cannotWin(b, rbc.White) && cannotWin(b, rbc.Black)
}

// cannotWin reports whether colour c has too little material to mate (see
// InsufficientMaterial).
func cannotWin(b *rbc.Board, c rbc.Color) bool {
	ours, theirs := b.Pieces(c), b.Pieces(c.Other())
	if ours&(b.PiecesOf(c, rbc.Pawn)|b.PiecesOf(c, rbc.Rook)|b.PiecesOf(c, rbc.Queen)) != 0 {
		return false
	}
	if b.PiecesOf(c, rbc.Knight) != 0 {
		others := theirs &^ b.PiecesOf(c.Other(), rbc.King) &^ b.PiecesOf(c.Other(), rbc.Queen)
		return ours.Count() <= 2 && others == 0
	}
	if b.PiecesOf(c, rbc.Bishop) != 0 {
		bishops := b.PiecesOf(rbc.White, rbc.Bishop) | b.PiecesOf(rbc.Black, rbc.Bishop)
		oneColour := bishops&lightSquares == 0 || bishops&^lightSquares == 0
		pawnsOrKnights := b.PiecesOf(rbc.White, rbc.Pawn) | b.PiecesOf(rbc.Black, rbc.Pawn) |
			b.PiecesOf(rbc.White, rbc.Knight) | b.PiecesOf(rbc.Black, rbc.Knight)
		return oneColour && pawnsOrKnights == 0
	}
	return true
}

// positionKey identifies a position for the repetition rule: placement, side
// to move, castling rights and, only when a legal en-passant capture exists,
// the en-passant square. rbc's key already has all but the last nuance: it
// counts an en-passant square some pawn attacks even when the capture is
// illegal (the pawn is pinned), so such boards are keyed without it.
func positionKey(b *rbc.Board) uint64 {
	ep := b.EnPassant()
	if ep == rbc.NoSquare || rbc.PawnAttacks(b.Turn().Other(), ep)&b.PiecesOf(b.Turn(), rbc.Pawn) == 0 {
		return b.Key()
	}
	var buf [8]rbc.Move
	if len(appendEnPassant(b, buf[:0], b.KingSquare(b.Turn()))) > 0 {
		return b.Key()
	}
	fields := strings.Fields(b.FEN())
	fields[3] = "-"
	c, err := rbc.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return b.Key() // cannot happen: the FEN is the board's own
	}
	return c.Key()
}
