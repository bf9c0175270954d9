package invisible

import (
	"fmt"
	"math"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Model is a belief's opponent model: how likely, on a board the belief
// holds, each move of the opponent's invisible piece that it was told moved.
// The belief weighs a placement's destinations by it before it keeps those
// the announcement agrees with, so a model that expects captures makes a
// placement from which a capture was there to take, and was not taken,
// less likely. Every model gives every legal move a positive weight: the
// true placement never gets probability 0 (TestBeliefKeepsTheTruthOnRecordedGames).
type Model uint8

const (
	// Uniform is the paper's model: the piece is equally likely on each
	// square it can reach.
	Uniform Model = iota
	// Greedy is a softmax, at GreedyBeta per pawn, over a cheap score of
	// each move as its mover, who sees the whole board, would judge it: the
	// value of the man it takes, a pawn for a check, and half the moved
	// piece's value off when it lands where the side to be told can take
	// it.
	Greedy
)

// GreedyBeta is the greedy model's inverse temperature, per pawn of score:
// 0.5 gives a knight's capture exp(1.6) ≈ 5 times a quiet move's weight, a
// queen's 120 times, and a check 1.6 times. Of 0.25, 0.5, 1 and 2 it has
// the least log-loss of the recorded games' true placements (in sample:
// docs/invisible.md, "Opponent models"); 1 and 2 are overconfident.
const GreedyBeta = 0.5

// Models lists the models, by name.
func Models() []Model { return []Model{Uniform, Greedy} }

// ParseModel reads a model's name.
func ParseModel(s string) (Model, error) {
	for _, m := range Models() {
		if m.String() == s {
			return m, nil
		}
	}
	names := make([]string, 0, len(Models()))
	for _, m := range Models() {
		names = append(names, m.String())
	}
	return 0, fmt.Errorf("invisible: opponent model %q: want %s", s, strings.Join(names, " or "))
}

func (m Model) String() string {
	switch m {
	case Uniform:
		return "uniform"
	case Greedy:
		return "greedy"
	}
	return fmt.Sprintf("model(%d)", uint8(m))
}

// weights returns each move's relative likelihood on b (all moves of the
// side to move), in w's storage.
func (m Model) weights(b *chess.Board, moves []chess.Move, w []float64) []float64 {
	w = w[:0]
	for _, mv := range moves {
		if m != Greedy {
			w = append(w, 1)
			continue
		}
		w = append(w, math.Exp(GreedyBeta*greedyScore(b, mv)))
	}
	return w
}

// greedyScore is the greedy model's score of move mv on b, in pawns.
func greedyScore(b *chess.Board, mv chess.Move) float64 {
	mover := b.PieceAt(mv.From)
	score := float64(chess.PieceValue(b.PieceAt(mv.To).Type())) / 100
	after := *b
	after.Apply(mv)
	if chess.InCheck(&after) {
		score++
	}
	if after.Attacked(mv.To, after.Turn()) {
		score -= float64(chess.PieceValue(mover.Type())) / 200
	}
	return score
}
