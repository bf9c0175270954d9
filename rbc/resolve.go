package rbc

// Move resolution: what a requested move becomes on the true board.

// WithQueenDefault returns m promoted to a queen when it is a pawn move onto
// the back rank without a promotion piece, as the harness does before it
// checks a request against the move actions.
func (b *Board) WithQueenDefault(m Move) Move {
	if !m.IsNull() && m.Promotion == NoPieceType && backRanks.Has(m.To) &&
		b.PiecesOf(b.turn, Pawn).Has(m.From) {
		m.Promotion = Queen
	}
	return m
}

// IsPseudoLegal reports whether m is one of the options of the side to move
// (see AppendOptions), leaving out the null move.
func (b *Board) IsPseudoLegal(m Move) bool {
	if m.IsNull() || !m.From.Valid() || !m.To.Valid() {
		return false
	}
	us := b.turn
	ours, theirs := b.byColor[us], b.byColor[us.Other()]
	from, to := m.From, m.To
	if !ours.Has(from) || ours.Has(to) {
		return false
	}
	occ := ours | theirs
	p := b.PieceAt(from).Type()
	if p != Pawn {
		if m.Promotion != NoPieceType {
			return false
		}
	} else if backRanks.Has(to) != (m.Promotion != NoPieceType) || m.Promotion == Pawn || m.Promotion == King {
		return false
	}
	switch p {
	case Pawn:
		forward := Square(8)
		if us == Black {
			forward = -8
		}
		switch {
		case to == from+forward:
			return !occ.Has(to)
		case to == from+2*forward:
			start := from.Rank() == 1
			if us == Black {
				start = from.Rank() == 6
			}
			return start && !occ.Has(from+forward) && !occ.Has(to)
		case pawnAttacks[us][from].Has(to):
			return theirs.Has(to) || (to == b.ep && theirs&b.byType[Pawn-1]&(to-forward).Bit() != 0)
		}
		return false
	case Knight:
		return knightAttacks[from].Has(to)
	case Bishop:
		return BishopAttacks(from, occ).Has(to)
	case Rook:
		return RookAttacks(from, occ).Has(to)
	case Queen:
		return QueenAttacks(from, occ).Has(to)
	case King:
		if kingAttacks[from].Has(to) {
			return true
		}
		for i := 2 * int(us); i < 2*int(us)+2; i++ {
			if castlingMove[i] == m {
				return b.canCastle(i, occ)
			}
		}
	}
	return false
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
func (b *Board) Resolve(req Move) (taken Move, capture Square) {
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
	path := between[req.From][req.To]
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

// CaptureSquare returns the square of the piece the pseudo-legal move m
// captures, or NoSquare. For en passant it is the captured pawn's square,
// not the destination.
func (b *Board) CaptureSquare(m Move) Square {
	if m.IsNull() {
		return NoSquare
	}
	if b.byColor[b.turn.Other()].Has(m.To) {
		return m.To
	}
	if m.To == b.ep && b.PiecesOf(b.turn, Pawn).Has(m.From) && m.From.File() != m.To.File() {
		return b.EnPassantTaken()
	}
	return NoSquare
}
