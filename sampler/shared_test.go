package sampler

import (
	"context"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestSharedBoardsSpillRoundTrip: boards written by SpillBoards come back
// piece by piece, in order and unchanged, and the key set dedups them.
func TestSharedBoardsSpillRoundTrip(t *testing.T) {
	s := NewBoards()
	b := chess.StartBoard()
	var want []chess.Board
	for i := range 40_000 {
		c := b
		opts := c.AppendOptions(nil)
		c.Apply(opts[i%len(opts)])
		want = append(want, c)
		s.Add(&c)
		if i%97 == 0 {
			b = c // walk on, so the boards differ
		}
	}
	if s.Len() != len(want) || s.Bytes() < int64(len(want))*BoardBytes {
		t.Fatalf("%d boards in %d bytes", s.Len(), s.Bytes())
	}
	sp, err := SpillBoards(context.Background(), s, t.TempDir(), 10_000)
	if err != nil {
		t.Fatal(err)
	}
	defer sp.Close()
	if sp.Len() != len(want) || sp.Pieces() != 4 || sp.Bytes() != int64(len(want))*BoardBytes {
		t.Fatalf("spilled %d boards in %d pieces, %d bytes", sp.Len(), sp.Pieces(), sp.Bytes())
	}
	i := 0
	keys := NewKeySet(16)
	distinct := 0
	for p := range sp.Pieces() {
		st, err := sp.Piece(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range st.Chunks() {
			for j := range c {
				if c[j] != want[i] {
					t.Fatalf("board %d read back as %s, want %s", i, c[j].FEN(), want[i].FEN())
				}
				if keys.Add(c[j].Key()) {
					distinct++
				}
				i++
			}
		}
	}
	if i != len(want) || keys.Len() != distinct || distinct < 100 || distinct == len(want) {
		t.Errorf("read %d boards, %d distinct keys (set says %d)", i, distinct, keys.Len())
	}
	if err := ParallelFor(context.Background(), 2, 10, func(_, _ int) error { return nil }); err != nil {
		t.Error(err)
	}
}
