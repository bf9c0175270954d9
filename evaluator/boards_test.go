package evaluator

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
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
	board chess.Board
}

// recordedFENs returns the true boards before and after every recorded move
// in the project's and the shared game histories, in a fixed order.
func recordedFENs(t testing.TB) []string {
	t.Helper()
	return testfs.RecordedFENs(t, "../testdata/histories/*.json", "../../shared/testdata/histories/*.json")
}

// withFields returns b's FEN with the castling and en-passant fields
// replaced ("" keeps a field) and the side to move flipped if asked.
func withFields(b *chess.Board, castling, ep string, flip bool) (chess.Board, bool) {
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
	nb, err := chess.ParseFEN(strings.Join(f, " "))
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
	add := func(c boardClass, b chess.Board) {
		f := strings.Fields(b.FEN())
		id := strings.Join(f[:4], " ")
		if !seen[id] {
			seen[id] = true
			out = append(out, testBoard{c, b})
		}
	}
	var buf, buf2 [256]chess.Move

	var base []chess.Board
	for _, fen := range recordedFENs(t) {
		b, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatalf("recorded FEN %q: %v", fen, err)
		}
		add(classRecorded, b)
		base = append(base, b)
	}
	// Random RBC play from the start: every option including passes and
	// moves that leave the king capturable, until a king falls.
	for g := 0; g < max(n/600, 1); g++ {
		b := chess.StartBoard()
		for ply := 0; ply < 160 && !b.KingMissing(chess.White) && !b.KingMissing(chess.Black); ply++ {
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
	pieces := []chess.PieceType{chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen}
	for i := 0; i < n/12; i++ {
		b := base[rng.IntN(len(base))]
		if fb, ok := withFields(&b, "", "", true); ok {
			add(classFlipped, fb)
		}
		if c := chess.Color(rng.IntN(2)); !b.KingMissing(c) {
			nb := b
			nb.SetPiece(nb.KingSquare(c), chess.NoPiece)
			add(classNoKing, nb)
		}
		if cb, ok := withFields(&b, "KQkq", "", false); ok {
			add(classCastling, cb)
		}
		if s := chess.Square(rng.IntN(64)); b.PieceAt(s) == chess.NoPiece {
			nb := b
			nb.SetPiece(s, chess.MakePiece(chess.Color(rng.IntN(2)), chess.King))
			add(classTwoKings, nb)
		}
		rank := "6"
		if b.Turn() == chess.Black {
			rank = "3"
		}
		if eb, ok := withFields(&b, "", string(rune('a'+rng.IntN(8)))+rank, false); ok {
			add(classEnPassant, eb)
		}
		// Put one to three extra enemy pieces where they attack the side to
		// move's king: double, triple and impossible checks.
		if k := b.KingSquare(b.Turn()); k != chess.NoSquare {
			nb := b
			us := b.Turn()
			for j := 0; j < 1+rng.IntN(3); j++ {
				pt := pieces[rng.IntN(len(pieces))]
				var from chess.Bitboard
				switch pt {
				case chess.Pawn:
					from = chess.PawnAttacks(us, k)
				case chess.Knight:
					from = chess.KnightAttacks(k)
				case chess.Bishop:
					from = chess.BishopAttacks(k, nb.Occupied())
				case chess.Rook:
					from = chess.RookAttacks(k, nb.Occupied())
				case chess.Queen:
					from = chess.QueenAttacks(k, nb.Occupied())
				}
				from &^= nb.Occupied()
				if pt == chess.Pawn {
					from &^= 0xFF000000000000FF
				}
				if from == 0 {
					continue
				}
				sq := from.Squares()
				nb.SetPiece(sq[rng.IntN(len(sq))], chess.MakePiece(us.Other(), pt))
			}
			add(classManyCheckrs, nb)
		}
	}
	if len(out) < n {
		t.Fatalf("generated %d boards, want %d", len(out), n)
	}
	return out
}
