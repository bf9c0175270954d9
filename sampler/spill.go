package sampler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unsafe"

	"github.com/blindfish-rbc/blindfish/chess"
)

// The backlog's disk tier. When the backlog passes its memory budget, exact
// writes its oldest segments to temporary files instead of dropping them, and
// reads a piece back when it is replayed or searched. Against a random mover
// sensed at random the information set multiplies by tens each turn and the
// backlog grows by up to the live budget per turn; on disk that costs disk
// space, not memory, and no consistent board is lost until the disk budget is
// spent too.
//
// The files hold raw boards (a Board is 80 bytes without pointers) and are
// only ever read back by the process that wrote them. Each is unlinked as
// soon as it is created (where the system allows it), so nothing is left
// behind when the process dies; it is closed, and its space freed, once
// every piece in it has been read back for good or dropped.

// spillFile is one temporary file of spilled pieces.
type spillFile struct {
	f      *os.File
	name   string // removed at close when it could not be unlinked at once
	pieces int    // pieces not yet released
}

// spilled is a backlog piece on disk: n boards at byte offset off of file.
type spilled struct {
	file *spillFile
	off  int64
	n    int
}

// bytes returns the disk space the piece takes.
func (s *spilled) bytes() int64 { return int64(s.n) * boardBytes }

// boardBytesOf views boards as their raw bytes.
func boardBytesOf(boards []chess.Board) []byte {
	if len(boards) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&boards[0])), len(boards)*int(boardBytes))
}

// writeSpill writes the boards of l to a new temporary file in dir, in pieces
// of at most piece boards, and returns the pieces in order.
func writeSpill(ctx context.Context, l *layer, dir string, piece int) ([]spilled, error) {
	f, err := os.CreateTemp(dir, "blindfish-backlog-*")
	if err != nil {
		return nil, fmt.Errorf("sampler: backlog spill: %w", err)
	}
	sf := &spillFile{f: f}
	if os.Remove(f.Name()) != nil {
		sf.name = f.Name() // e.g. Windows: an open file cannot be removed
	}
	var pieces []spilled
	var off int64
	cur := spilled{file: sf}
	buf := make([]chess.Board, 0, min(piece, l.n))
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if _, err := f.Write(boardBytesOf(buf)); err != nil {
			return err
		}
		cur.n += len(buf)
		off += int64(len(buf)) * boardBytes
		buf = buf[:0]
		if cur.n >= piece {
			pieces = append(pieces, cur)
			cur = spilled{file: sf, off: off}
		}
		return nil
	}
	err = l.forEach(ctx, 1, func(_ int, boards []chess.Board) error {
		for len(boards) > 0 {
			k := min(len(boards), piece-cur.n-len(buf))
			buf = append(buf, boards[:k]...)
			boards = boards[k:]
			if cur.n+len(buf) == piece || len(buf) == cap(buf) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		sf.close()
		return nil, fmt.Errorf("sampler: backlog spill: %w", err)
	}
	if cur.n > 0 {
		pieces = append(pieces, cur)
	}
	sf.pieces = len(pieces)
	if len(pieces) == 0 {
		sf.close()
	}
	return pieces, nil
}

// read returns the piece's boards in a new store; the piece stays on disk.
func (s *spilled) read() (*store, error) {
	st := newStoreN(s.n)
	off := s.off
	for _, c := range st.chunks {
		b := boardBytesOf(c)
		if _, err := s.file.f.ReadAt(b, off); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return nil, fmt.Errorf("sampler: backlog spill: read back: %w", err)
		}
		off += int64(len(b))
	}
	return st, nil
}

// release gives the piece up; the file closes with its last piece.
func (s *spilled) release() {
	s.file.pieces--
	if s.file.pieces <= 0 {
		s.file.close()
	}
}

func (sf *spillFile) close() {
	if sf.f == nil {
		return
	}
	sf.f.Close()
	if sf.name != "" {
		os.Remove(sf.name)
	}
	sf.f = nil
}
