package sampler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The outlook of a deferred board: how well it agrees with the senses it has
// not seen yet, judged without replaying it.
//
// Between two points of the game the opponent's placement (its pieces by
// type and square) changes on at most two squares per opponent move (four
// for a castling, once) and on one square per capture of ours. A board that
// differs from a later sense, on the window's squares, by more than the moves
// and captures between them allow has no descendant that shows that sense:
// it can be dropped without losing a consistent board. Among the boards that
// pass, those that already show what was sensed need the fewest particular
// opponent moves to survive and are the likeliest to hold the true board.
//
// exact uses this to replay its backlog where survivors are likeliest first
// (rather than merely the most recent segment first): when the live set runs
// out, the segment that holds the true board is then usually among the first
// replayed, within the replay work allowed per observation, instead of the
// player being handed stand-ins. It also drops the boards that cannot
// survive before expanding them.

// outlook holds the senses of a game and, per observation index, the number
// of opponent moves and captures of ours before it.
type outlook struct {
	them   chess.Color
	senses []senseView
	moves  []int // moves[i]: notices (opponent moves) among obs[:i]
	caps   []int // caps[i]: our captures among obs[:i]
}

// senseView is one sense result as the outlook uses it: the window and the
// opponent's pieces seen in it, by type.
type senseView struct {
	at     int // index of the sense among the observations
	window chess.Bitboard
	opp    [6]chess.Bitboard // indexed by PieceType-1
}

// newOutlook reads the observations of a game; them is the opponent.
func newOutlook(obs []observation, them chess.Color) *outlook {
	o := &outlook{them: them, moves: make([]int, len(obs)+1), caps: make([]int, len(obs)+1)}
	for i := range obs {
		ob := &obs[i]
		o.moves[i+1], o.caps[i+1] = o.moves[i], o.caps[i]
		switch ob.kind {
		case obsNotice:
			o.moves[i+1]++
		case obsMove:
			if ob.square.Valid() {
				o.caps[i+1]++
			}
		case obsSense:
			f := &ob.sense
			if f.window == 0 {
				continue // a passed sense tells nothing
			}
			v := senseView{at: i, window: f.window}
			ours := f.white
			if them == chess.White {
				ours = f.occ &^ f.white
			}
			for t := range v.opp {
				v.opp[t] = f.types[t] &^ ours
			}
			o.senses = append(o.senses, v)
		}
	}
	return o
}

// misfit returns by how many squares b (having seen the first at
// observations) differs from the senses still ahead of it, summed over them;
// ok is false when some sense differs by more than the opponent's moves and
// our captures in between could change, so that no descendant of b can show
// it.
func (o *outlook) misfit(b *chess.Board, at int) (diff int, ok bool) {
	i, _ := slices.BinarySearchFunc(o.senses, at, func(v senseView, at int) int { return v.at - at })
	castle := 0
	if b.Castling()&castlingOf(o.them) != 0 {
		castle = 2
	}
	for _, v := range o.senses[i:] {
		d := 0
		for t := chess.Pawn; t <= chess.King; t++ {
			d += ((b.PiecesOf(o.them, t) ^ v.opp[t-1]) & v.window).Count()
		}
		moves := o.moves[v.at] - o.moves[at]
		limit := 2*moves + o.caps[v.at] - o.caps[at]
		if moves > 0 {
			limit += castle
		}
		if d > limit {
			return 0, false
		}
		diff += d
	}
	return diff, true
}

// ahead reports whether any sense lies at or after observation at (else
// misfit accepts every board).
func (o *outlook) ahead(at int) bool {
	return len(o.senses) > 0 && o.senses[len(o.senses)-1].at >= at
}

// keep is misfit's verdict alone, for filtering a layer at observation at.
func (o *outlook) keep(at int) func(b *chess.Board) bool {
	return func(b *chess.Board) bool {
		_, ok := o.misfit(b, at)
		return ok
	}
}

// missWeight is how much a board's chance of surviving falls for every
// square on which it differs from a later sense (a particular opponent move
// must have made up for it); promiseProbe is the number of boards sampled
// per segment.
const (
	missWeight   = 1.0 / 16
	promiseProbe = 64
)

// promise estimates how likely the segment is to hold boards that survive:
// the mean over a sample of its boards of missWeight^misfit (0 for a board
// that cannot survive). It does not weigh the cost of replaying old
// segments: on the recorded games (TestOutlookOrder's figures in
// docs/belief.md) the segment holding the true board is an old one more often
// than not, with nearly all its boards fitting the later senses, while the
// recent segments ahead of it in age are full of boards that do not; putting
// recent segments first, or dividing by the work of the turns to replay,
// left about three times as many boards ahead of the true one. A segment
// that cannot be read back gets +Inf, so that it is taken (and its failure
// handled) at once.
func (o *outlook) promise(s *segment, rng *rand.Rand) float64 {
	n := s.size()
	if n == 0 {
		return 0
	}
	k := min(n, promiseProbe)
	sum := 0.0
	for range k {
		i := rng.IntN(n)
		var b chess.Board
		if s.disk != nil {
			var err error
			if b, err = s.disk.board(i); err != nil {
				return math.Inf(1)
			}
		} else {
			b = s.l.at(i)
		}
		if d, ok := o.misfit(&b, s.at); ok {
			sum += math.Pow(missWeight, float64(d))
		}
	}
	return sum / float64(k)
}

// at returns the layer's i-th board (in the order of forEach), rebuilt if
// it is a child.
func (l *layer) at(i int) chess.Board {
	for pi := range l.parts {
		p := &l.parts[pi]
		if i >= p.n {
			i -= p.n
			continue
		}
		if p.isFlat() {
			return *p.base.at(p.lo + i)
		}
		for _, c := range p.refs {
			if i < len(c) {
				return p.child(c[i])
			}
			i -= len(c)
		}
	}
	panic("sampler: layer index out of range")
}

// board reads the piece's i-th board back from disk.
func (s *spilled) board(i int) (chess.Board, error) {
	var b [1]chess.Board
	if _, err := s.file.f.ReadAt(boardBytesOf(b[:]), s.off+int64(i)*boardBytes); err != nil {
		return chess.Board{}, fmt.Errorf("sampler: backlog spill: read back: %w", err)
	}
	return b[0], nil
}
