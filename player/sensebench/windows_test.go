package sensebench

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestWindowMatchesByDifferences: the one-pass window count agrees with
// comparing every window's sense key.
func TestWindowMatchesByDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	truth := rbc.StartBoard()
	for range 300 {
		b := rbc.StartBoard()
		for range 1 + rng.IntN(4) {
			s := rbc.Square(rng.IntN(64))
			p := rbc.NoPiece
			if rng.IntN(2) == 0 {
				p = rbc.MakePiece(rbc.Color(rng.IntN(2)), rbc.PieceType(1+rng.IntN(6)))
				if p.Type() == rbc.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
					continue
				}
			}
			b.SetPiece(s, p)
		}
		got := ^grow(differences(&b, &truth))
		for q := rbc.Square(0); q < 64; q++ {
			if want := rbc.SenseKey(&b, q) == rbc.SenseKey(&truth, q); got.Has(q) != want {
				t.Fatalf("%s vs start, window %s: fast %v, sense keys %v", b.FEN(), q, got.Has(q), want)
			}
		}
	}
}
