// Package oppmodel is the opponent model that both games' beliefs share: a
// static weight on a board for how likely the opponent was to leave it, and
// the priority sample that keeps boards in proportion to such weights.
//
// RBC's player weighs its belief's boards with it before it samples them
// (player.prior: the threat and hang factors), and Kriegspiel's exact
// belief can keep the boards it favours when it cuts its set to a sample
// (kriegspiel.Belief.SetWeightedCut: the near factor, Kriegspiel). The
// factors differ because the opponents see differently: measured on
// Kriegspiel records, an opponent that does not see our men neither attacks
// our king's zone nor avoids leaving men en prise more than a random mover
// would, but it does bring its pieces toward our king (docs/kriegspiel.md).
package oppmodel

import (
	"math"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Static is the static prior on a board b: each of its factors is a habit of
// every competent opponent, and it needs a few attack look-ups a board, so a
// whole belief can be weighed.
//
//   - the opponent brings pieces toward our king (threat): exp(Threat·a),
//     with a the opponent's pieces bearing on our king's zone, plus Check
//     when the king itself is attacked;
//   - it does not leave material en prise (hang): exp(−h/Hang), with h the
//     most we could win at once on the board (an undefended piece, or a
//     piece attacked by a cheaper one of ours), capped at HangCap. A board
//     on which our king is attacked is exempt (a forking check leaves a
//     piece en prise on purpose), and so is the piece on Capture, which has
//     just captured ours (it traded; it did not blunder);
//   - it brings its pieces out toward our king (near): exp(−Near·d), with d
//     the sum over its pieces but pawns and king of their distance (in king
//     steps) to our king.
type Static struct {
	Us            chess.Color
	Threat, Check float64
	Hang          float64      // temperature in centipawns; 0: off
	Capture       chess.Square // where the opponent just captured, or NoSquare
	Near          float64      // 0: off
}

// The strengths of the prior that RBC's player tuned (its threat, check and
// hang settings) and Kriegspiel's cut uses as they are.
const (
	DefaultThreat = 0.7
	DefaultCheck  = 2
	DefaultHang   = 300
)

// Default returns the prior of the player us with the default strengths,
// the opponent having just captured on capture (NoSquare: it did not).
func Default(us chess.Color, capture chess.Square) Static {
	return Static{Us: us, Threat: DefaultThreat, Check: DefaultCheck, Hang: DefaultHang, Capture: capture}
}

// KriegspielNear is the strength of the near factor that Kriegspiel's cut
// uses alone: on the exact sets of the committed games against the
// heuristic bot (docs/kriegspiel.md), the true board's weight under it is
// e^0.22 times the set's mean in the geometric mean over turns, where the
// threat and hang factors of RBC's player give e^-0.05.
const KriegspielNear = 0.25

// Kriegspiel returns the prior of Kriegspiel's cut for the player us.
func Kriegspiel(us chess.Color) Static {
	return Static{Us: us, Near: KriegspielNear, Capture: chess.NoSquare}
}

// HangCap bounds the material a hanging piece counts for: weak opponents do
// leave queens and kings en prise, so no board becomes nearly impossible.
const HangCap = 600

// Off reports whether every board gets weight 1.
func (s Static) Off() bool { return s.Threat <= 0 && s.Hang <= 0 && s.Near <= 0 }

// Weight returns the prior weight of b: 1 when the prior is off or our king
// is not on the board.
func (s Static) Weight(b *chess.Board) float64 {
	k := b.KingSquare(s.Us)
	if k == chess.NoSquare {
		return 1
	}
	them := s.Us.Other()
	checked := b.Attacked(k, them)
	x := 0.0
	if s.Threat > 0 {
		x += s.Threat * ZoneAttackers(b, k, them, checked, s.Check)
	}
	if s.Near > 0 {
		x -= s.Near * PieceDistance(b, k, them)
	}
	if s.Hang > 0 && !checked {
		if h := min(HangingValue(b, s.Us, s.Capture), HangCap); h > 0 {
			x -= h / s.Hang
		}
	}
	if x == 0 {
		return 1
	}
	return math.Exp(x)
}

// PieceDistance is the sum over the pieces of them but pawns and king of
// their distance in king steps to the square k.
func PieceDistance(b *chess.Board, k chess.Square, them chess.Color) float64 {
	d := 0
	for pieces := b.Pieces(them) &^ b.PiecesOf(them, chess.Pawn) &^ b.PiecesOf(them, chess.King); pieces != 0; {
		s := pieces.PopFirst()
		d += max(abs(s.File()-k.File()), abs(s.Rank()-k.Rank()))
	}
	return float64(d)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ZoneAttackers counts the pieces of them that attack the zone of our king
// on k (the king's square and its neighbours), plus check when the king
// itself is attacked (checked).
func ZoneAttackers(b *chess.Board, k chess.Square, them chess.Color, checked bool, check float64) float64 {
	zone := chess.KingAttacks(k) | k.Bit()
	occ := b.Occupied()
	a := 0.0
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		if chess.AttacksFrom(b.PieceAt(s), s, occ)&zone != 0 {
			a++
		}
	}
	if checked {
		a += check
	}
	return a
}

// HangingValue is the most material (centipawns) us could win at once on b
// from the other side's pieces: the value of an undefended piece we attack,
// or of an attacked piece less its cheapest attacker of ours. An attacked
// enemy king counts as HangCap. The square skip (the piece that just
// captured) is left out.
func HangingValue(b *chess.Board, us chess.Color, skip chess.Square) float64 {
	them := us.Other()
	occ := b.Occupied()
	best := 0
	for pieces := b.Pieces(them); pieces != 0; {
		s := pieces.PopFirst()
		if s == skip {
			continue
		}
		low := CheapestAttacker(b, s, us, occ)
		if low == 0 {
			continue
		}
		t := b.PieceAt(s).Type()
		if t == chess.King {
			return HangCap
		}
		v := chess.PieceValue(t)
		if b.Attacked(s, them) {
			v -= low
		}
		best = max(best, v)
	}
	return float64(best)
}

// CheapestAttacker returns the value of the cheapest piece of c attacking s
// (0: none; KingAttacker for the king), with occupancy occ.
func CheapestAttacker(b *chess.Board, s chess.Square, c chess.Color, occ chess.Bitboard) int {
	switch {
	case chess.PawnAttacks(c.Other(), s)&b.PiecesOf(c, chess.Pawn) != 0:
		return chess.PieceValue(chess.Pawn)
	case chess.KnightAttacks(s)&b.PiecesOf(c, chess.Knight) != 0:
		return chess.PieceValue(chess.Knight)
	}
	diag := chess.BishopAttacks(s, occ)
	if diag&b.PiecesOf(c, chess.Bishop) != 0 {
		return chess.PieceValue(chess.Bishop)
	}
	line := chess.RookAttacks(s, occ)
	switch {
	case line&b.PiecesOf(c, chess.Rook) != 0:
		return chess.PieceValue(chess.Rook)
	case (diag|line)&b.PiecesOf(c, chess.Queen) != 0:
		return chess.PieceValue(chess.Queen)
	case chess.KingAttacks(s)&b.PiecesOf(c, chess.King) != 0:
		return KingAttacker
	}
	return 0
}

// KingAttacker is the value CheapestAttacker gives a king: it takes only
// undefended pieces.
const KingAttacker = 10000
