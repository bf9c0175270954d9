package player

import (
	"math"

	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// prior is the player's model of the opponent, as a weight on each board of
// the belief before any board is sampled. The belief keeps every board that
// is consistent with what we saw and weighs them alike; but the opponent is
// not a random mover, so the boards it would have produced are likelier
// than their share. Two habits of every competent opponent are modelled,
// each a factor of the weight:
//
//   - it brings pieces toward our king (threat): exp(Threat·a), with a the
//     opponent's pieces bearing on our king's zone, plus Check when the king
//     itself is attacked;
//   - it does not leave material en prise (hang): exp(−h/Hang), with h the
//     most we could win at once on the board (an undefended piece, or a
//     piece attacked by a cheaper one of ours), capped at hangCap. A board on
//     which our king is attacked is exempt (a forking check leaves a piece
//     en prise on purpose), and so is the piece that has just captured ours
//     (it traded; it did not blunder).
//
// Both are static: a few attack look-ups a board, so the whole belief can be
// weighed within a decision (see scanPopulation), and the rare threatening
// board is in the sample at its prior share. When the boards before the
// opponent's move were few, the engine-scored reply model (replies.go)
// replaces the hang factor on the boards it scored.
type prior struct {
	us      rbc.Color
	threat  float64
	check   float64
	hang    float64    // temperature in centipawns; 0: off
	capture rbc.Square // where the opponent just captured, or NoSquare
	// replies, if set, is the engine-scored model of the opponent's last
	// move (replies.go): on the boards it knows, its factor takes the place
	// of the hang factor, which guesses the same thing statically.
	replies *replyModel
}

// hangCap bounds the material a hanging piece counts for: weak opponents do
// leave queens and kings en prise, so no board becomes nearly impossible.
const hangCap = 600

// newPrior returns the prior of a decision from the config.
func newPrior(cfg *Config, us rbc.Color, capture rbc.Square) prior {
	return prior{us: us, threat: cfg.Threat, check: cfg.Check, hang: cfg.Hang, capture: capture}
}

// withReplies returns the prior with the reply model r (nil: none).
func (p prior) withReplies(r *replyModel) prior {
	p.replies = r
	return p
}

// off reports whether every board gets weight 1.
func (p prior) off() bool {
	return p.threat <= 0 && p.hang <= 0 && p.replies == nil
}

// weight returns the prior weight of b (1 when the prior is off).
func (p prior) weight(b *rbc.Board) float64 {
	k := b.KingSquare(p.us)
	if k == rbc.NoSquare {
		return 1
	}
	them := p.us.Other()
	checked := b.Attacked(k, them)
	x := 0.0
	if p.threat > 0 {
		x += p.threat * zoneAttackers(b, k, them, checked, p.check)
	}
	if f, ok := p.replies.weight(b); ok {
		return math.Exp(x) * f
	}
	if p.hang > 0 && !checked {
		if h := min(hangingValue(b, p.us, p.capture), hangCap); h > 0 {
			x -= h / p.hang
		}
	}
	if x == 0 {
		return 1
	}
	return math.Exp(x)
}

// threatWeight is the threat part of the prior alone: exp(beta·a), a the
// opponent's pieces that attack our king's zone (the king's square and its
// neighbours), plus check if the king itself is attacked.
func threatWeight(b *rbc.Board, us rbc.Color, beta, check float64) float64 {
	return prior{us: us, threat: beta, check: check, capture: rbc.NoSquare}.weight(b)
}

// zoneAttackers counts the pieces of them that attack the zone of our king
// on k, plus check when the king itself is attacked.
func zoneAttackers(b *rbc.Board, k rbc.Square, them rbc.Color, checked bool, check float64) float64 {
	zone := rbc.KingAttacks(k) | k.Bit()
	occ := b.Occupied()
	a := 0.0
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		if attacksFrom(b.PieceAt(s), s, occ)&zone != 0 {
			a++
		}
	}
	if checked {
		a += check
	}
	return a
}

// hangingValue is the most material (centipawns) we could win at once on b
// from the opponent's pieces: the value of an undefended piece we attack, or
// of an attacked piece less its cheapest attacker of ours. An attacked enemy
// king counts as hangCap. The square skip (the piece that just captured) is
// left out.
func hangingValue(b *rbc.Board, us rbc.Color, skip rbc.Square) float64 {
	them := us.Other()
	occ := b.Occupied()
	best := 0
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		if s == skip {
			continue
		}
		low := cheapestAttacker(b, s, us, occ)
		if low == 0 {
			continue
		}
		t := b.PieceAt(s).Type()
		if t == rbc.King {
			return hangCap
		}
		v := embedded.PieceValue(t)
		if b.Attacked(s, them) {
			v -= low
		}
		best = max(best, v)
	}
	return float64(best)
}

// cheapestAttacker returns the value of the cheapest piece of c attacking s
// (0: none), with occupancy occ.
func cheapestAttacker(b *rbc.Board, s rbc.Square, c rbc.Color, occ rbc.Bitboard) int {
	switch {
	case rbc.PawnAttacks(c.Other(), s)&b.PiecesOf(c, rbc.Pawn) != 0:
		return embedded.PieceValue(rbc.Pawn)
	case rbc.KnightAttacks(s)&b.PiecesOf(c, rbc.Knight) != 0:
		return embedded.PieceValue(rbc.Knight)
	}
	diag := rbc.BishopAttacks(s, occ)
	if diag&b.PiecesOf(c, rbc.Bishop) != 0 {
		return embedded.PieceValue(rbc.Bishop)
	}
	line := rbc.RookAttacks(s, occ)
	switch {
	case line&b.PiecesOf(c, rbc.Rook) != 0:
		return embedded.PieceValue(rbc.Rook)
	case (diag|line)&b.PiecesOf(c, rbc.Queen) != 0:
		return embedded.PieceValue(rbc.Queen)
	case rbc.KingAttacks(s)&b.PiecesOf(c, rbc.King) != 0:
		return kingAttacker
	}
	return 0
}

// kingAttacker is the value cheapestAttacker gives our king: it takes only
// undefended pieces.
const kingAttacker = 10000

// attacksFrom returns the squares piece p on s attacks with occupancy occ.
func attacksFrom(p rbc.Piece, s rbc.Square, occ rbc.Bitboard) rbc.Bitboard {
	switch p.Type() {
	case rbc.Pawn:
		return rbc.PawnAttacks(p.Color(), s)
	case rbc.Knight:
		return rbc.KnightAttacks(s)
	case rbc.Bishop:
		return rbc.BishopAttacks(s, occ)
	case rbc.Rook:
		return rbc.RookAttacks(s, occ)
	case rbc.Queen:
		return rbc.QueenAttacks(s, occ)
	case rbc.King:
		return rbc.KingAttacks(s)
	}
	return 0
}
