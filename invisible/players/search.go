package players

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
)

// mate is the score of being checkmated now (centipawns, side to move's
// view); a mate found deeper scores less, so that a nearer one is preferred.
const mate = 20000

// searcher is a small fixed-depth chess search on one full board: the
// strategic advisor's engine. The paper ran GNU Chess at a fixed depth on
// every possible board; this is the same idea on the chess core's legal
// moves and the embedded evaluator, with no allocation per node, because it
// runs on every try of every possible board of every turn.
type searcher struct {
	bufs  [16][256]chess.Move
	nodes int64
}

// maxQ bounds the capture search below the full-width plies.
const maxQ = 4

// search returns b's score for the side to move after depth full-width
// plies and a capture search.
func (s *searcher) search(b *chess.Board, depth, alpha, beta, ply int) int {
	s.nodes++
	if depth <= 0 {
		return s.quiesce(b, alpha, beta, ply, 0)
	}
	moves := chess.AppendLegalMoves(b, s.bufs[ply%16][:0])
	if len(moves) == 0 {
		if chess.InCheck(b) {
			return -mate + ply
		}
		return 0
	}
	orderMoves(b, moves)
	for _, m := range moves {
		c := *b
		c.Apply(m)
		v := -s.search(&c, depth-1, -beta, -alpha, ply+1)
		if v >= beta {
			return v
		}
		alpha = max(alpha, v)
	}
	return alpha
}

func (s *searcher) quiesce(b *chess.Board, alpha, beta, ply, q int) int {
	s.nodes++
	us := b.Turn()
	them := us.Other()
	// Mate and stalemate are looked for where they can be: in check, or
	// with nothing but king and pawns (a full move generation is most of a
	// leaf's cost, so it is not paid everywhere).
	if q == 0 && (chess.InCheck(b) || b.Pieces(us)&^b.PiecesOf(us, chess.Pawn)&^b.PiecesOf(us, chess.King) == 0) && !chess.HasLegalMove(b) {
		if chess.InCheck(b) {
			return -mate + ply
		}
		return 0
	}
	stand := embedded.Evaluate(b)
	if q >= maxQ || stand >= beta {
		return stand
	}
	alpha = max(alpha, stand)
	moves := appendCaptures(b, s.bufs[ply%16][:0])
	orderMoves(b, moves)
	for _, m := range moves {
		c := *b
		c.Apply(m)
		if k := c.KingSquare(us); k != chess.NoSquare && c.Attacked(k, them) {
			continue // not legal
		}
		v := -s.quiesce(&c, -beta, -alpha, ply+1, q+1)
		if v >= beta {
			return v
		}
		alpha = max(alpha, v)
	}
	return alpha
}

// appendCaptures appends the side to move's pseudo-legal captures and
// queen promotions (no en passant): the capture search's moves, made from
// the attack tables without generating every move.
func appendCaptures(b *chess.Board, dst []chess.Move) []chess.Move {
	us := b.Turn()
	theirs, occ := b.Pieces(us.Other()), b.Occupied()
	for t := chess.Pawn; t <= chess.King; t++ {
		for bb := b.PiecesOf(us, t); bb != 0; {
			from := bb.PopFirst()
			var targets chess.Bitboard
			switch t {
			case chess.Pawn:
				targets = chess.PawnAttacks(us, from) & theirs
				push := from + 8
				if us == chess.Black {
					push = from - 8
				}
				if chess.BackRanks.Has(push) && !occ.Has(push) {
					dst = append(dst, chess.Move{From: from, To: push, Promotion: chess.Queen})
				}
				for ; targets != 0; targets &= targets - 1 {
					to := targets.First()
					m := chess.Move{From: from, To: to}
					if chess.BackRanks.Has(to) {
						m.Promotion = chess.Queen
					}
					dst = append(dst, m)
				}
				continue
			default:
				targets = chess.AttacksFrom(chess.MakePiece(us, t), from, occ)
			}
			for targets &= theirs; targets != 0; {
				dst = append(dst, chess.Move{From: from, To: targets.PopFirst()})
			}
		}
	}
	return dst
}

// orderMoves puts captures first, the most valuable victim by the least
// valuable attacker first (insertion sort: the lists are short).
func orderMoves(b *chess.Board, moves []chess.Move) {
	key := func(m chess.Move) int {
		v := b.PieceAt(m.To)
		if v == chess.NoPiece {
			if m.Promotion == chess.Queen {
				return 800
			}
			return 0
		}
		return 10*chess.PieceValue(v.Type()) - chess.PieceValue(b.PieceAt(m.From).Type())/10
	}
	for i := 1; i < len(moves); i++ {
		m, k := moves[i], key(moves[i])
		j := i
		for j > 0 && key(moves[j-1]) < k {
			moves[j] = moves[j-1]
			j--
		}
		moves[j] = m
	}
}
