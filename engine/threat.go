package engine

import (
	"github.com/blindfish-rbc/blindfish/chess"
)

// threatScan finds forced king losses one move deep with our own move
// generator, no engine: after the opponent's move, every option we have
// leaves our king capturable (a mate in one, in RBC terms, since a king is
// captured rather than mated). The engine sees these too, but only on the
// few boards the deadline lets it score; the scan takes microseconds a board,
// so it runs on the whole sample, and the rare board holding the queen that
// mates on f7 is not missed. It keeps its move lists between calls; one scan
// serves one goroutine.
type threatScan struct {
	theirs, ours []chess.Move
}

// mates reports whether the side to move on b can move so that every option
// of the other side leaves its king capturable, or captures that king at
// once. An option that captures the mover's king counts as an escape.
func (s *threatScan) mates(b *chess.Board) bool {
	them := b.Turn()
	us := them.Other()
	k := b.KingSquare(us)
	if k == chess.NoSquare || b.KingMissing(them) {
		return false // decided already: not a threat
	}
	if b.Attacked(k, them) {
		return true // the king can be taken now
	}
	s.theirs = b.AppendOptions(s.theirs[:0])
	for _, m := range s.theirs {
		if m.IsNull() {
			continue
		}
		after := *b
		after.Apply(m)
		// A move that leaves their own king capturable by us is no threat:
		// we take it first.
		if after.KingCapturable() {
			continue
		}
		k := after.KingSquare(us)
		if k == chess.NoSquare || !after.Attacked(k, them) {
			continue
		}
		if !s.escapes(&after) {
			return true
		}
	}
	return false
}

// escapes reports whether the side to move on b (its king attacked) has an
// option after which its king cannot be captured.
func (s *threatScan) escapes(b *chess.Board) bool {
	s.ours = b.AppendOptions(s.ours[:0])
	for _, r := range s.ours {
		after := *b
		after.Apply(r)
		if !after.KingCapturable() {
			return true
		}
	}
	return false
}

// matedAfter reports whether our taken move on b lets the opponent force the
// capture of our king on its next move (see mates).
func (s *threatScan) matedAfter(b *chess.Board, taken chess.Move) bool {
	after := *b
	after.Apply(taken)
	return s.mates(&after)
}

// threatened reports whether the opponent could force the capture of our
// king if we passed: the threat a sense should look for.
func (s *threatScan) threatened(b *chess.Board) bool {
	return s.matedAfter(b, chess.Move{})
}
