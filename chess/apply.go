package chess

// Apply plays the taken move m (a pseudo-legal move, or the null move for a
// pass or a request that resolved to nothing) and returns the square of the
// captured piece, or NoSquare. It updates counters, castling rights, the
// en-passant square and the key as the harness's board does.
func (b *Board) Apply(m Move) (capture Square) {
	if b.epUsable() {
		b.key ^= zobristEP[b.ep.File()]
	}
	oldEP := b.ep
	b.ep = NoSquare
	b.halfmove++
	if b.turn == Black {
		b.fullmove++
	}
	capture = NoSquare
	if !m.IsNull() {
		us := b.turn
		from, to := m.From, m.To
		p := b.clear(from)
		if p.Type() == Pawn {
			b.halfmove = 0
			switch {
			case to == oldEP && from.File() != to.File() && !b.Occupied().Has(to):
				capture = to - 8
				if us == Black {
					capture = to + 8
				}
				b.clear(capture)
			case to-from == 16 || from-to == 16:
				b.ep = (from + to) / 2
			}
		}
		if b.clear(to) != NoPiece {
			capture = to
			b.halfmove = 0
		}
		if p.Type() == King && (to-from == 2 || from-to == 2) {
			rookFrom, rookTo := to+1, to-1 // kingside: h-file rook to the f-file
			if to < from {
				rookFrom, rookTo = to-2, to+1 // queenside: a-file rook to the d-file
			}
			b.put(rookTo, b.clear(rookFrom))
		}
		if m.Promotion != NoPieceType {
			p = MakePiece(us, m.Promotion)
		}
		b.put(to, p)
		c := b.castling &^ (castlingClears[from] | castlingClears[to])
		if c != b.castling {
			b.key ^= zobristCastling[b.castling] ^ zobristCastling[c]
			b.castling = c
		}
	}
	b.turn = b.turn.Other()
	b.key ^= zobristBlack
	if b.epUsable() {
		b.key ^= zobristEP[b.ep.File()]
	}
	return capture
}
