package sensebench

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestWindowMatchesByDifferences: the one-pass window count agrees with
// comparing every window's sense key.
func TestWindowMatchesByDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := chess.StartBoard()
	for range 300 {
		b := chess.StartBoard()
		for range 1 + rng.IntN(4) {
			s := chess.Square(rng.IntN(64))
			p := chess.NoPiece
			if rng.IntN(2) == 0 {
				p = chess.MakePiece(chess.Color(rng.IntN(2)), chess.PieceType(1+rng.IntN(6)))
				if p.Type() == chess.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
					continue
				}
			}
			b.SetPiece(s, p)
		}
		got := ^grow(differences(&b, &truth))
		for q := chess.Square(0); q < 64; q++ {
			if want := rbc.SenseKey(&b, q) == rbc.SenseKey(&truth, q); got.Has(q) != want {
				t.Fatalf("%s vs start, window %s: fast %v, sense keys %v", b.FEN(), q, got.Has(q), want)
			}
		}
	}
}
