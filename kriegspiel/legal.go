package kriegspiel

import (
	"github.com/blindfish-rbc/blindfish/chess"
)

// Legal-move generation for ordinary chess on rbc's boards. RBC has no check
// rules (a king may be left en prise and is captured), so rbc generates
// pseudo-legal moves only; Kriegspiel's referee needs the legal ones, and
// check, mate and stalemate. The generator is a pin-and-check-mask one:
// nothing is played on a copy except the rare en-passant capture, and nothing
// allocates beyond the caller's slice.

// Attackers returns the pieces of colour by that attack square s on b.
func Attackers(b *chess.Board, s chess.Square, by chess.Color) chess.Bitboard {
	return attackersWith(b, s, by, b.Occupied())
}

// attackersWith is Attackers with the occupied squares given, so that a
// king's escape can be tested with the king lifted off the board (a slider's
// ray then runs through the square it leaves).
func attackersWith(b *chess.Board, s chess.Square, by chess.Color, occ chess.Bitboard) chess.Bitboard {
	queens := b.PiecesOf(by, chess.Queen)
	return chess.PawnAttacks(by.Other(), s)&b.PiecesOf(by, chess.Pawn) |
		chess.KnightAttacks(s)&b.PiecesOf(by, chess.Knight) |
		chess.KingAttacks(s)&b.PiecesOf(by, chess.King) |
		chess.RookAttacks(s, occ)&(b.PiecesOf(by, chess.Rook)|queens) |
		chess.BishopAttacks(s, occ)&(b.PiecesOf(by, chess.Bishop)|queens)
}

// Checkers returns the enemy pieces that give check to the side to move (the
// empty set when it has no king).
func Checkers(b *chess.Board) chess.Bitboard {
	us := b.Turn()
	k := b.KingSquare(us)
	if k == chess.NoSquare {
		return 0
	}
	return Attackers(b, k, us.Other())
}

// InCheck reports whether the side to move is in check.
func InCheck(b *chess.Board) bool { return Checkers(b) != 0 }

// castle describes one castling: the king's move, the rook's square, the
// squares that must be empty and the squares the king crosses or lands on,
// which must not be attacked.
type castle struct {
	right chess.Castling
	king  chess.Move
	rook  chess.Square
	empty chess.Bitboard
	safe  chess.Bitboard
}

// castles lists the four castlings, White's first.
var castles = [4]castle{
	{chess.WhiteKingside, chess.Move{From: chess.E1, To: chess.G1}, chess.H1, chess.F1.Bit() | chess.G1.Bit(), chess.F1.Bit() | chess.G1.Bit()},
	{chess.WhiteQueenside, chess.Move{From: chess.E1, To: chess.C1}, chess.A1, chess.B1.Bit() | chess.C1.Bit() | chess.D1.Bit(), chess.C1.Bit() | chess.D1.Bit()},
	{chess.BlackKingside, chess.Move{From: chess.E8, To: chess.G8}, chess.H8, chess.F8.Bit() | chess.G8.Bit(), chess.F8.Bit() | chess.G8.Bit()},
	{chess.BlackQueenside, chess.Move{From: chess.E8, To: chess.C8}, chess.A8, chess.B8.Bit() | chess.C8.Bit() | chess.D8.Bit(), chess.C8.Bit() | chess.D8.Bit()},
}

// pin is a pinned piece and the squares it may still move to: the line
// from its king to the pinner, the pinner included.
type pin struct {
	sq  chess.Square
	ray chess.Bitboard
}

// AppendLegalMoves appends the legal moves of the side to move in the order
// knights, bishops, rooks, queens, king, castling, pawns (promotions as queen,
// rook, bishop, knight), en-passant captures. A side without a king has no check rules: each of
// its pseudo-legal moves is legal.
func AppendLegalMoves(b *chess.Board, dst []chess.Move) []chess.Move {
	us := b.Turn()
	them := us.Other()
	ours, theirs := b.Pieces(us), b.Pieces(them)
	occ := ours | theirs
	k := b.KingSquare(us)
	if k == chess.NoSquare {
		return appendWithoutKing(b, dst)
	}

	checkers := attackersWith(b, k, them, occ)
	// target holds the squares a piece other than the king may move to: all
	// of them, or in single check the checker and the squares between it and
	// the king; in double check only the king may move.
	target := ^ours
	if checkers != 0 {
		if checkers.Count() > 1 {
			return appendEnPassant(b, appendKingMoves(b, dst, k, us, ours, occ), k)
		}
		c := checkers.First()
		target = chess.Between(k, c) | c.Bit()
	}

	// Pins: an enemy slider that would attack the king through exactly one
	// of our pieces pins it to the line between them.
	var pins [8]pin
	npins := 0
	var pinned chess.Bitboard
	queens := b.PiecesOf(them, chess.Queen)
	snipers := chess.RookAttacks(k, theirs)&(b.PiecesOf(them, chess.Rook)|queens) |
		chess.BishopAttacks(k, theirs)&(b.PiecesOf(them, chess.Bishop)|queens)
	for snipers != 0 {
		s := snipers.PopFirst()
		line := chess.Between(k, s)
		if blockers := line & occ; blockers.Count() == 1 && blockers&ours != 0 {
			pinned |= blockers
			pins[npins] = pin{blockers.First(), line | s.Bit()}
			npins++
		}
	}
	allowed := func(from chess.Square) chess.Bitboard {
		if !pinned.Has(from) {
			return target
		}
		for _, p := range pins[:npins] {
			if p.sq == from {
				return target & p.ray
			}
		}
		return 0
	}

	for bb := b.PiecesOf(us, chess.Knight) &^ pinned; bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, chess.KnightAttacks(from)&target)
	}
	for bb := b.PiecesOf(us, chess.Bishop); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, chess.BishopAttacks(from, occ)&allowed(from))
	}
	for bb := b.PiecesOf(us, chess.Rook); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, chess.RookAttacks(from, occ)&allowed(from))
	}
	for bb := b.PiecesOf(us, chess.Queen); bb != 0; {
		from := bb.PopFirst()
		dst = appendTargets(dst, from, chess.QueenAttacks(from, occ)&allowed(from))
	}
	dst = appendKingMoves(b, dst, k, us, ours, occ)
	if checkers == 0 {
		for _, c := range castles[2*us : 2*us+2] {
			if b.Castling()&c.right != 0 && k == c.king.From &&
				b.PiecesOf(us, chess.Rook).Has(c.rook) && occ&c.empty == 0 &&
				!anyAttacked(b, c.safe, them, occ) {
				dst = append(dst, c.king)
			}
		}
	}

	forward := chess.Square(8)
	startRank := 1
	if us == chess.Black {
		forward, startRank = -8, 6
	}
	for bb := b.PiecesOf(us, chess.Pawn); bb != 0; {
		from := bb.PopFirst()
		mask := allowed(from)
		if one := from + forward; !occ.Has(one) {
			if mask.Has(one) {
				dst = appendPawn(dst, from, one)
			}
			if two := one + forward; from.Rank() == startRank && !occ.Has(two) && mask.Has(two) {
				dst = append(dst, chess.Move{From: from, To: two})
			}
		}
		for t := chess.PawnAttacks(us, from) & theirs & mask; t != 0; {
			dst = appendPawn(dst, from, t.PopFirst())
		}
	}
	return appendEnPassant(b, dst, k)
}

// appendEnPassant appends the legal en-passant captures. They are rare enough
// to test by playing them, which covers every way they can go wrong: the
// capture removes two men from one rank (and can uncover the king sideways),
// and it can take a checking pawn.
func appendEnPassant(b *chess.Board, dst []chess.Move, k chess.Square) []chess.Move {
	us := b.Turn()
	them := us.Other()
	ep, behind := b.EnPassant(), b.EnPassantTaken()
	if ep == chess.NoSquare || b.Occupied().Has(ep) || !b.PiecesOf(them, chess.Pawn).Has(behind) {
		return dst
	}
	for bb := chess.PawnAttacks(them, ep) & b.PiecesOf(us, chess.Pawn); bb != 0; {
		m := chess.Move{From: bb.PopFirst(), To: ep}
		c := *b
		c.Apply(m)
		if attackersWith(&c, k, them, c.Occupied()) == 0 {
			dst = append(dst, m)
		}
	}
	return dst
}

// appendKingMoves appends the king's steps onto squares no enemy piece would
// attack with the king gone from k.
func appendKingMoves(b *chess.Board, dst []chess.Move, k chess.Square, us chess.Color, ours, occ chess.Bitboard) []chess.Move {
	lifted := occ &^ k.Bit()
	for t := chess.KingAttacks(k) &^ ours; t != 0; {
		to := t.PopFirst()
		if attackersWith(b, to, us.Other(), lifted) == 0 {
			dst = append(dst, chess.Move{From: k, To: to})
		}
	}
	return dst
}

// anyAttacked reports whether any square of set is attacked by colour by.
func anyAttacked(b *chess.Board, set chess.Bitboard, by chess.Color, occ chess.Bitboard) bool {
	for set != 0 {
		if attackersWith(b, set.PopFirst(), by, occ) != 0 {
			return true
		}
	}
	return false
}

// appendWithoutKing appends the pseudo-legal moves of a side that has no king
// (only hand-made boards have one): rbc's options without the null move.
func appendWithoutKing(b *chess.Board, dst []chess.Move) []chess.Move {
	n := len(dst)
	dst = b.AppendOptions(dst)
	out := dst[:n]
	for _, m := range dst[n:] {
		if !m.IsNull() {
			out = append(out, m)
		}
	}
	return out
}

func appendTargets(dst []chess.Move, from chess.Square, targets chess.Bitboard) []chess.Move {
	for targets != 0 {
		dst = append(dst, chess.Move{From: from, To: targets.PopFirst()})
	}
	return dst
}

// backRanks are the squares where pawns promote.
const backRanks chess.Bitboard = 0xFF | 0xFF<<56

// appendPawn appends a pawn move, as its four promotions when it reaches the back rank.
func appendPawn(dst []chess.Move, from, to chess.Square) []chess.Move {
	if backRanks.Has(to) {
		return append(dst,
			chess.Move{From: from, To: to, Promotion: chess.Queen},
			chess.Move{From: from, To: to, Promotion: chess.Rook},
			chess.Move{From: from, To: to, Promotion: chess.Bishop},
			chess.Move{From: from, To: to, Promotion: chess.Knight})
	}
	return append(dst, chess.Move{From: from, To: to})
}

// LegalMoves returns the legal moves of the side to move (see AppendLegalMoves).
func LegalMoves(b *chess.Board) []chess.Move { return AppendLegalMoves(b, make([]chess.Move, 0, 64)) }

// IsLegal reports whether m is a legal move of the side to move.
func IsLegal(b *chess.Board, m chess.Move) bool {
	if m.IsNull() || !m.From.Valid() || !m.To.Valid() || !b.Pieces(b.Turn()).Has(m.From) {
		return false
	}
	var buf [256]chess.Move
	for _, l := range AppendLegalMoves(b, buf[:0]) {
		if l == m {
			return true
		}
	}
	return false
}

// HasLegalMove reports whether the side to move has any legal move.
func HasLegalMove(b *chess.Board) bool {
	var buf [256]chess.Move
	return len(AppendLegalMoves(b, buf[:0])) > 0
}

// IsCheckmate reports whether the side to move is in check and has no legal move.
func IsCheckmate(b *chess.Board) bool { return InCheck(b) && !HasLegalMove(b) }

// IsStalemate reports whether the side to move is not in check and has no legal move.
func IsStalemate(b *chess.Board) bool { return !InCheck(b) && !HasLegalMove(b) }
