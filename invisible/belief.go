package invisible

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Belief is one side's exact distribution over the placements of its
// opponent's invisible pieces: with at most two pieces it has at most a few
// thousand placements, so it is kept whole, never sampled.
type Belief struct {
	Places []Placement
	Probs  []float64
}

// Entropy is the belief's entropy in bits, over joint placements.
func (b *Belief) Entropy() float64 { return entropy(b.Probs) }

func entropy(ps []float64) float64 {
	h := 0.0
	for _, p := range ps {
		if p > 0 {
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Prob returns the probability of placement pl.
func (b *Belief) Prob(pl Placement) float64 {
	for i, q := range b.Places {
		if q == pl {
			return b.Probs[i]
		}
	}
	return 0
}

// Marginals returns, per piece id, the probability of each square (a
// captured piece has none).
func (b *Belief) Marginals() [MaxPieces][64]float64 {
	var m [MaxPieces][64]float64
	for i, pl := range b.Places {
		for id, s := range pl {
			if s != chess.NoSquare {
				m[id][s] += b.Probs[i]
			}
		}
	}
	return m
}

// ErrLost is wrapped when an update leaves a belief no placement: what was
// told contradicts everything the belief held (a bug, or a record not of
// this game).
var ErrLost = errors.New("invisible: belief lost")

// Tracker follows a game from one side: its view of the board (its own men
// and the opponent's visible ones, with the true castling rights, en-passant
// square and counters) and its belief of the opponent's invisible pieces.
// It learns only what the referee tells the side, so that bots and the
// belief test use the same knowledge the rules give.
type Tracker struct {
	Color chess.Color
	// View is the board without the opponent's invisible pieces.
	View chess.Board
	// Own is where the side's own invisible pieces stand.
	Own Placement
	// OwnKinds and TheirKinds are the piece types of the invisible pieces
	// by id.
	OwnKinds, TheirKinds [MaxPieces]chess.PieceType
	Belief               Belief
	// Model is the opponent model of the belief's updates on an invisible
	// piece's move (Uniform, the paper's, unless set).
	Model Model
}

// NewTracker returns side c's tracker at the start of a game.
func NewTracker(c chess.Color, cfg [2]Config) *Tracker {
	pos := Start(cfg)
	t := &Tracker{Color: c, View: pos.View(c), Own: pos.Inv[c], OwnKinds: pos.Kinds[c], TheirKinds: pos.Kinds[c.Other()]}
	t.Belief = Belief{Places: []Placement{pos.Inv[c.Other()]}, Probs: []float64{1}}
	return t
}

// Board returns the board the view and placement pl of the opponent's
// invisible pieces make: the true board, when pl is the true placement.
func (t *Tracker) Board(pl Placement) chess.Board {
	return fill(t.View, pl, t.Color.Other(), t.TheirKinds)
}

func fill(v chess.Board, pl Placement, c chess.Color, kinds [MaxPieces]chess.PieceType) chess.Board {
	for i, s := range pl {
		if s != chess.NoSquare {
			v.SetPiece(s, chess.MakePiece(c, kinds[i]))
		}
	}
	return v
}

func strip(b chess.Board, pl Placement) chess.Board {
	for _, s := range pl {
		if s != chess.NoSquare {
			b.SetPiece(s, chess.NoPiece)
		}
	}
	return b
}

// after plays m on board b (the opponent's invisible pieces at pl, which
// owns them) and returns the new board and where those pieces then stand.
func after(b chess.Board, pl Placement, m chess.Move, owner chess.Color) (chess.Board, Placement) {
	c := castlingOf(&b, m)
	movedOwner := b.Turn() == owner
	captured := b.Apply(m)
	for i, s := range pl {
		switch {
		case s == chess.NoSquare:
		case movedOwner && s == m.From:
			pl[i] = m.To
		case movedOwner && c != nil && s == c.rook:
			pl[i] = c.dest
		case !movedOwner && s == captured:
			pl[i] = chess.NoSquare
		}
	}
	return b, pl
}

// OnAnswer takes the referee's answer to the side's try m: the belief keeps
// the placements under which the referee would have answered the same, and
// a possible try is played on the view, an impossible one forfeits it.
func (t *Tracker) OnAnswer(m chess.Move, a Answer) error {
	them := t.Color.Other()
	var nb Belief
	var view chess.Board
	for i, pl := range t.Belief.Places {
		b := t.Board(pl)
		if Classify(&b, pl, m) != a {
			continue
		}
		switch a.Outcome {
		case Possible:
			b2, pl2 := after(b, pl, m, them)
			pl = pl2
			view = strip(b2, pl2)
		case Impossible:
			b.Apply(chess.Move{})
			view = strip(b, pl)
		}
		nb.Places = append(nb.Places, pl)
		nb.Probs = append(nb.Probs, t.Belief.Probs[i])
	}
	if len(nb.Places) == 0 {
		return fmt.Errorf("%w: no placement answers %v %+v", ErrLost, m, a)
	}
	if a.Outcome == Possible {
		if id, ok := t.Own.Has(m.From); ok {
			t.Own[id] = m.To
		} else if c := castlingOf(&t.View, m); c != nil {
			if id, ok := t.Own.Has(c.rook); ok {
				t.Own[id] = c.dest
			}
		}
	}
	if a.Outcome != Illegal {
		t.View = view
	}
	nb.normalize()
	t.Belief = nb
	return nil
}

// OnSeen takes what the side is told of its opponent's turn. A visible move
// keeps the placements on which it is legal; a move of invisible piece k
// spreads each placement over the squares k can reach there, weighted by
// the tracker's Model (the paper's: each equally likely), keeping those the
// announcement (a capture's square, the checkers) agrees with.
func (t *Tracker) OnSeen(s Seen) error {
	them := t.Color.Other()
	merged := map[Placement]float64{}
	var order []Placement
	add := func(pl Placement, p float64) {
		if _, ok := merged[pl]; !ok {
			order = append(order, pl)
		}
		merged[pl] += p
	}
	var view chess.Board
	found := false
	var buf [256]chess.Move
	var wbuf [256]float64
	for i, pl := range t.Belief.Places {
		p := t.Belief.Probs[i]
		b := t.Board(pl)
		switch {
		case s.Forfeit:
			b.Apply(chess.Move{})
			view, found = strip(b, pl), true
			add(pl, p)
		case s.Moved < 0:
			if !chess.IsLegal(&b, s.Move) {
				continue
			}
			b2, pl2 := after(b, pl, s.Move, them)
			if checkersOf(&b2, pl2) != s.Checkers {
				continue
			}
			view, found = strip(b2, pl2), true
			add(pl2, p)
		default:
			from := pl[s.Moved]
			if from == chess.NoSquare {
				continue
			}
			var moves []chess.Move
			for _, m := range chess.AppendLegalMoves(&b, buf[:0]) {
				if m.From == from {
					moves = append(moves, m)
				}
			}
			w := t.Model.weights(&b, moves, wbuf[:0])
			sum := 0.0
			for _, x := range w {
				sum += x
			}
			for j, m := range moves {
				mine := t.View.Pieces(t.Color).Has(m.To)
				if (s.Capture == chess.NoSquare && mine) || (s.Capture != chess.NoSquare && m.To != s.Capture) {
					continue
				}
				b2, pl2 := after(b, pl, m, them)
				if checkersOf(&b2, pl2) != s.Checkers {
					continue
				}
				view, found = strip(b2, pl2), true
				add(pl2, p*w[j]/sum)
			}
		}
	}
	if !found {
		return fmt.Errorf("%w: no placement explains the opponent's turn %+v", ErrLost, s)
	}
	captured := s.Capture
	if s.Moved < 0 && !s.Forfeit && t.View.Pieces(t.Color).Has(s.Move.To) {
		captured = s.Move.To
	}
	if captured != chess.NoSquare {
		if id, ok := t.Own.Has(captured); ok {
			t.Own[id] = chess.NoSquare
		}
	}
	t.View = view
	nb := Belief{Places: order, Probs: make([]float64, len(order))}
	for i, pl := range order {
		nb.Probs[i] = merged[pl]
	}
	nb.normalize()
	t.Belief = nb
	return nil
}

func (b *Belief) normalize() {
	sum := 0.0
	for _, p := range b.Probs {
		sum += p
	}
	for i := range b.Probs {
		b.Probs[i] /= sum
	}
}

// Top returns the belief's n most probable placements (all when n ≤ 0 or
// the belief has fewer), most probable first, with their probabilities
// renormalised to sum to 1.
func (b *Belief) Top(n int) Belief {
	idx := make([]int, len(b.Places))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(x, y int) int {
		switch {
		case b.Probs[x] > b.Probs[y]:
			return -1
		case b.Probs[x] < b.Probs[y]:
			return 1
		}
		return 0
	})
	if n > 0 && n < len(idx) {
		idx = idx[:n]
	}
	out := Belief{Places: make([]Placement, len(idx)), Probs: make([]float64, len(idx))}
	for i, j := range idx {
		out.Places[i], out.Probs[i] = b.Places[j], b.Probs[j]
	}
	out.normalize()
	return out
}
