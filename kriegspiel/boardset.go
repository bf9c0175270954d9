package kriegspiel

// The storage of the exact belief: sampler's chunked board store, its key
// set and its disk spill, the machinery of RBC's exact belief, shared rather
// than copied. A set is a sequence of segments in the order its boards were
// added: every segment but the last may be on disk, so a set may outgrow
// memory; the last is the one boards are added to.

import (
	"context"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// spillPiece is the number of boards a spilled segment reads back at a time
// (about 20 MB).
const spillPiece = 1 << 18

// boardSet is a belief's boards, in order.
type boardSet struct {
	segs []setSegment
	n    int
	// budget is the memory of the boards kept in memory past which the
	// newest segment goes to disk (in dir); 0 keeps everything in memory.
	budget int64
	dir    string
	// spilled counts the boards ever written to disk.
	spilled int64
}

// setSegment is a segment of a set: in memory or on disk.
type setSegment struct {
	mem  *sampler.Boards
	disk *sampler.SpilledBoards
}

// newBoardSet returns an empty set with the spill settings of like (nil for
// none).
func newBoardSet(like *boardSet) *boardSet {
	s := &boardSet{}
	if like != nil {
		s.budget, s.dir = like.budget, like.dir
	}
	return s
}

// setOf returns a set holding boards.
func setOf(boards []chess.Board) *boardSet {
	s := &boardSet{}
	for i := range boards {
		s.addMem(&boards[i])
	}
	return s
}

// addMem appends a copy of b to the last segment, which must be in memory.
func (s *boardSet) addMem(b *chess.Board) {
	if len(s.segs) == 0 || s.segs[len(s.segs)-1].disk != nil {
		s.segs = append(s.segs, setSegment{mem: sampler.NewBoards()})
	}
	s.segs[len(s.segs)-1].mem.Add(b)
	s.n++
}

// add appends a copy of b, sending the newest segment to disk once it passes
// the memory budget.
func (s *boardSet) add(ctx context.Context, b *chess.Board) error {
	s.addMem(b)
	if s.budget <= 0 {
		return nil
	}
	last := &s.segs[len(s.segs)-1]
	capBoards := max(1, int(s.budget/sampler.BoardBytes))
	if last.mem.Len() < capBoards {
		return nil
	}
	sp, err := sampler.SpillBoards(ctx, last.mem, s.dir, min(spillPiece, capBoards))
	if err != nil {
		return fmt.Errorf("kriegspiel: belief spill: %w", err)
	}
	s.spilled += int64(sp.Len())
	*last = setSegment{disk: sp}
	return nil
}

// diskBytes returns the disk space of the spilled boards.
func (s *boardSet) diskBytes() int64 {
	var n int64
	for i := range s.segs {
		if s.segs[i].disk != nil {
			n += s.segs[i].disk.Bytes()
		}
	}
	return n
}

// close frees the set's files; the set is empty afterwards.
func (s *boardSet) close() {
	for i := range s.segs {
		if s.segs[i].disk != nil {
			s.segs[i].disk.Close()
		}
	}
	s.segs, s.n = nil, 0
}

// pieces calls fn with the set's boards, in order, a store at a time: the
// in-memory segments as they are, the spilled ones read back a piece at a
// time.
func (s *boardSet) pieces(fn func(*sampler.Boards) error) error {
	for i := range s.segs {
		sg := &s.segs[i]
		if sg.disk == nil {
			if err := fn(sg.mem); err != nil {
				return err
			}
			continue
		}
		for p := range sg.disk.Pieces() {
			st, err := sg.disk.Piece(p)
			if err != nil {
				return fmt.Errorf("kriegspiel: belief spill: %w", err)
			}
			if err := fn(st); err != nil {
				return err
			}
		}
	}
	return nil
}

// flat returns the boards in one slice (read back from disk if need be).
func (s *boardSet) flat() ([]chess.Board, error) {
	out := make([]chess.Board, 0, s.n)
	err := s.pieces(func(st *sampler.Boards) error {
		for _, c := range st.Chunks() {
			out = append(out, c...)
		}
		return nil
	})
	return out, err
}

// keep returns the boards of s for which ok is true, in a new set with the
// same spill settings, and frees s.
func (s *boardSet) keep(ctx context.Context, ok func(b *chess.Board) bool) (*boardSet, error) {
	out := newBoardSet(s)
	out.spilled = s.spilled
	err := s.pieces(func(st *sampler.Boards) error {
		for _, c := range st.Chunks() {
			for i := range c {
				if ok(&c[i]) {
					if err := out.add(ctx, &c[i]); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	s.close()
	if err != nil {
		out.close()
		return nil, err
	}
	return out, nil
}

// setKey identifies a board as the referee tells boards apart (boardKey) in
// 64 bits, for the key set: the position's key and the half-move clock
// spread over all the bits.
func setKey(b *chess.Board) uint64 {
	return b.Key() ^ clockMix(uint64(b.HalfmoveClock()))
}

// clockMix is what setKey mixes into a board's key for its half-move clock.
func clockMix(halfmove uint64) uint64 { return (halfmove + 1) * 0x9E3779B97F4A7C15 }

// childSetKey returns setKey of the board that copying b and applying the
// legal move m gives, without building it (see chess.Board.KeyAfter).
func childSetKey(b *chess.Board, m chess.Move) uint64 {
	return childSetKeyFrom(b, m, b.KeyAfter(m))
}

// childSetKeyFrom is childSetKey given key, b.KeyAfter(m) (which
// chess.Board.AppendKeysAfter gives for all of a board's moves at once).
func childSetKeyFrom(b *chess.Board, m chess.Move, key uint64) uint64 {
	halfmove := uint16(b.HalfmoveClock()) + 1
	if !m.IsNull() && (b.PiecesOf(b.Turn(), chess.Pawn).Has(m.From) || b.Pieces(b.Turn().Other()).Has(m.To)) {
		halfmove = 0 // a pawn move or a capture
	}
	return key ^ clockMix(uint64(halfmove))
}
