package sampler

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/blindfish-rbc/blindfish/chess"
)

// boardBytes is the size of one stored board.
const boardBytes = int64(unsafe.Sizeof(chess.Board{}))

// Boards are stored in chunks of chunkLen so that a store grows without
// copying and parallel work splits along chunk boundaries.
const (
	chunkBits = 14
	chunkLen  = 1 << chunkBits
)

// store is an append-only array of boards in fixed-size chunks. A board is
// never changed once stored, so a store can be shared by several parts of a
// belief (and by the backlog) and read by a background expansion while
// queries read it too: appends only write past every reader's end.
type store struct {
	chunks [][]chess.Board
	n      int
}

func (s *store) add(b *chess.Board) {
	if s.n&(chunkLen-1) == 0 {
		// The first chunk grows from small (a store may hold a few boards);
		// the later ones are allocated whole.
		size := chunkLen
		if s.n == 0 {
			size = 16
		}
		s.chunks = append(s.chunks, make([]chess.Board, 0, size))
	}
	c := &s.chunks[len(s.chunks)-1]
	*c = append(*c, *b)
	s.n++
}

// at returns the i-th board. It points into the store: read it, copy it, but
// never change it.
func (s *store) at(i int) *chess.Board { return &s.chunks[i>>chunkBits][i&(chunkLen-1)] }

// bytes returns the memory the store takes.
func (s *store) bytes() int64 {
	var n int64
	for _, c := range s.chunks {
		n += int64(cap(c))
	}
	return n * boardBytes
}

// storeOf returns a store holding boards.
func storeOf(boards []chess.Board) *store {
	s := &store{}
	for i := range boards {
		s.add(&boards[i])
	}
	return s
}

// A ref names a child compactly: the index of its parent in a store, the
// capture group the child announces, and the option that leads to it. It takes
// 8 bytes where a board takes 80; the child is rebuilt (a copy and an Apply)
// when it is needed.
//
//	bits 24-63: parent index, 16-23: capture group, 0-15: the move
func makeRef(parent int, group int, m chess.Move) uint64 {
	return uint64(parent)<<24 | uint64(group)<<16 | uint64(packMove(m))
}

func refParent(r uint64) int { return int(r >> 24) }

func refMove(r uint64) chess.Move { return unpackMove(uint16(r)) }

// packMove packs a move into 15 bits; the null move packs to 0.
func packMove(m chess.Move) uint16 {
	if m.IsNull() {
		return 0
	}
	return uint16(m.From) | uint16(m.To)<<6 | uint16(m.Promotion)<<12
}

func unpackMove(v uint16) chess.Move {
	return chess.Move{From: chess.Square(v & 63), To: chess.Square(v >> 6 & 63), Promotion: chess.PieceType(v >> 12 & 7)}
}

// part is a piece of a layer: either the boards base[lo:hi] of a store (a
// flat part), or children of base boards given by refs.
type part struct {
	base   *store
	lo, hi int        // flat part
	refs   [][]uint64 // children part, in chunks (nil for a flat part)
	n      int
}

func flatPart(s *store, lo, hi int) part { return part{base: s, lo: lo, hi: hi, n: hi - lo} }

func (p *part) isFlat() bool { return p.refs == nil }

// child rebuilds the board a ref names.
func (p *part) child(r uint64) chess.Board {
	b := *p.base.at(refParent(r))
	b.Apply(refMove(r))
	return b
}

// layer is a set of boards in one state of the game, made of parts.
type layer struct {
	parts []part
	n     int
}

func (l *layer) add(p part) {
	if p.n > 0 {
		l.parts = append(l.parts, p)
		l.n += p.n
	}
}

func layerOf(s *store) layer {
	var l layer
	l.add(flatPart(s, 0, s.n))
	return l
}

// unit is one piece of parallel work over a layer: a chunk-aligned range of a
// flat part, or one refs chunk of a children part.
type unit struct {
	part   int
	lo, hi int // flat range, or the refs chunk index in lo
}

func (l *layer) units() []unit {
	var us []unit
	for pi := range l.parts {
		p := &l.parts[pi]
		if p.isFlat() {
			for lo := p.lo; lo < p.hi; {
				hi := min(p.hi, (lo|(chunkLen-1))+1)
				us = append(us, unit{part: pi, lo: lo, hi: hi})
				lo = hi
			}
			continue
		}
		for ci, c := range p.refs {
			if len(c) > 0 {
				us = append(us, unit{part: pi, lo: ci})
			}
		}
	}
	return us
}

// boards returns the boards of unit u: a view into the store for a flat part
// (read only), or the children rebuilt into buf.
func (l *layer) boards(u unit, buf []chess.Board) []chess.Board {
	p := &l.parts[u.part]
	if p.isFlat() {
		c := p.base.chunks[u.lo>>chunkBits]
		off := u.lo &^ (chunkLen - 1)
		return c[u.lo-off : u.hi-off]
	}
	buf = buf[:0]
	for _, r := range p.refs[u.lo] {
		buf = append(buf, p.child(r))
	}
	return buf
}

// forEach calls fn with the boards of every unit, on up to workers goroutines.
func (l *layer) forEach(ctx context.Context, workers int, fn func(worker int, boards []chess.Board) error) error {
	us := l.units()
	bufs := make([][]chess.Board, workers)
	return parallelFor(ctx, workers, len(us), func(w, i int) error {
		b := l.boards(us[i], bufs[w])
		if !l.parts[us[i].part].isFlat() {
			bufs[w] = b
		}
		return fn(w, b)
	})
}

// filter keeps the boards for which keep is true, in new chunks: the old
// ones may be shared (with the backlog, or a query running alongside a
// background job), so nothing is changed in place. On error l is unchanged.
func (l *layer) filter(ctx context.Context, workers int, keep func(b *chess.Board) bool) error {
	us := l.units()
	kept := make([][]chess.Board, len(us))
	keptRefs := make([][]uint64, len(us))
	scratch := make([][]uint64, workers)
	err := parallelFor(ctx, workers, len(us), func(w, i int) error {
		u := us[i]
		p := &l.parts[u.part]
		if p.isFlat() {
			var out []chess.Board
			for _, b := range l.boards(u, nil) {
				if keep(&b) {
					out = append(out, b)
				}
			}
			kept[i] = out
			return nil
		}
		out := scratch[w][:0]
		for _, r := range p.refs[u.lo] {
			b := p.child(r)
			if keep(&b) {
				out = append(out, r)
			}
		}
		scratch[w] = out
		if len(out) > 0 {
			keptRefs[i] = slices.Clone(out)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var next layer
	flat := &store{}
	for i, u := range us {
		if l.parts[u.part].isFlat() {
			for j := range kept[i] {
				flat.add(&kept[i][j])
			}
		}
	}
	next.add(flatPart(flat, 0, flat.n))
	for pi, p := range l.parts {
		if p.isFlat() {
			continue
		}
		np := part{base: p.base, refs: [][]uint64{}}
		for i, u := range us {
			if u.part == pi && len(keptRefs[i]) > 0 {
				np.refs = append(np.refs, keptRefs[i])
				np.n += len(keptRefs[i])
			}
		}
		next.add(np)
	}
	*l = next
	return nil
}

// applyMove filters the layer (us to move) by our move result and returns the
// boards after the move, deduplicated, in a new store. It stops taking new
// units once max boards are out; the units it did not take are returned as a
// layer for the backlog (they still need this move result).
//
// It works in two passes so that only the final boards are stored: the first
// (parallel) keeps each survivor's key and position, a sequential pass
// deduplicates the keys, and the last (parallel) rebuilds the kept boards
// straight into their places in the new store.
func (l *layer) applyMove(ctx context.Context, workers int, o *observation, max int) (*store, layer, error) {
	us := l.units()
	type survivors struct {
		keys []uint64
		idx  []int32 // positions in the unit
		out  []int   // places in the new store, -1 for a duplicate
	}
	surv := make([]survivors, len(us))
	taken := make([]bool, len(us))
	var produced atomic.Int64
	bufs := make([][]chess.Board, workers)
	err := parallelFor(ctx, workers, len(us), func(w, i int) error {
		if produced.Load() >= int64(max) && i > 0 {
			return nil
		}
		taken[i] = true
		b := l.boards(us[i], bufs[w])
		if !l.parts[us[i].part].isFlat() {
			bufs[w] = b
		}
		sv := &surv[i]
		for j := range b {
			if next, ok := o.applyMove(&b[j]); ok {
				sv.keys = append(sv.keys, next.Key())
				sv.idx = append(sv.idx, int32(j))
			}
		}
		produced.Add(int64(len(sv.keys)))
		return nil
	})
	if err != nil {
		return nil, layer{}, err
	}
	seen := newKeySet(int(produced.Load()))
	var rest layer
	n := 0
	for i, u := range us {
		if !taken[i] {
			rest.add(l.unitPart(u))
			continue
		}
		sv := &surv[i]
		sv.out = make([]int, len(sv.keys))
		for j, k := range sv.keys {
			sv.out[j] = -1
			if seen.add(k) {
				sv.out[j] = n
				n++
			}
		}
		sv.keys = nil
	}
	seen = nil
	res := newStoreN(n)
	err = parallelFor(ctx, workers, len(us), func(w, i int) error {
		sv := &surv[i]
		if len(sv.idx) == 0 {
			return nil
		}
		u := us[i]
		p := &l.parts[u.part]
		for j, at := range sv.idx {
			if sv.out[j] < 0 {
				continue
			}
			var b chess.Board
			if p.isFlat() {
				b = *p.base.at(u.lo + int(at))
			} else {
				b = p.child(p.refs[u.lo][at])
			}
			next, _ := o.applyMove(&b)
			*res.at(sv.out[j]) = next
		}
		return nil
	})
	if err != nil {
		return nil, layer{}, err
	}
	return res, rest, nil
}

// newStoreN returns a store of n zero boards, to be filled in place (by
// several goroutines at once, each writing its own places) before anyone
// reads it.
func newStoreN(n int) *store {
	s := &store{n: n}
	for left := n; left > 0; left -= chunkLen {
		s.chunks = append(s.chunks, make([]chess.Board, min(left, chunkLen)))
	}
	return s
}

// unitPart returns unit u as a part of its own.
func (l *layer) unitPart(u unit) part {
	p := l.parts[u.part]
	if p.isFlat() {
		return flatPart(p.base, u.lo, u.hi)
	}
	c := p.refs[u.lo]
	return part{base: p.base, refs: [][]uint64{c}, n: len(c)}
}

// split returns the first boards of the layer, at least one unit and about n
// boards, and the rest.
func (l *layer) split(n int) (head, tail layer) {
	for _, u := range l.units() {
		p := l.unitPart(u)
		if head.n == 0 || head.n+p.n <= n {
			head.add(p)
		} else {
			tail.add(p)
		}
	}
	return head, tail
}

// compact returns the layer with every part that uses only a small share of
// a large store copied into a store of its own, so that a segment of the
// backlog does not keep a whole store alive for a few of its boards.
func (l *layer) compact() layer {
	var out layer
	for _, p := range l.parts {
		if int64(p.n)*boardBytes*2 > p.base.bytes() {
			out.add(p)
			continue
		}
		one := layer{parts: []part{p}, n: p.n}
		s := &store{}
		_ = one.forEach(context.Background(), 1, func(_ int, boards []chess.Board) error {
			for i := range boards {
				s.add(&boards[i])
			}
			return nil
		})
		out.add(flatPart(s, 0, s.n))
	}
	return out
}

// bytes adds the memory of the layer's stores (each counted once, through
// seen) and refs to the total.
func (l *layer) bytes(seen map[*store]bool) int64 {
	var total int64
	for _, p := range l.parts {
		if !seen[p.base] {
			seen[p.base] = true
			total += p.base.bytes()
		}
		for _, c := range p.refs {
			total += int64(cap(c)) * 8
		}
	}
	return total
}

// contains reports whether a board with key k is in the layer. A scan that
// ends before it has seen every board (ctx ended) is an error, never a false:
// "not found" must mean the whole layer was looked at.
func (l *layer) contains(ctx context.Context, workers int, k uint64) (bool, error) {
	var found atomic.Bool
	err := l.forEach(ctx, workers, func(_ int, boards []chess.Board) error {
		for i := range boards {
			if boards[i].Key() == k {
				found.Store(true)
				return errFound
			}
		}
		return nil
	})
	if found.Load() {
		return true, nil
	}
	return false, err
}

// errFound stops a scan that has found what it looked for.
var errFound = errors.New("sampler: found")

// dedupe returns the layer's distinct boards in a new store.
func (l *layer) dedupe(ctx context.Context, workers int) (*store, error) {
	res := &store{}
	seen := newKeySet(l.n)
	us := l.units()
	var buf []chess.Board
	for _, u := range us {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b := l.boards(u, buf)
		if !l.parts[u.part].isFlat() {
			buf = b
		}
		for i := range b {
			if seen.add(b[i].Key()) {
				res.add(&b[i])
			}
		}
	}
	return res, nil
}
