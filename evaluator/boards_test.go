package evaluator

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/internal/testfs"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Test boards for the guard: positions RBC games really reach, the belief
// sets a player expands from them, and the classes that crash Stockfish or
// make it answer nonsense (see guard.go). Everything is generated from a
// fixed seed.

// boardClass labels where a test board came from.
type boardClass string

const (
	classRecorded    boardClass = "recorded"
	classBelief1     boardClass = "belief+1"
	classBelief2     boardClass = "belief+2"
	classRandomPlay  boardClass = "random-play"
	classFlipped     boardClass = "side-flipped"
	classNoKing      boardClass = "king-removed"
	classCastling    boardClass = "bogus-castling"
	classTwoKings    boardClass = "two-kings"
	classEnPassant   boardClass = "bogus-en-passant"
	classManyCheckrs boardClass = "extra-checkers"
)

type testBoard struct {
	class boardClass
	board rbc.Board
}

// recordedFENs returns the true boards before and after every recorded move
// in the project's and the shared game histories, in a fixed order.
func recordedFENs(t testing.TB) []string {
	t.Helper()
	return testfs.RecordedFENs(t, "../testdata/histories/*.json", "../../shared/testdata/histories/*.json")
}

// withFields returns b's FEN with the castling and en-passant fields
// replaced ("" keeps a field) and the side to move flipped if asked.
func withFields(b *rbc.Board, castling, ep string, flip bool) (rbc.Board, bool) {
	f := strings.Fields(b.FEN())
	if castling != "" {
		f[2] = castling
	}
	if flip {
		if f[1] == "w" {
			f[1] = "b"
		} else {
			f[1] = "w"
		}
		f[3] = "-"
	}
	if ep != "" {
		f[3] = ep
	}
	nb, err := rbc.ParseFEN(strings.Join(f, " "))
	return nb, err == nil
}

// guardTestBoards returns at least n distinct boards (by Key) of all classes.
func guardTestBoards(t testing.TB, n int) []testBoard {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 2026))
	// Distinct by FEN without the counters (not by Key, which ignores an
	// unusable en-passant square, one of the classes under test).
	seen := map[string]bool{}
	var out []testBoard
	add := func(c boardClass, b rbc.Board) {
		f := strings.Fields(b.FEN())
		id := strings.Join(f[:4], " ")
		if !seen[id] {
			seen[id] = true
			out = append(out, testBoard{c, b})
		}
	}
	var buf, buf2 [256]rbc.Move

	var base []rbc.Board
	for _, fen := range recordedFENs(t) {
		b, err := rbc.ParseFEN(fen)
		if err != nil {
			t.Fatalf("recorded FEN %q: %v", fen, err)
		}
		add(classRecorded, b)
		base = append(base, b)
	}
	// Random RBC play from the start: every option including passes and
	// moves that leave the king capturable, until a king falls.
	for g := 0; g < max(n/600, 1); g++ {
		b := rbc.StartBoard()
		for ply := 0; ply < 160 && !b.KingMissing(rbc.White) && !b.KingMissing(rbc.Black); ply++ {
			opts := b.AppendOptions(buf[:0])
			b.Apply(opts[rng.IntN(len(opts))])
			add(classRandomPlay, b)
			base = append(base, b)
		}
	}
	// Belief-like sets: every option of a sampled board (one ply), and a
	// random option of each of those (two plies).
	for i := 0; i < n/90 && len(base) > 0; i++ {
		b := base[rng.IntN(len(base))]
		for _, m := range b.AppendOptions(buf[:0]) {
			c := b
			c.Apply(m)
			add(classBelief1, c)
			if rng.IntN(3) == 0 {
				opts := c.AppendOptions(buf2[:0])
				d := c
				d.Apply(opts[rng.IntN(len(opts))])
				add(classBelief2, d)
			}
		}
	}
	// The crash classes, made from sampled boards.
	pieces := []rbc.PieceType{rbc.Pawn, rbc.Knight, rbc.Bishop, rbc.Rook, rbc.Queen}
	for i := 0; i < n/12; i++ {
		b := base[rng.IntN(len(base))]
		if fb, ok := withFields(&b, "", "", true); ok {
			add(classFlipped, fb)
		}
		if c := rbc.Color(rng.IntN(2)); !b.KingMissing(c) {
			nb := b
			nb.SetPiece(nb.KingSquare(c), rbc.NoPiece)
			add(classNoKing, nb)
		}
		if cb, ok := withFields(&b, "KQkq", "", false); ok {
			add(classCastling, cb)
		}
		if s := rbc.Square(rng.IntN(64)); b.PieceAt(s) == rbc.NoPiece {
			nb := b
			nb.SetPiece(s, rbc.MakePiece(rbc.Color(rng.IntN(2)), rbc.King))
			add(classTwoKings, nb)
		}
		rank := "6"
		if b.Turn() == rbc.Black {
			rank = "3"
		}
		if eb, ok := withFields(&b, "", string(rune('a'+rng.IntN(8)))+rank, false); ok {
			add(classEnPassant, eb)
		}
		// Put one to three extra enemy pieces where they attack the side to
		// move's king: double, triple and impossible checks.
		if k := b.KingSquare(b.Turn()); k != rbc.NoSquare {
			nb := b
			us := b.Turn()
			for j := 0; j < 1+rng.IntN(3); j++ {
				pt := pieces[rng.IntN(len(pieces))]
				var from rbc.Bitboard
				switch pt {
				case rbc.Pawn:
					from = rbc.PawnAttacks(us, k)
				case rbc.Knight:
					from = rbc.KnightAttacks(k)
				case rbc.Bishop:
					from = rbc.BishopAttacks(k, nb.Occupied())
				case rbc.Rook:
					from = rbc.RookAttacks(k, nb.Occupied())
				case rbc.Queen:
					from = rbc.QueenAttacks(k, nb.Occupied())
				}
				from &^= nb.Occupied()
				if pt == rbc.Pawn {
					from &^= 0xFF000000000000FF
				}
				if from == 0 {
					continue
				}
				sq := from.Squares()
				nb.SetPiece(sq[rng.IntN(len(sq))], rbc.MakePiece(us.Other(), pt))
			}
			add(classManyCheckrs, nb)
		}
	}
	if len(out) < n {
		t.Fatalf("generated %d boards, want %d", len(out), n)
	}
	return out
}
