package rbc

// Move resolution: what a requested move becomes on the true board.

// WithQueenDefault returns m promoted to a queen when it is a pawn move onto
// the back rank without a promotion piece, as the harness does before it
// checks a request against the move actions.
func WithQueenDefault(b *Board, m Move) Move {
	if !m.IsNull() && m.Promotion == NoPieceType && BackRanks.Has(m.To) &&
		b.PiecesOf(b.Turn(), Pawn).Has(m.From) {
		m.Promotion = Queen
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
func Resolve(b *Board, req Move) (taken Move, capture Square) {
	if req.IsNull() {
		return Move{}, NoSquare
	}
	if b.IsPseudoLegal(req) {
		return req, b.CaptureSquare(req)
	}
	switch b.PieceAt(req.From).Type() {
	case Pawn, Bishop, Rook, Queen:
	default:
		return Move{}, NoSquare
	}
	path := Between(req.From, req.To)
	for path != 0 {
		var s Square
		if req.To > req.From {
			s = path.Last()
		} else {
			s = path.First()
		}
		path &^= s.Bit()
		revised := Move{From: req.From, To: s, Promotion: req.Promotion}
		if b.IsPseudoLegal(revised) {
			return revised, b.CaptureSquare(revised)
		}
	}
	return Move{}, NoSquare
}

// Play resolves the request req on this (true) board with the harness's queen
// default and applies the result. It returns the taken move and the capture
// square. req must be a move action (or null); the referee checks that.
func Play(b *Board, req Move) (taken Move, capture Square) {
	taken, capture = Resolve(b, WithQueenDefault(b, req))
	b.Apply(taken)
	return taken, capture
}
