package sampler

import (
	"context"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The exact belief's storage, for other games' exact beliefs. Kriegspiel's
// exact belief (package kriegspiel) keeps its boards in the same chunked
// store, deduplicates them with the same key set, spills them to disk the
// same way and splits its work the same way; what differs between the games
// (which boards an observation keeps, and what an opponent's turn may do)
// stays with each game. These are thin names over the types the RBC belief
// uses, so both games run one implementation.

// BoardBytes is the memory one stored board takes.
const BoardBytes = boardBytes

// Boards is an append-only array of boards in fixed-size chunks: it grows
// without copying, and work on it splits along its chunks.
type Boards struct{ s store }

// NewBoards returns an empty store.
func NewBoards() *Boards { return &Boards{} }

// Add appends a copy of b.
func (s *Boards) Add(b *chess.Board) { s.s.add(b) }

// At returns the i-th board; it points into the store and must not be
// changed.
func (s *Boards) At(i int) *chess.Board { return s.s.at(i) }

// Len returns the number of boards.
func (s *Boards) Len() int { return s.s.n }

// Bytes returns the memory the store takes.
func (s *Boards) Bytes() int64 { return s.s.bytes() }

// Chunks returns the store's chunks, in order (views into the store: read
// them, never change them).
func (s *Boards) Chunks() [][]chess.Board { return s.s.chunks }

// KeySet is a set of 64-bit board keys (open addressing, linear probing): a
// few times faster than a map for deduplicating millions of boards.
type KeySet struct{ s keySet }

// NewKeySet returns a set that holds n keys without growing.
func NewKeySet(n int) *KeySet {
	ks := &KeySet{}
	ks.s.reset(n)
	return ks
}

// Add inserts k and reports whether it was new.
func (ks *KeySet) Add(k uint64) bool { return ks.s.add(k) }

// Len returns the number of keys.
func (ks *KeySet) Len() int { return ks.s.len() }

// Bytes returns the memory the set takes.
func (ks *KeySet) Bytes() int64 { return ks.s.bytes() }

// SpilledBoards is a store written to a temporary file, in pieces that are
// read back one at a time, so a set far larger than memory can be streamed.
// The file is unlinked at once where the system allows it; Close frees it.
type SpilledBoards struct {
	pieces []spilled
	n      int
}

// SpillBoards writes s to a new temporary file in dir (the system's when
// empty), in pieces of at most piece boards.
func SpillBoards(ctx context.Context, s *Boards, dir string, piece int) (*SpilledBoards, error) {
	l := layerOf(&s.s)
	pieces, err := writeSpill(ctx, &l, dir, max(piece, 1))
	if err != nil {
		return nil, err
	}
	return &SpilledBoards{pieces: pieces, n: s.s.n}, nil
}

// Len returns the number of boards on disk.
func (sp *SpilledBoards) Len() int { return sp.n }

// Bytes returns the disk space the boards take.
func (sp *SpilledBoards) Bytes() int64 { return int64(sp.n) * boardBytes }

// Pieces returns the number of pieces.
func (sp *SpilledBoards) Pieces() int { return len(sp.pieces) }

// Piece reads the i-th piece back into a new store; it stays on disk.
func (sp *SpilledBoards) Piece(i int) (*Boards, error) {
	st, err := sp.pieces[i].read()
	if err != nil {
		return nil, err
	}
	return &Boards{s: *st}, nil
}

// Close frees the file. The boards cannot be read afterwards.
func (sp *SpilledBoards) Close() {
	for i := range sp.pieces {
		sp.pieces[i].release()
	}
	sp.pieces = nil
}

// ParallelFor runs fn(worker, i) for every i in [0, n) on up to workers
// goroutines, handing out items one at a time; it stops at the first error
// or when ctx ends, and returns that error.
func ParallelFor(ctx context.Context, workers, n int, fn func(worker, i int) error) error {
	return parallelFor(ctx, workers, n, fn)
}
