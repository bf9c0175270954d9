package kriegspiel

import (
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The draw rules that look at the position: insufficient material and the
// identity of positions for repetition.

// lightSquares are the light squares (a1 is dark).
const lightSquares chess.Bitboard = 0x55AA55AA55AA55AA

// InsufficientMaterial reports whether neither side has the material to mate,
// by the reference referee's definition (python-chess's): a side cannot win
// when it has no pawn, rook or queen and either nothing but its king, or a
// lone knight while the opponent has no pawn, knight, bishop or rook (which
// could help a mate along), or bishops all on one colour while nobody has a
// pawn or knight or a bishop of the other colour. The game is drawn when
// both sides cannot win.
func InsufficientMaterial(b *chess.Board) bool {
	return cannotWin(b, chess.White) && cannotWin(b, chess.Black)
}

// cannotWin reports whether colour c has too little material to mate (see
// InsufficientMaterial).
func cannotWin(b *chess.Board, c chess.Color) bool {
	ours, theirs := b.Pieces(c), b.Pieces(c.Other())
	if ours&(b.PiecesOf(c, chess.Pawn)|b.PiecesOf(c, chess.Rook)|b.PiecesOf(c, chess.Queen)) != 0 {
		return false
	}
	if b.PiecesOf(c, chess.Knight) != 0 {
		others := theirs &^ b.PiecesOf(c.Other(), chess.King) &^ b.PiecesOf(c.Other(), chess.Queen)
		return ours.Count() <= 2 && others == 0
	}
	if b.PiecesOf(c, chess.Bishop) != 0 {
		bishops := b.PiecesOf(chess.White, chess.Bishop) | b.PiecesOf(chess.Black, chess.Bishop)
		oneColour := bishops&lightSquares == 0 || bishops&^lightSquares == 0
		pawnsOrKnights := b.PiecesOf(chess.White, chess.Pawn) | b.PiecesOf(chess.Black, chess.Pawn) |
			b.PiecesOf(chess.White, chess.Knight) | b.PiecesOf(chess.Black, chess.Knight)
		return oneColour && pawnsOrKnights == 0
	}
	return true
}

// positionKey identifies a position for the repetition rule: placement, side
// to move, castling rights and, only when a legal en-passant capture exists,
// the en-passant square. rbc's key already has all but the last nuance: it
// counts an en-passant square some pawn attacks even when the capture is
// illegal (the pawn is pinned), so such boards are keyed without it.
func positionKey(b *chess.Board) uint64 {
	ep := b.EnPassant()
	if ep == chess.NoSquare || chess.PawnAttacks(b.Turn().Other(), ep)&b.PiecesOf(b.Turn(), chess.Pawn) == 0 {
		return b.Key()
	}
	var buf [8]chess.Move
	if len(chess.AppendEnPassant(b, buf[:0], b.KingSquare(b.Turn()))) > 0 {
		return b.Key()
	}
	fields := strings.Fields(b.FEN())
	fields[3] = "-"
	c, err := chess.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return b.Key() // cannot happen: the FEN is the board's own
	}
	return c.Key()
}
