package chess

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
	} else if BackRanks.Has(to) != (m.Promotion != NoPieceType) || m.Promotion == Pawn || m.Promotion == King {
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
