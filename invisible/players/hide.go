package players

import (
	"math"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// hideModel is a player's model of its opponent's belief of the player's own
// invisible pieces, for the move-hide advisor. The opponent's true belief
// depends on its own invisible pieces and on its tries' answers, which the
// player does not see; the model uses what the player does see: its own
// moves as the opponent is told them (a spread over the squares an
// invisible piece can reach on the board without the opponent's invisible
// pieces; a visible move shows its path empty), and the opponent's visible
// moves (their paths were clear of the player's pieces). When the model
// contradicts itself it falls back to the truth: the opponent then knows.
type hideModel struct {
	probs map[invisible.Placement]float64
}

func newHideModel(own invisible.Placement) *hideModel {
	return &hideModel{probs: map[invisible.Placement]float64{own: 1}}
}

func (h *hideModel) entropy() float64 {
	e := 0.0
	for _, p := range h.probs {
		if p > 0 {
			e -= p * math.Log2(p)
		}
	}
	return e
}

// pathOf is the squares a move's piece crosses or lands on, for a visible
// move: none of the mover's other pieces stands there.
func pathOf(m chess.Move) chess.Bitboard {
	return chess.Between(m.From, m.To) | m.To.Bit()
}

// spread is the model after the player's invisible piece id moved, on
// board v (the player's view with its own invisible pieces removed),
// announced with capture square and checkers (on the opponent's king).
func (h *hideModel) spread(v *chess.Board, kinds [invisible.MaxPieces]chess.PieceType, id int8, capture chess.Square, checkers uint8) map[invisible.Placement]float64 {
	us := v.Turn()
	out := map[invisible.Placement]float64{}
	theirs := v.Pieces(us.Other())
	theirKing := v.KingSquare(us.Other())
	for pl, p := range h.probs {
		from := pl[id]
		if from == chess.NoSquare {
			continue
		}
		occ := v.Occupied() | pl.Bits()
		reach := attacks(kinds[id], from, occ) &^ (v.Pieces(us) | pl.Bits())
		n := reach.Count()
		if n == 0 {
			continue
		}
		for r := reach; r != 0; {
			to := r.PopFirst()
			if (capture == chess.NoSquare) == theirs.Has(to) || (capture != chess.NoSquare && to != capture) {
				continue
			}
			np := pl
			np[id] = to
			if theirKing != chess.NoSquare && checkersAt(np, kinds, theirKing, (occ&^from.Bit())|to.Bit()) != checkers {
				continue
			}
			out[np] += p / float64(n)
		}
	}
	return out
}

// checkersAt is the set of pieces at pl that attack square k with the given
// occupancy.
func checkersAt(pl invisible.Placement, kinds [invisible.MaxPieces]chess.PieceType, k chess.Square, occ chess.Bitboard) uint8 {
	var set uint8
	for i, s := range pl {
		if s != chess.NoSquare && attacks(kinds[i], s, occ).Has(k) {
			set |= 1 << i
		}
	}
	return set
}

func attacks(t chess.PieceType, s chess.Square, occ chess.Bitboard) chess.Bitboard {
	switch t {
	case chess.Knight:
		return chess.KnightAttacks(s)
	case chess.Bishop:
		return chess.BishopAttacks(s, occ)
	case chess.Rook:
		return chess.RookAttacks(s, occ)
	case chess.Queen:
		return chess.QueenAttacks(s, occ)
	}
	return 0
}

// filter keeps the placements with no piece on the squares bb.
func (h *hideModel) filter(bb chess.Bitboard) map[invisible.Placement]float64 {
	out := map[invisible.Placement]float64{}
	for pl, p := range h.probs {
		if pl.Bits()&bb == 0 {
			out[pl] = p
		}
	}
	return out
}

// set replaces the model by m, normalised, or by the truth when m is empty.
func (h *hideModel) set(m map[invisible.Placement]float64, truth invisible.Placement) {
	sum := 0.0
	for _, p := range m {
		sum += p
	}
	if sum <= 0 {
		h.probs = map[invisible.Placement]float64{truth: 1}
		return
	}
	for k, p := range m {
		m[k] = p / sum
	}
	h.probs = m
}

// entropyOf is a distribution's entropy after normalising it.
func entropyOf(m map[invisible.Placement]float64) float64 {
	sum := 0.0
	for _, p := range m {
		sum += p
	}
	if sum <= 0 {
		return 0
	}
	e := 0.0
	for _, p := range m {
		if q := p / sum; q > 0 {
			e -= q * math.Log2(q)
		}
	}
	return e
}

// captured records that the piece id of the player's was captured on s:
// the opponent knows it stood there.
func (h *hideModel) captured(id int, s chess.Square, truth invisible.Placement) {
	out := map[invisible.Placement]float64{}
	for pl, p := range h.probs {
		if pl[id] == s {
			pl[id] = chess.NoSquare
			out[pl] += p
		}
	}
	h.set(out, truth)
}
