package rbc

import "github.com/blindfish-rbc/blindfish/chess"

// Move resolution: what a requested move becomes on the true board.

// WithQueenDefault returns m promoted to a queen when it is a pawn move onto
// the back rank without a promotion piece, as the harness does before it
// checks a request against the move actions.
func WithQueenDefault(b *chess.Board, m chess.Move) chess.Move {
	if !m.IsNull() && m.Promotion == chess.NoPieceType && chess.BackRanks.Has(m.To) &&
		b.PiecesOf(b.Turn(), chess.Pawn).Has(m.From) {
		m.Promotion = chess.Queen
	}
	return m
}

// Resolve returns the move the harness takes on this (true) board for the
// request req, and the square of the piece it captures (NoSquare if none).
// req must be a move action with the queen default applied (see
// WithQueenDefault); the null move resolves to the null move. Rules:
//   - a pseudo-legal request is taken as it is (castling through or out of
//     check included);
//   - castling with any piece between king and rook is no move;
//   - a pawn, bishop, rook or queen slides as far along its path as it can:
//     it stops on the first opponent piece and captures it, a blocked double
//     push becomes a single push, and a pawn diagonal onto an empty square
//     (other than the en-passant square) is no move. The promotion is kept.
func Resolve(b *chess.Board, req chess.Move) (taken chess.Move, capture chess.Square) {
	if req.IsNull() {
		return chess.Move{}, chess.NoSquare
	}
	if b.IsPseudoLegal(req) {
		return req, b.CaptureSquare(req)
	}
	switch b.PieceAt(req.From).Type() {
	case chess.Pawn, chess.Bishop, chess.Rook, chess.Queen:
	default:
		return chess.Move{}, chess.NoSquare
	}
	path := chess.Between(req.From, req.To)
	for path != 0 {
		var s chess.Square
		if req.To > req.From {
			s = path.Last()
		} else {
			s = path.First()
		}
		path &^= s.Bit()
		revised := chess.Move{From: req.From, To: s, Promotion: req.Promotion}
		if b.IsPseudoLegal(revised) {
			return revised, b.CaptureSquare(revised)
		}
	}
	return chess.Move{}, chess.NoSquare
}

// Play resolves the request req on this (true) board with the harness's queen
// default and applies the result. It returns the taken move and the capture
// square. req must be a move action (or null); the referee checks that.
func Play(b *chess.Board, req chess.Move) (taken chess.Move, capture chess.Square) {
	taken, capture = Resolve(b, WithQueenDefault(b, req))
	b.Apply(taken)
	return taken, capture
}
