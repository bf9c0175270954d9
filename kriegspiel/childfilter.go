package kriegspiel

import (
	"github.com/blindfish-rbc/blindfish/chess"
)

// moveFilter tells which of a board's legal moves announce what was heard of
// the opponent's move. It gives the referee's verdict (sameAnswer of
// Game.play) without a Game: the cheap tests first (the capture square and
// kind, then the checks after the move), and the child's legal moves only
// for the pawn tries and whether the game goes on, each by the shortest
// route. Heard endings (rare: at most once a game) go the referee's own way.
type moveFilter struct {
	rules Ruleset
	heard Answer
	// fast is false when the heard answer ends the game: then play decides.
	fast bool
}

func newMoveFilter(rules Ruleset, heard Answer) moveFilter {
	return moveFilter{rules: rules, heard: heard, fast: heard.End == NotOver}
}

// before reports whether the legal move m on b can announce what was heard,
// by what b alone says: the capture's square and kind.
func (f *moveFilter) before(b *chess.Board, m chess.Move) bool {
	if b.CaptureSquare(m) != f.heard.Capture {
		return false
	}
	if f.fast && f.rules.TypedCaptures && f.heard.Capture != chess.NoSquare {
		kind := CapturedPiece
		if p := b.PieceAt(m.To); p == chess.NoPiece || p.Type() == chess.Pawn {
			kind = CapturedPawn
		}
		return kind == f.heard.Captured
	}
	return true
}

// after reports whether child, the board after the legal move m on parent
// (which passed before), announces what was heard.
func (f *moveFilter) after(parent *chess.Board, m chess.Move, child *chess.Board) bool {
	k := child.KingSquare(child.Turn())
	if !f.fast || k == chess.NoSquare {
		// The referee's own way: what it announces depends on nothing but
		// the rules, the board and the move (no repetition: a board has no
		// history).
		g := Game{rules: f.rules, board: *parent}
		return sameAnswer(g.play(m), f.heard)
	}
	checkers := chess.Checkers(child)
	var checks [2]Check
	for i := 0; checkers != 0 && i < 2; i++ {
		checks[i] = checkDirection(checkers.PopFirst(), k)
	}
	if checks != f.heard.Checks {
		return false
	}
	if f.rules.HalfmoveLimit > 0 && child.HalfmoveClock() >= f.rules.HalfmoveLimit {
		return false
	}
	if f.rules.PawnTries && countPawnCapturesFast(child, checks[0] != NoCheck) != f.heard.PawnTries {
		return false
	}
	if InsufficientMaterial(child) {
		return false
	}
	return hasLegalMoveFast(child, checks[0] != NoCheck)
}

// countPawnCapturesFast is countPawnCaptures without generating every legal
// move or playing any capture but en passant: out of check, a pawn that
// takes can only uncover its king along the line it leaves, so a capture
// is legal unless a slider other than the man taken then sees the king.
// The pawns on no line from the king (most of them) shield nothing, and
// their captures are counted together, a direction at a time. In check (or
// without a king) it falls back to the full count.
func countPawnCapturesFast(b *chess.Board, inCheck bool) int {
	us := b.Turn()
	k := b.KingSquare(us)
	if inCheck || k == chess.NoSquare {
		return countPawnCaptures(b)
	}
	them := us.Other()
	// A king is never taken: such a capture is no legal move.
	targets := b.Pieces(them) &^ b.PiecesOf(them, chess.King)
	pawns := b.PiecesOf(us, chess.Pawn)
	lines := chess.QueenAttacks(k, 0)
	west, east := pawnCaptureSets(us, pawns&^lines)
	n := (west & targets).Count() + (east & targets).Count()
	if shields := pawns & lines; shields != 0 {
		occ := b.Occupied()
		queens := b.PiecesOf(them, chess.Queen)
		straight := b.PiecesOf(them, chess.Rook) | queens
		diagonal := b.PiecesOf(them, chess.Bishop) | queens
		for shields != 0 {
			from := shields.PopFirst()
			caps := chess.PawnAttacks(us, from) & targets
			if caps == 0 {
				continue
			}
			left := occ &^ from.Bit()
			seen := chess.RookAttacks(k, left)&straight | chess.BishopAttacks(k, left)&diagonal
			for caps != 0 {
				if seen&^caps.PopFirst().Bit() == 0 {
					n++
				}
			}
		}
	}
	if ep := b.EnPassant(); ep != chess.NoSquare && !b.Pieces(them).Has(ep) {
		for takers := chess.PawnAttacks(them, ep) & pawns; takers != 0; {
			// En passant takes a man off another square: played on a copy.
			m := chess.Move{From: takers.PopFirst(), To: ep}
			if ep.Rank() == 0 || ep.Rank() == 7 {
				m.Promotion = chess.Queen
			}
			c := *b
			c.Apply(m)
			if chess.Attackers(&c, k, them) == 0 {
				n++
			}
		}
	}
	return n
}

// Files A and H, which a pawn capture towards the west (lower files) or the
// east may not leave from.
const (
	fileA chess.Bitboard = 0x0101010101010101
	fileH chess.Bitboard = fileA << 7
)

// pawnCaptureSets returns the squares colour us's pawns attack towards the
// west and towards the east: the union of chess.PawnAttacks over pawns, one
// direction at a time, so that no square is counted once for two pawns.
func pawnCaptureSets(us chess.Color, pawns chess.Bitboard) (west, east chess.Bitboard) {
	if us == chess.White {
		return (pawns &^ fileA) << 7, (pawns &^ fileH) << 9
	}
	return (pawns &^ fileA) >> 9, (pawns &^ fileH) >> 7
}

// hasLegalMoveFast is HasLegalMove by the shortest route: out of check, a
// knight that can move or a pawn that can step, and that pins nothing open
// when it leaves, or a king step to an unattacked square, is a legal move;
// otherwise (or in check) every legal move is generated. A man on no line
// from its king opens none when it leaves, which spares most of them the
// sliders' look-ups.
func hasLegalMoveFast(b *chess.Board, inCheck bool) bool {
	if inCheck {
		return chess.HasLegalMove(b)
	}
	us := b.Turn()
	them := us.Other()
	ours := b.Pieces(us)
	occ := b.Occupied()
	k := b.KingSquare(us)
	lines := chess.QueenAttacks(k, 0)
	queens := b.PiecesOf(them, chess.Queen)
	straight := b.PiecesOf(them, chess.Rook) | queens
	diagonal := b.PiecesOf(them, chess.Bishop) | queens
	// Out of check only a slider can see the king once sq is left, and
	// only along a line through sq.
	free := func(sq chess.Square) bool {
		if !lines.Has(sq) {
			return true
		}
		left := occ &^ sq.Bit()
		return chess.RookAttacks(k, left)&straight|chess.BishopAttacks(k, left)&diagonal == 0
	}
	for ns := b.PiecesOf(us, chess.Knight); ns != 0; {
		sq := ns.PopFirst()
		if chess.KnightAttacks(sq)&^ours != 0 && free(sq) {
			return true
		}
	}
	for ps := b.PiecesOf(us, chess.Pawn); ps != 0; {
		sq := ps.PopFirst()
		to := sq + 8
		if us == chess.Black {
			to = sq - 8
		}
		if to.Valid() && !occ.Has(to) && free(sq) {
			return true
		}
	}
	for ts := chess.KingAttacks(k) &^ ours; ts != 0; {
		to := ts.PopFirst()
		if chess.AttackersWith(b, to, them, occ&^k.Bit()) == 0 {
			return true
		}
	}
	return chess.HasLegalMove(b)
}
