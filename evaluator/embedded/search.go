package embedded

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Win is the score of capturing the enemy king now. A king capture found
// deeper scores Win − ply, so a nearer win scores higher; scores beyond
// ±(Win − MaxPly) are forced results (see CaptureDistance).
const Win = 30000

// MaxPly bounds the search depth including quiescence.
const MaxPly = 64

// DefaultDepth is the depth searched when the limits set none. Depth 3 plus
// quiescence sees a king left en prise after the opponent's reply and simple
// tactics, at a few thousand evaluations per second per core.
const DefaultDepth = 3

// maxQCheck is how many quiescence plies may answer a check with captures
// and king moves instead of standing pat; deeper, a side in check takes the
// static score. RBC positions are full of checks, and more plies cost nodes
// (on recorded games the worst case grew from 68k to 104k nodes at 2) for
// little gain, since the full-width search finds real mates itself.
const maxQCheck = 1

// Limits bounds a search. Zero fields are unset; with neither set the search
// goes to DefaultDepth. The context bounds time.
type Limits struct {
	// Depth is the deepest iteration (plies before quiescence).
	Depth int
	// Nodes stops the search after about this many nodes. The first
	// iteration always completes so that a result exists.
	Nodes int64
}

// Result is the outcome of a search.
type Result struct {
	// Score is from the side to move's view: centipawns, or ±(Win − ply) for
	// a forced king capture.
	Score int
	// Best is the best option found (the null move stands for a pass).
	Best chess.Move
	// Depth is the deepest completed iteration (0 when the side to move
	// could capture the king at the root).
	Depth int
	// Nodes counts the nodes visited, quiescence included.
	Nodes int64
}

// CaptureDistance converts a forced-result score to the RBC king-capture
// distance: n > 0 when the side to move captures the enemy king on its n-th
// move from now, n < 0 when the opponent captures ours on its |n|-th move,
// and 0 for an ordinary score.
func CaptureDistance(score int) int {
	switch {
	case score > Win-MaxPly:
		return (Win-score)/2 + 1
	case score < -(Win - MaxPly):
		return -((Win + score + 1) / 2)
	}
	return 0
}

// Engine runs searches. It keeps per-search buffers for reuse, so searches do
// not allocate in steady state. An Engine is safe for concurrent use; each
// call searches on its own buffers.
type Engine struct {
	pool sync.Pool
}

// New returns an engine.
func New() *Engine {
	return &Engine{pool: sync.Pool{New: func() any { return new(searcher) }}}
}

// errAbort unwinds a search that hit its context or node limit.
var errAbort = errors.New("embedded: search aborted")

// Search scores b by iterative deepening up to the limits. It returns the
// deepest completed iteration. It fails only when ctx ends before the first
// iteration completes; the error then wraps ctx.Err().
func (e *Engine) Search(ctx context.Context, b chess.Board, lim Limits) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("embedded: search not started: %w", err)
	}
	if b.KingMissing(b.Turn()) {
		return Result{Score: -Win}, nil
	}
	if b.KingCapturable() {
		return Result{Score: Win, Best: kingCapture(&b)}, nil
	}
	depth := lim.Depth
	if depth <= 0 {
		depth = DefaultDepth
		if lim.Nodes > 0 {
			depth = MaxPly / 2
		}
	}
	depth = min(depth, MaxPly/2)

	s := e.pool.Get().(*searcher)
	defer e.pool.Put(s)
	s.reset(ctx, lim.Nodes)

	var res Result
	for d := 1; d <= depth; d++ {
		s.limitOn = d > 1
		score, err := s.root(&b, d, res.Best)
		if err != nil {
			if d == 1 {
				return Result{Nodes: s.nodes}, fmt.Errorf("embedded: search stopped before depth 1: %w", ctx.Err())
			}
			break
		}
		res = Result{Score: score, Best: s.rootBest, Depth: d, Nodes: s.nodes}
		if score > Win-MaxPly || score < -(Win-MaxPly) {
			break // a forced result does not change with depth
		}
	}
	res.Nodes = s.nodes
	return res, nil
}

// kingCapture returns a move of the side to move that captures an enemy king.
func kingCapture(b *chess.Board) chess.Move {
	var buf [256]chess.Move
	kings := b.PiecesOf(b.Turn().Other(), chess.King)
	for _, m := range b.AppendOptions(buf[:0]) {
		if !m.IsNull() && kings.Has(m.To) {
			return m
		}
	}
	return chess.Move{}
}

// searcher holds the state of one search.
type searcher struct {
	ctx      context.Context
	nodes    int64
	maxNodes int64
	limitOn  bool // whether the node limit applies (not in the first iteration)
	rootBest chess.Move
	moves    [MaxPly + 1][256]chess.Move
	order    [MaxPly + 1][256]int32
	killers  [MaxPly + 1][2]chess.Move
}

func (s *searcher) reset(ctx context.Context, maxNodes int64) {
	s.ctx, s.nodes, s.maxNodes, s.limitOn = ctx, 0, maxNodes, false
	s.rootBest = chess.Move{}
	s.killers = [MaxPly + 1][2]chess.Move{}
}

// visit counts a node and reports whether the search must stop.
func (s *searcher) visit() error {
	s.nodes++
	if s.limitOn && s.maxNodes > 0 && s.nodes > s.maxNodes {
		return errAbort
	}
	if s.nodes&1023 == 0 && s.ctx.Err() != nil {
		return errAbort
	}
	return nil
}

// root searches the root to depth d, trying hint first.
func (s *searcher) root(b *chess.Board, d int, hint chess.Move) (int, error) {
	moves := s.generate(b, 0, false, hint, false)
	alpha, beta := -Win-1, Win+1
	best := chess.Move{}
	for _, m := range moves {
		child := *b
		child.Apply(m)
		score, err := s.alphaBeta(&child, d-1, -beta, -alpha, 1)
		if err != nil {
			return 0, err
		}
		score = -score
		if score > alpha {
			alpha, best = score, m
		}
	}
	s.rootBest = best
	return alpha, nil
}

func (s *searcher) alphaBeta(b *chess.Board, depth, alpha, beta, ply int) (int, error) {
	if b.KingCapturable() {
		return Win - ply, nil
	}
	if depth <= 0 || ply >= MaxPly {
		return s.quiesce(b, alpha, beta, ply, 0)
	}
	if err := s.visit(); err != nil {
		return 0, err
	}
	moves := s.generate(b, ply, false, chess.Move{}, false)
	best := -Win - 1
	for _, m := range moves {
		child := *b
		capture := child.Apply(m)
		score, err := s.alphaBeta(&child, depth-1, -beta, -alpha, ply+1)
		if err != nil {
			return 0, err
		}
		score = -score
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			if capture == chess.NoSquare && !m.IsNull() && s.killers[ply][0] != m {
				s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], m
			}
			break
		}
	}
	return best, nil
}

// quiesce searches captures and promotions until the position is quiet. A
// side whose king is attacked may not stand pat (the opponent would take
// the king), so for a few plies it also tries king moves; blocks are not
// searched, so a loss found that way falls back to the static score.
func (s *searcher) quiesce(b *chess.Board, alpha, beta, ply, qply int) (int, error) {
	if b.KingCapturable() {
		return Win - ply, nil
	}
	if err := s.visit(); err != nil {
		return 0, err
	}
	stand := Evaluate(b)
	if ply >= MaxPly {
		return stand, nil
	}
	us := b.Turn()
	inCheck := false
	if k := b.KingSquare(us); k != chess.NoSquare {
		inCheck = b.Attacked(k, us.Other())
	}
	if inCheck && qply >= maxQCheck {
		return stand, nil
	}
	best := -Win - 1
	if !inCheck {
		if stand >= beta {
			return stand, nil
		}
		best = stand
		alpha = max(alpha, stand)
	}
	for _, m := range s.generate(b, ply, true, chess.Move{}, inCheck) {
		if !inCheck && m.Promotion == chess.NoPieceType {
			// Delta pruning: even winning the piece outright cannot reach alpha.
			if stand+chess.PieceValue(b.PieceAt(b.CaptureSquare(m)).Type())+200 <= alpha {
				continue
			}
		}
		child := *b
		child.Apply(m)
		score, err := s.quiesce(&child, -beta, -alpha, ply+1, qply+1)
		if err != nil {
			return 0, err
		}
		score = -score
		if score > best {
			best = score
		}
		if score > alpha {
			alpha = score
		}
		if alpha >= beta {
			break
		}
	}
	if inCheck && best < -(Win-MaxPly) {
		// Only captures and king moves were tried; a block might still
		// save the king, so a loss found here is not trusted as forced.
		return stand, nil
	}
	return best, nil
}

// generate returns the options of the side to move at ply, best first: the
// hint, captures by most valuable victim then least valuable attacker, queen
// promotions, killers, quiet moves, and the pass last. With noisyOnly it
// keeps only captures and promotions, and king moves if kingMoves is set.
func (s *searcher) generate(b *chess.Board, ply int, noisyOnly bool, hint chess.Move, kingMoves bool) []chess.Move {
	kings := chess.Bitboard(0)
	if kingMoves {
		kings = b.PiecesOf(b.Turn(), chess.King)
	}
	all := b.AppendOptions(s.moves[ply][:0])
	order := s.order[ply][:0]
	kept := all[:0]
	for _, m := range all {
		var key int32
		switch {
		case m.IsNull():
			if noisyOnly {
				continue
			}
			key = -1 << 20
		case m == hint:
			key = 1 << 24
		default:
			victim := b.CaptureSquare(m)
			switch {
			case victim != chess.NoSquare:
				key = 1<<20 + int32(chess.PieceValue(b.PieceAt(victim).Type()))*16 - int32(b.PieceAt(m.From).Type())
			case m.Promotion == chess.Queen:
				key = 1 << 19
			case noisyOnly && !kings.Has(m.From):
				continue
			case m == s.killers[ply][0]:
				key = 1 << 18
			case m == s.killers[ply][1]:
				key = 1<<18 - 1
			}
			if m.Promotion != chess.NoPieceType && m.Promotion != chess.Queen {
				key -= 1 << 17 // under-promotions last among their kind
			}
		}
		kept = append(kept, m)
		order = append(order, key)
	}
	// Insertion sort: stable, so equal keys keep generation order and the
	// search stays deterministic.
	for i := 1; i < len(kept); i++ {
		m, k := kept[i], order[i]
		j := i
		for ; j > 0 && order[j-1] < k; j-- {
			kept[j], order[j] = kept[j-1], order[j-1]
		}
		kept[j], order[j] = m, k
	}
	return kept
}
