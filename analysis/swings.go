package analysis

import (
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Ply is one move of a recorded game with the scores of the true board
// before and after it: the course of the game as an engine sees it, which
// neither player did. A move after which the score jumps decided something
// (a blunder, or the punishment of one made unseen a move before); those are
// the turns to look at with Follow.
type Ply struct {
	Turn   int         // the mover's own turn, from 1
	Color  chess.Color // the mover
	Record rbc.TurnRecord
	// Before and After score the board before and after the move, in
	// centipawns from White's side (evaluator.Score.Value: ±WinValue when
	// a king can be captured).
	Before, After int
}

// Swing is how far the move moved the score, from White's side.
func (p Ply) Swing() int { return p.After - p.Before }

// Scores scores the true board before and after every move of h with e at
// lim, in the order of play (each board once: the board after a move is the
// one before the next). A turn without a move (the game ended after its
// sense) ends the list.
func Scores(ctx context.Context, e evaluator.Evaluator, h *rbc.History, lim evaluator.Limits) ([]Ply, error) {
	score := func(fen string) (int, error) {
		b, err := chess.ParseFEN(fen)
		if err != nil {
			return 0, err
		}
		s, err := e.Evaluate(ctx, b, lim)
		if err != nil {
			return 0, err
		}
		if b.Turn() == chess.Black {
			return -s.Value(), nil
		}
		return s.Value(), nil
	}
	var out []Ply
	for i := 0; ; i++ {
		c := chess.White
		if i%2 == 1 {
			c = chess.Black
		}
		turn := i/2 + 1
		if turn > len(h.Turns[c]) || !h.Turns[c][turn-1].HasMove {
			return out, nil
		}
		p := Ply{Turn: turn, Color: c, Record: h.Turns[c][turn-1]}
		var err error
		if n := len(out); n > 0 && out[n-1].Record.FENAfter == p.Record.FENBefore {
			p.Before = out[n-1].After
		} else if p.Before, err = score(p.Record.FENBefore); err != nil {
			return out, fmt.Errorf("analysis: %s's turn %d, the board before the move: %w", c, turn, err)
		}
		if p.After, err = score(p.Record.FENAfter); err != nil {
			return out, fmt.Errorf("analysis: %s's turn %d, the board after the move: %w", c, turn, err)
		}
		out = append(out, p)
	}
}

// MoveText writes a move of a record for people: its UCI form, or "pass"
// for the null move (no move requested, or none taken).
func MoveText(m chess.Move) string {
	if m.IsNull() {
		return "pass"
	}
	return m.String()
}
