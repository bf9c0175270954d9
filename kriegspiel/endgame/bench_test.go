package endgame

import (
	"flag"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

var (
	benchGames = flag.Int("endgame.games", 200, "positions each BenchmarkMates and BenchmarkKPK case plays")
	// benchSeed picks the generated positions, the defenders' streams and
	// the trackers' seeds. The planners' parameters were tuned on the
	// default; another seed checks that they were not fitted to its games.
	benchSeed = flag.Uint64("endgame.seed", 1, "seed of the positions each BenchmarkMates and BenchmarkKPK case plays")
)

// BenchmarkMates plays generated won positions (a random legal KQK or KRK,
// White to move, the king's square unknown) out against the random and the
// adversarial defender under wild16 and berkeley with the fifty-move rule,
// and reports the share mated within it (mate%), the moves a mate took
// (moves/mate, max-moves) and the games where the belief lost the king
// (lost). Run it once, not for time:
//
//	go test ./kriegspiel/endgame -run '^$' -bench Mates -benchtime 1x
func BenchmarkMates(b *testing.B) {
	for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16().WithChessDraws(), kriegspiel.Berkeley().WithChessDraws()} {
		for _, piece := range []chess.PieceType{chess.Queen, chess.Rook} {
			for _, mk := range []func(*rand.Rand) defender{
				func(r *rand.Rand) defender { return randomDefender{r} },
				func(r *rand.Rand) defender { return adversary{r} },
			} {
				b.Run(rules.Name+"/K"+strings.ToUpper(piece.String())+"K/"+mk(nil).name(), func(b *testing.B) {
					var tl *tally
					for range b.N {
						tl = run(b, rules, piece, mk, *benchGames, *benchSeed)
					}
					b.ReportMetric(100*float64(tl.mates)/float64(tl.games), "mate%")
					b.ReportMetric(float64(tl.moves)/float64(max(tl.mates, 1)), "moves/mate")
					b.ReportMetric(float64(tl.maxMoves), "max-moves")
					b.ReportMetric(float64(tl.missed), "lost")
					b.Logf("%s", tl)
				})
			}
		}
	}
}

// BenchmarkKPK generates random KPK placements (White: king and pawn,
// to move) under wild16 and berkeley with the fifty-move rule, White
// knowing the king's square (known) or only that it is on it or one step
// from it (near), and plays those the table wins for every square of that
// belief against the random and the adversarial defender. It reports how
// many of the generated placements were won (won), the share of those
// mated (mate%), the moves a mate took (moves/mate, max-moves), the games
// where the king took the pawn (taken) and where the belief lost the king
// (lost). Run it once, not for time:
//
//	go test ./kriegspiel/endgame -run '^$' -bench KPK -benchtime 1x -timeout 0
func BenchmarkKPK(b *testing.B) {
	for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16().WithChessDraws(), kriegspiel.Berkeley().WithChessDraws()} {
		for _, kb := range kpkBeliefs {
			for _, mk := range []func(*rand.Rand) defender{
				func(r *rand.Rand) defender { return randomDefender{r} },
				func(r *rand.Rand) defender { return adversary{r} },
			} {
				b.Run(rules.Name+"/"+kb.name+"/"+mk(nil).name(), func(b *testing.B) {
					var tl *tally
					won := 0
					for range b.N {
						tl, won = runKPK(b, rules, kb, mk, *benchGames, *benchSeed)
					}
					b.ReportMetric(float64(won), "won")
					b.ReportMetric(100*float64(tl.mates)/float64(max(tl.games, 1)), "mate%")
					b.ReportMetric(float64(tl.moves)/float64(max(tl.mates, 1)), "moves/mate")
					b.ReportMetric(float64(tl.maxMoves), "max-moves")
					b.ReportMetric(float64(tl.taken), "taken")
					b.ReportMetric(float64(tl.missed), "lost")
					b.Logf("%s", tl)
				})
			}
		}
	}
}
