package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// TestModelAgreesWithReferee checks the planner's bitboard model against
// the referee's own rules: for random positions and every candidate move,
// the squares where the try is refused, the answer on every other square
// (checks, mate, stalemate), and the squares the king can step to.
func TestModelAgreesWithReferee(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	rules := kriegspiel.Wild16()
	for range 200 {
		fen := randomArmy(rng)
		bl, err := NewBelief(rules, chess.MustParseFEN(fen), chess.NoSquare)
		if err != nil {
			t.Fatal(err)
		}
		mine := bl.Mine()
		for _, m := range chess.LegalMoves(&mine) {
			if !candidate(&mine, m) {
				continue
			}
			tr := try(&mine, chess.White, bl.Squares(), m)
			for bb := bl.Squares(); bb != 0; {
				s := bb.PopFirst()
				b := bl.Board(s)
				legal := chess.IsLegal(&b, m)
				if legal == tr.illegal.Has(s) {
					t.Fatalf("%s, king on %s: %s legal %v, the model says refused %v", fen, s, m, legal, tr.illegal.Has(s))
				}
				if !legal {
					continue
				}
				a, after := kriegspiel.Announce(rules, b, m)
				var o *outcome
				for i := range tr.outcomes {
					if tr.outcomes[i].squares.Has(s) {
						o = &tr.outcomes[i]
					}
				}
				wantEnd := map[kriegspiel.Ending]int{kriegspiel.NotOver: goesOn, kriegspiel.CheckmateWhiteWins: mates,
					kriegspiel.DrawStalemate: stalemates}
				end, known := wantEnd[a.End]
				if !known {
					continue // a draw by material: the planner plays only with a queen or rook
				}
				if o == nil || o.end != end || (end == goesOn && o.checks != a.Checks) {
					t.Fatalf("%s, king on %s: %s announces %s, the model %+v", fen, s, m, a, o)
				}
				if end == goesOn {
					var steps chess.Bitboard
					for _, km := range chess.LegalMoves(&after) {
						steps |= km.To.Bit()
					}
					if steps&^tr.next(*o) != 0 {
						t.Fatalf("%s, king on %s: after %s it may step to %v, the model says %v", fen, s, m,
							steps.Squares(), tr.next(*o).Squares())
					}
				}
			}
		}
	}
}

// TestMaterMates checks the mater on positions with one right answer: it
// plays a mate in one when the king's square is known.
func TestMaterMates(t *testing.T) {
	tests := []struct{ name, fen string }{
		{"queen in the corner", "k7/8/1K6/8/8/8/8/7Q w - - 0 1"},
		{"rook in the corner", "k7/8/1K6/8/8/8/8/7R w - - 0 1"},
		{"queen on the edge", "1k6/8/1K6/8/8/8/8/3Q4 w - - 0 1"},
		{"rook on the edge", "3k4/8/3K4/8/8/8/8/R7 w - - 0 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := chess.MustParseFEN(tt.fen)
			bl, err := NewBelief(kriegspiel.Wild16(), b, chess.NoSquare)
			if err != nil {
				t.Fatal(err)
			}
			bl.squares = b.KingSquare(chess.Black).Bit() // as if every other square were ruled out
			mine := bl.Mine()
			got, ok := NewMater(1).Choose(bl, chess.LegalMoves(&mine))
			if a, _ := kriegspiel.Announce(kriegspiel.Wild16(), b, got); !ok || a.End != kriegspiel.CheckmateWhiteWins {
				t.Errorf("chose %s (ok %v), which announces %s, not mate", got, ok, a)
			}
		})
	}
}

// TestMaterConverts plays generated positions out against both defenders
// and checks that no game is lost to a stalemate or a piece left to the
// king, and that most are mated within the fifty-move rule (the benchmark,
// BenchmarkMates, measures the rate on many more).
func TestMaterConverts(t *testing.T) {
	for _, rules := range rulesets()[:2] {
		for _, piece := range []chess.PieceType{chess.Queen, chess.Rook} {
			for _, mk := range []func(*rand.Rand) defender{
				func(r *rand.Rand) defender { return randomDefender{r} },
				func(r *rand.Rand) defender { return adversary{r} },
			} {
				t.Run(rules.Name+"/"+piece.String()+"/"+mk(nil).name(), func(t *testing.T) {
					tl := run(t, rules, piece, mk, games(6), 21)
					if n := tl.ends[kriegspiel.DrawStalemate] + tl.ends[kriegspiel.DrawInsufficient]; n > 0 {
						t.Errorf("%d games stalemated or lost the piece: %s", n, tl)
					}
					if tl.missed > 0 {
						t.Errorf("the belief lost the king: %s", tl)
					}
					if tl.mates < tl.games/2 {
						t.Errorf("too few mates: %s", tl)
					}
				})
			}
		}
	}
}
