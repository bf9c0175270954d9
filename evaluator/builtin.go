package evaluator

import (
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/embedded"
)

// Embedded is the built-in evaluator: the guard's terminal rules, then the
// embedded package's alpha-beta search on the RBC rules. It needs no
// external program, so the player works on machines without Stockfish, and
// it also scores the boards the guard keeps away from Stockfish.
//
// With zero Limits it searches to embedded.DefaultDepth. Nodes counts the
// embedded search's own nodes (not comparable with Stockfish's) and MoveTime
// becomes a deadline on the context.
type Embedded struct {
	engine *embedded.Engine
}

// NewEmbedded returns the built-in evaluator.
func NewEmbedded() *Embedded { return &Embedded{engine: embedded.New()} }

// Name returns "embedded".
func (e *Embedded) Name() string { return "embedded" }

// Close does nothing: the embedded evaluator holds no resources.
func (e *Embedded) Close() error { return nil }

// Evaluate scores b for its side to move.
func (e *Embedded) Evaluate(ctx context.Context, b chess.Board, lim Limits) (Score, error) {
	g := Guard(&b)
	if g.Route == RouteTerminal {
		return g.Score, nil
	}
	s, err := e.search(ctx, b, lim)
	s.Rule = g.Rule
	return s, err
}

// search runs the embedded search on any board that has both kings.
func (e *Embedded) search(ctx context.Context, b chess.Board, lim Limits) (Score, error) {
	if lim.MoveTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.MoveTime)
		defer cancel()
		if lim.Depth <= 0 && lim.Nodes <= 0 {
			lim.Depth = embedded.MaxPly / 2 // time alone bounds the search
		}
	}
	r, err := e.engine.Search(ctx, b, embedded.Limits{Depth: lim.Depth, Nodes: lim.Nodes})
	if err != nil {
		return Score{}, fmt.Errorf("evaluator: embedded search: %w", err)
	}
	s := Score{Source: FromEmbedded, Depth: r.Depth, Nodes: r.Nodes}
	if d := embedded.CaptureDistance(r.Score); d != 0 {
		s.Mate = d
	} else {
		s.CP = r.Score
	}
	return s, nil
}
