package kriegspiel

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
)

// randomLegalBoards returns legal chess boards (both kings on the board, the
// side not to move not in check): those of the recorded RBC games under
// testdata/histories, and those of random games from the perft positions,
// which reach pins, en passant, promotions and checks by two men that no
// hand-made list covers.
func randomLegalBoards(t *testing.T, games int) []chess.Board {
	t.Helper()
	var boards []chess.Board
	legal := func(b *chess.Board) bool {
		us, them := b.Turn(), b.Turn().Other()
		if b.KingSquare(us) == chess.NoSquare || b.KingSquare(them) == chess.NoSquare {
			return false
		}
		return chess.Attackers(b, b.KingSquare(them), us) == 0
	}
	for _, fen := range testfs.RecordedFENs(t, filepath.Join("..", "testdata", "histories", "*.json")) {
		b, err := chess.ParseFEN(fen)
		if err == nil && legal(&b) {
			boards = append(boards, b)
		}
	}
	rng := rand.New(rand.NewPCG(8, 8))
	var buf [256]chess.Move
	for g := range games {
		b := chess.MustParseFEN(randomStarts[g%len(randomStarts)])
		for range 300 {
			if !legal(&b) {
				break
			}
			boards = append(boards, b)
			moves := chess.AppendLegalMoves(&b, buf[:0])
			if len(moves) == 0 {
				break
			}
			b.Apply(moves[rng.IntN(len(moves))])
		}
	}
	for scattered := 0; scattered < 100*games; {
		if b, ok := scatteredBoard(rng); ok && legal(&b) {
			boards = append(boards, b)
			scattered++
		}
	}
	return boards
}

// scatteredBoard returns a board with both kings and a few men of each side
// on random squares (no pawn on its first or last rank), either side to
// move, and, where the last move may have been a pawn's double step, that
// en-passant square: boards full of pins, checks by two men and pawn
// captures onto the last rank. ok is false when the FEN reader refuses it.
func scatteredBoard(rng *rand.Rand) (b chess.Board, ok bool) {
	var grid [64]byte
	place := func(man byte) int {
		for {
			s := rng.IntN(64)
			if grid[s] == 0 && (man|0x20 != 'p' || (s >= 8 && s < 56)) {
				grid[s] = man
				return s
			}
		}
	}
	place('K')
	place('k')
	const men = "PPPPNBRQppppnbrq"
	for range 2 + rng.IntN(10) {
		place(men[rng.IntN(len(men))])
	}
	turn, ep := "w", "-"
	if rng.IntN(2) == 0 {
		turn = "b"
	}
	// The mover's opponent's pawn that may just have stepped twice.
	rank, pawn, dir := 4, byte('p'), 8
	if turn == "b" {
		rank, pawn, dir = 3, 'P', -8
	}
	for f := range 8 {
		s := rank*8 + f
		if grid[s] == pawn && grid[s+dir] == 0 && grid[s+2*dir] == 0 && rng.IntN(2) == 0 {
			ep = string(rune('a'+f)) + string(rune('1'+rank+dir/8))
			break
		}
	}
	var fen []byte
	for r := 7; r >= 0; r-- {
		empty := 0
		for f := range 8 {
			if c := grid[r*8+f]; c != 0 {
				if empty > 0 {
					fen = append(fen, byte('0'+empty))
				}
				fen, empty = append(fen, c), 0
			} else {
				empty++
			}
		}
		if empty > 0 {
			fen = append(fen, byte('0'+empty))
		}
		if r > 0 {
			fen = append(fen, '/')
		}
	}
	b, err := chess.ParseFEN(string(fen) + " " + turn + " - " + ep + " 0 1")
	return b, err == nil
}

// TestFastPathsEqualFullOnRandomBoards: the pawn tries and whether a legal
// move exists, found by the short routes, and the children's keys read at
// once for the legal moves in the expansion's order, equal what generating
// and playing every legal move says, on many varied boards.
func TestFastPathsEqualFullOnRandomBoards(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 60
	}
	boards := randomLegalBoards(t, games)
	var buf [256]chess.Move
	var keyBuf [256]uint64
	tries, stuck, checked, ep := 0, 0, 0, 0
	for i := range boards {
		b := &boards[i]
		inCheck := chess.InCheck(b)
		if inCheck {
			checked++
		}
		if b.EnPassant() != chess.NoSquare {
			ep++
		}
		if got, want := countPawnCapturesFast(b, inCheck), countPawnCaptures(b); got != want {
			t.Fatalf("%s: countPawnCapturesFast %d, want %d", b.FEN(), got, want)
		} else {
			tries += want
		}
		if got, want := hasLegalMoveFast(b, inCheck), chess.HasLegalMove(b); got != want {
			t.Fatalf("%s: hasLegalMoveFast %v, want %v", b.FEN(), got, want)
		} else if !want {
			stuck++
		}
		moves := chess.AppendLegalMoves(b, buf[:0])
		keys := b.AppendKeysAfter(keyBuf[:0], moves)
		for j, m := range moves {
			c := *b
			c.Apply(m)
			if keys[j] != c.Key() {
				t.Fatalf("%s: AppendKeysAfter's key of %v is %x, want %x", b.FEN(), m, keys[j], c.Key())
			}
			if got, want := childSetKeyFrom(b, m, keys[j]), setKey(&c); got != want {
				t.Fatalf("%s: childSetKeyFrom(%v) is %x, want %x", b.FEN(), m, got, want)
			}
		}
	}
	t.Logf("%d boards (%d in check, %d with an en-passant square), %d pawn tries, %d without a legal move",
		len(boards), checked, ep, tries, stuck)
}

// randomStarts are where the random games begin: the start position and
// three of the standard perft positions (castling, promotions, pins).
var randomStarts = []string{
	chess.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
}
