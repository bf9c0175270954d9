package endgame

import (
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// rulesets are the rules the tests play under: the two that differ in what
// a player hears (wild16 keeps an opponent's illegal tries to itself,
// berkeley announces them), with the chess draw rules so that a game that
// does not progress ends.
func rulesets() []kriegspiel.Ruleset {
	return []kriegspiel.Ruleset{kriegspiel.Wild16().WithChessDraws(), kriegspiel.Berkeley().WithChessDraws(),
		kriegspiel.BerkeleyAny().WithChessDraws()}
}

// TestBeliefHoldsTheKing plays generated positions out with the mater
// against both defenders and checks after every answer that the belief
// holds the king's true square.
func TestBeliefHoldsTheKing(t *testing.T) {
	defenders := []func(*rand.Rand) defender{
		func(r *rand.Rand) defender { return randomDefender{r} },
		func(r *rand.Rand) defender { return adversary{r} },
	}
	for _, rules := range rulesets() {
		for _, piece := range []chess.PieceType{chess.Queen, chess.Rook} {
			for _, mk := range defenders {
				t.Run(rules.Name+"/"+piece.String()+"/"+mk(nil).name(), func(t *testing.T) {
					tl := run(t, rules, piece, mk, games(3), 11)
					if tl.missed > 0 || tl.declined > 0 {
						t.Errorf("%s", tl)
					}
				})
			}
		}
	}
}

// TestBeliefFollowsRandomPlay has White play random moves with random
// material (pawns that push and promote, minor pieces, double checks)
// while the belief follows, so the belief is checked on answers the mater
// never asks for.
func TestBeliefFollowsRandomPlay(t *testing.T) {
	for _, rules := range rulesets() {
		rng := rand.New(rand.NewPCG(3, 5))
		for range 30 {
			fen := randomArmy(rng)
			g, err := kriegspiel.NewGameFromFEN(rules, fen)
			if err != nil {
				t.Fatal(err)
			}
			bl, err := NewBelief(rules, chess.MustParseFEN(fen), chess.NoSquare)
			if err != nil {
				t.Fatalf("%s: %v", fen, err)
			}
			black := randomDefender{rng}
			for ply := 0; ply < 80 && !g.Over(); ply++ {
				for !g.Over() {
					qs := g.Questions(nil)
					q := qs[rng.IntN(len(qs))]
					a, _ := g.Ask(q)
					if err := bl.Own(q, a); err != nil {
						t.Fatalf("%s %s: %v", rules.Name, fen, err)
					}
					holds(t, g, bl)
					if a.Verdict.Done() {
						break
					}
				}
				heard := defenderTurn(g, rules, black)
				if err := bl.Opponent(heard); err != nil {
					t.Fatalf("%s %s: %v", rules.Name, fen, err)
				}
				holds(t, g, bl)
			}
		}
	}
}

// games returns n, or 1 under -short (the race pass runs ten times slower).
func games(n int) int {
	if testing.Short() {
		return 1
	}
	return n
}

// holds fails the test when the belief lacks the king's true square.
func holds(t *testing.T, g *kriegspiel.Game, bl *Belief) {
	t.Helper()
	if g.Over() {
		return
	}
	b := g.Board()
	if k := b.KingSquare(chess.Black); !bl.Squares().Has(k) {
		t.Fatalf("%s: the belief %v lacks the king's square %s", b.FEN(), bl.Squares().Squares(), k)
	}
	mine := bl.Mine()
	if mine.Pieces(chess.White) != b.Pieces(chess.White) {
		t.Fatalf("%s: the belief's men %s differ", b.FEN(), mine.FEN())
	}
}

// randomArmy returns a legal position of White's king with a queen or rook
// and a few random men against Black's lone king, White to move.
func randomArmy(rng *rand.Rand) string {
	types := []chess.PieceType{chess.Pawn, chess.Pawn, chess.Knight, chess.Bishop, chess.Rook, chess.Queen}
	for {
		b := chess.MustParseFEN("8/8/8/8/8/8/8/8 w - - 0 1")
		sq := rng.Perm(64)
		b.SetPiece(chess.Square(sq[0]), chess.MakePiece(chess.White, chess.King))
		b.SetPiece(chess.Square(sq[1]), chess.MakePiece(chess.Black, chess.King))
		b.SetPiece(chess.Square(sq[2]), chess.MakePiece(chess.White, []chess.PieceType{chess.Queen, chess.Rook}[rng.IntN(2)]))
		for i := range rng.IntN(4) {
			s := chess.Square(sq[3+i])
			p := types[rng.IntN(len(types))]
			if p == chess.Pawn && (s.Rank() == 0 || s.Rank() == 7) {
				continue
			}
			b.SetPiece(s, chess.MakePiece(chess.White, p))
		}
		if chess.Attackers(&b, b.KingSquare(chess.Black), chess.White) != 0 {
			continue
		}
		if g, err := kriegspiel.NewGameFromFEN(kriegspiel.Wild16(), b.FEN()); err == nil && !g.Over() {
			return b.FEN()
		}
	}
}

// TestBeliefDropsWhatAnswersRuleOut checks a few answers by hand.
func TestBeliefDropsWhatAnswersRuleOut(t *testing.T) {
	mine := chess.MustParseFEN("8/8/8/8/8/8/8/R3K3 w - - 0 1")
	// Free of our men and their attacks: off the a-file, a1–e1 and the
	// king's steps (g1 and h1 stand behind our king).
	start := ^(chess.Bitboard(0x1F) | 0x0101_0101_0101_0101 | chess.KingAttacks(chess.E1))
	tests := []struct {
		name string
		q    string
		a    kriegspiel.Answer
		want chess.Bitboard // squares kept, within the starting set
	}{
		{"our king refused: the king stands next to its target", "e1e2",
			kriegspiel.Answer{Verdict: kriegspiel.Illegal, Capture: chess.NoSquare, PawnTries: -1},
			chess.D3.Bit() | chess.E3.Bit() | chess.F3.Bit()},
		{"a rook move impossible for our own men tells nothing", "a1h1",
			kriegspiel.Answer{Verdict: kriegspiel.Illegal, Capture: chess.NoSquare, PawnTries: -1},
			start},
		{"a check along the rank: the king is on the rank", "a1a2",
			kriegspiel.Answer{Verdict: kriegspiel.Moved, Capture: chess.NoSquare, Checks: [2]kriegspiel.Check{kriegspiel.CheckRank}, PawnTries: 0},
			chess.B2.Bit() | chess.C2.Bit() | chess.G2.Bit() | chess.H2.Bit()},
		{"a quiet move: the king is off the rank and the a-file", "a1a2",
			kriegspiel.Answer{Verdict: kriegspiel.Moved, Capture: chess.NoSquare, PawnTries: 0},
			start &^ 0xFF00},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bl, err := NewBelief(kriegspiel.Wild16(), mine, chess.NoSquare)
			if err != nil {
				t.Fatal(err)
			}
			q, err := kriegspiel.ParseQuestion(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if err := bl.Own(q, tt.a); err != nil {
				t.Fatal(err)
			}
			if got := bl.Squares(); got != tt.want {
				t.Errorf("kept %v, want %v", got.Squares(), tt.want.Squares())
			}
		})
	}
}
