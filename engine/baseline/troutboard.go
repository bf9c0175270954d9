package baseline

import (
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// troutBoard is the one board the reference Trout keeps: the python-chess
// Board it was given at game start, changed only by its own moves, its own
// lost pieces and what it senses. It reproduces the python-chess behaviour
// Trout's decisions depend on, quirks included: the side to move is whatever
// the last push left unless a Stockfish call set it, castling rights are rook
// squares that are filtered only while the move stack is empty, the
// en-passant square is the one behind Trout's own last double push, and the
// counters count Trout's own moves only. Keeping these exactly is what makes
// the FEN sent to Stockfish (and so its crashes) the reference Trout's.
type troutBoard struct {
	pieces   chess.Board    // placement only; its turn, rights and counters are unused
	turn     chess.Color    // python-chess board.turn
	castling chess.Bitboard // python-chess castling_rights: the rook squares
	ep       chess.Square   // python-chess ep_square (NoSquare for None)
	halfmove int
	fullmove int
	stacked  bool // the move stack is not empty (pushes since the last clear_stack)
}

// Squares and masks python-chess's push and castling code refer to.
const (
	rank1 chess.Bitboard = 0xff
	rank8 chess.Bitboard = 0xff << 56
)

// newTroutBoard copies the board the harness hands over at game start.
func newTroutBoard(b chess.Board) troutBoard {
	t := troutBoard{pieces: b, turn: b.Turn(), ep: b.EnPassant(), halfmove: b.HalfmoveClock(), fullmove: b.FullmoveNumber()}
	rights := b.Castling()
	for _, r := range []struct {
		right chess.Castling
		rook  chess.Square
	}{{chess.WhiteKingside, chess.H1}, {chess.WhiteQueenside, chess.A1}, {chess.BlackKingside, chess.H8}, {chess.BlackQueenside, chess.A8}} {
		if rights&r.right != 0 {
			t.castling |= r.rook.Bit()
		}
	}
	return t
}

// setPiece puts p on s (NoPiece empties it), as chess.Board's public
// set_piece_at and remove_piece_at do, which also clear the move stack.
func (t *troutBoard) setPiece(s chess.Square, p chess.Piece) {
	t.pieces.SetPiece(s, p)
	t.stacked = false
}

// set is python-chess's internal _set_piece_at/_remove_piece_at, used by push.
func (t *troutBoard) set(s chess.Square, p chess.Piece) { t.pieces.SetPiece(s, p) }

// at returns the piece on s.
func (t *troutBoard) at(s chess.Square) chess.Piece { return t.pieces.PieceAt(s) }

// king returns the highest square holding a king of colour c, or NoSquare:
// python-chess's Board.king takes the most significant bit, which matters
// because Trout's board often shows the enemy king twice (the one it last
// saw and the one it never saw leave).
func (t *troutBoard) king(c chess.Color) chess.Square {
	k := t.pieces.PiecesOf(c, chess.King)
	if k == 0 {
		return chess.NoSquare
	}
	return k.Last()
}

// attackers returns the pieces of colour c that attack s on this board.
func (t *troutBoard) attackers(c chess.Color, s chess.Square) chess.Bitboard {
	return attackersOf(&t.pieces, c, s)
}

// attackersOf returns the pieces of colour c that attack s on b.
func attackersOf(b *chess.Board, c chess.Color, s chess.Square) chess.Bitboard {
	occ := b.Occupied()
	diag := b.PiecesOf(c, chess.Bishop) | b.PiecesOf(c, chess.Queen)
	straight := b.PiecesOf(c, chess.Rook) | b.PiecesOf(c, chess.Queen)
	return chess.PawnAttacks(c.Other(), s)&b.PiecesOf(c, chess.Pawn) |
		chess.KnightAttacks(s)&b.PiecesOf(c, chess.Knight) |
		chess.KingAttacks(s)&b.PiecesOf(c, chess.King) |
		chess.BishopAttacks(s, occ)&diag |
		chess.RookAttacks(s, occ)&straight
}

// cleanCastling is python-chess's clean_castling_rights for standard chess:
// only rights whose rook stands on its corner next to its own king on e1/e8.
func (t *troutBoard) cleanCastling() chess.Bitboard {
	if t.stacked {
		return t.castling // python-chess assumes rights were filtered before the first push
	}
	c := t.castling & (t.pieces.PiecesOf(chess.White, chess.Rook) | t.pieces.PiecesOf(chess.Black, chess.Rook))
	white := c & rank1 & t.pieces.Pieces(chess.White) & (chess.A1.Bit() | chess.H1.Bit())
	black := c & rank8 & t.pieces.Pieces(chess.Black) & (chess.A8.Bit() | chess.H8.Bit())
	if !t.pieces.PiecesOf(chess.White, chess.King).Has(chess.E1) {
		white = 0
	}
	if !t.pieces.PiecesOf(chess.Black, chess.King).Has(chess.E8) {
		black = 0
	}
	return white | black
}

// clearStack is board.clear_stack(): afterwards rights are filtered again.
func (t *troutBoard) clearStack() { t.stacked = false }

// castlingString renders rights as python-chess's FEN does ("KQkq", "-").
func castlingString(c chess.Bitboard) string {
	var s strings.Builder
	for _, r := range []struct {
		sq chess.Square
		ch byte
	}{{chess.H1, 'K'}, {chess.A1, 'Q'}, {chess.H8, 'k'}, {chess.A8, 'q'}} {
		if c.Has(r.sq) {
			s.WriteByte(r.ch)
		}
	}
	if s.Len() == 0 {
		return "-"
	}
	return s.String()
}

// placement returns the FEN placement field.
func (t *troutBoard) placement() string {
	f := t.pieces.FEN()
	return f[:strings.IndexByte(f, ' ')]
}

// engineFEN is the FEN python-chess sends Stockfish for this board:
// en_passant="fen" shows the stored en-passant square whatever it is.
func (t *troutBoard) engineFEN() string {
	side := "w"
	if t.turn == chess.Black {
		side = "b"
	}
	return t.placement() + " " + side + " " + castlingString(t.cleanCastling()) + " " + t.ep.String() + " " +
		strconv.Itoa(t.halfmove) + " " + strconv.Itoa(t.fullmove)
}

// chessBoard returns the board as an chess.Board with the side to move and
// clean rights set, for chess-legality checks (no en-passant square: the one
// Trout's board stores is behind its own pawn and never usable).
func (t *troutBoard) chessBoard() (chess.Board, error) {
	var rights []byte
	c := t.cleanCastling()
	for _, r := range []struct {
		sq chess.Square
		ch byte
	}{{chess.H1, 'K'}, {chess.A1, 'Q'}, {chess.H8, 'k'}, {chess.A8, 'q'}} {
		if c.Has(r.sq) {
			rights = append(rights, r.ch)
		}
	}
	cs := string(rights)
	if cs == "" {
		cs = "-"
	}
	side := "w"
	if t.turn == chess.Black {
		side = "b"
	}
	return chess.ParseFEN(t.placement() + " " + side + " " + cs + " - 0 1")
}

// push is python-chess's Board.push for a taken move, with the side to move
// the board happens to have.
func (t *troutBoard) push(m chess.Move) {
	if m.IsNull() {
		// Trout pushes only real taken moves; a null push would only swap turns.
		t.ep = chess.NoSquare
		t.halfmove++
		if t.turn == chess.Black {
			t.fullmove++
		}
		t.turn = t.turn.Other()
		return
	}
	kings := t.pieces.PiecesOf(chess.White, chess.King) | t.pieces.PiecesOf(chess.Black, chess.King)
	rooks := t.pieces.PiecesOf(chess.White, chess.Rook) | t.pieces.PiecesOf(chess.Black, chess.Rook)
	// _to_chess960: a king's two-square step from e1/e8 becomes "king takes rook".
	from, to := m.From, m.To
	switch {
	case from == chess.E1 && kings.Has(chess.E1) && to == chess.G1 && !rooks.Has(chess.G1):
		to = chess.H1
	case from == chess.E1 && kings.Has(chess.E1) && to == chess.C1 && !rooks.Has(chess.C1):
		to = chess.A1
	case from == chess.E8 && kings.Has(chess.E8) && to == chess.G8 && !rooks.Has(chess.G8):
		to = chess.H8
	case from == chess.E8 && kings.Has(chess.E8) && to == chess.C8 && !rooks.Has(chess.C8):
		to = chess.A8
	}
	t.castling = t.cleanCastling()
	t.stacked = true
	oldEP := t.ep
	t.ep = chess.NoSquare
	t.halfmove++
	if t.turn == chess.Black {
		t.fullmove++
	}
	us := t.turn
	touched := from.Bit() | to.Bit()
	pawns := t.pieces.PiecesOf(chess.White, chess.Pawn) | t.pieces.PiecesOf(chess.Black, chess.Pawn)
	if touched&pawns != 0 || touched&t.pieces.Pieces(us.Other()) != 0 {
		t.halfmove = 0
	}
	pt := t.at(from).Type()
	t.set(from, chess.NoPiece)
	captured := t.at(to).Type()
	t.castling &^= from.Bit() | to.Bit()
	switch {
	case pt == chess.King:
		if us == chess.White {
			t.castling &^= rank1
		} else {
			t.castling &^= rank8
		}
	case captured == chess.King:
		if us == chess.White && to.Rank() == 7 {
			t.castling &^= rank8
		} else if us == chess.Black && to.Rank() == 0 {
			t.castling &^= rank1
		}
	}
	if pt == chess.Pawn {
		diff := int(to) - int(from)
		switch {
		case diff == 16 && from.Rank() == 1:
			t.ep = from + 8
		case diff == -16 && from.Rank() == 6:
			t.ep = from - 8
		case to == oldEP && (diff == 7 || diff == -7 || diff == 9 || diff == -9) && captured == chess.NoPieceType:
			capSq := oldEP - 8
			if us == chess.Black {
				capSq = oldEP + 8
			}
			t.set(capSq, chess.NoPiece)
		}
	}
	if m.Promotion != chess.NoPieceType {
		pt = m.Promotion
	}
	if pt == chess.King && t.pieces.Pieces(us).Has(to) {
		// Castling, in python-chess's king-takes-rook form.
		aSide := to.File() < from.File()
		t.set(to, chess.NoPiece)
		kingTo, rookTo := chess.G1, chess.F1
		if aSide {
			kingTo, rookTo = chess.C1, chess.D1
		}
		if us == chess.Black {
			kingTo, rookTo = kingTo+56, rookTo+56
		}
		t.set(kingTo, chess.MakePiece(us, chess.King))
		t.set(rookTo, chess.MakePiece(us, chess.Rook))
	} else if pt != chess.NoPieceType {
		t.set(to, chess.MakePiece(us, pt))
	}
	t.turn = us.Other()
}

// isChessLegal reports whether m is legal in chess on b (side to move b's):
// what python-chess checks before it accepts Stockfish's bestmove. Castling
// may not start in, pass through or land on an attacked square; no move may
// leave the mover's king attacked.
func isChessLegal(b *chess.Board, m chess.Move) bool {
	if !b.IsPseudoLegal(m) {
		return false
	}
	us := b.Turn()
	them := us.Other()
	piece := b.PieceAt(m.From)
	if piece.Type() == chess.King && (int(m.To)-int(m.From) == 2 || int(m.From)-int(m.To) == 2) {
		mid := (m.From + m.To) / 2
		for _, s := range []chess.Square{m.From, mid} {
			if attackersOf(b, them, s) != 0 {
				return false
			}
		}
	}
	after := *b
	after.Apply(m)
	k := after.PiecesOf(us, chess.King)
	if k == 0 {
		return true // python-chess: no king, nothing to leave in check
	}
	return attackersOf(&after, them, k.Last()) == 0
}
