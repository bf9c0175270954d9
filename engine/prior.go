package engine

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
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
//     piece attacked by a cheaper one of ours), capped at oppmodel.HangCap. A board on
//     which our king is attacked is exempt (a forking check leaves a piece
//     en prise on purpose), and so is the piece that has just captured ours
//     (it traded; it did not blunder).
//
// Both are oppmodel.Static, which Kriegspiel's cut belief shares. Both are
// static: a few attack look-ups a board, so the whole belief can be
// weighed within a decision (see scanPopulation), and the rare threatening
// board is in the sample at its prior share. When the boards before the
// opponent's move were few, the engine-scored reply model (replies.go)
// replaces the hang factor on the boards it scored.
type prior struct {
	us      chess.Color
	threat  float64
	check   float64
	hang    float64      // temperature in centipawns; 0: off
	capture chess.Square // where the opponent just captured, or NoSquare
	// replies, if set, is the engine-scored model of the opponent's last
	// move (replies.go): on the boards it knows, its factor takes the place
	// of the hang factor, which guesses the same thing statically.
	replies *replyModel
}

// newPrior returns the prior of a decision from the config.
func newPrior(cfg *Config, us chess.Color, capture chess.Square) prior {
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

// weight returns the prior weight of b (1 when the prior is off): the
// shared static prior, whose hang factor the reply model replaces on the
// boards it scored.
func (p prior) weight(b *chess.Board) float64 {
	if b.KingSquare(p.us) == chess.NoSquare {
		return 1
	}
	s := oppmodel.Static{Us: p.us, Threat: p.threat, Check: p.check, Hang: p.hang, Capture: p.capture}
	if f, ok := p.replies.weight(b); ok {
		s.Hang = 0
		return s.Weight(b) * f
	}
	return s.Weight(b)
}

// threatWeight is the threat part of the prior alone: exp(beta·a), a the
// opponent's pieces that attack our king's zone (the king's square and its
// neighbours), plus check if the king itself is attacked.
func threatWeight(b *chess.Board, us chess.Color, beta, check float64) float64 {
	return prior{us: us, threat: beta, check: check, capture: chess.NoSquare}.weight(b)
}
