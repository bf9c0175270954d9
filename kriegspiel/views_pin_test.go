package kriegspiel

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestSampledViewsPinned pins the boards each sampling belief holds, turn
// by turn, over short fixed-seed games: a digest of every board's FEN in
// order, the turn at which a view stopped and its counts of searches and
// draws. A small size makes AOSP lose
// the true board and search the whole game again, and the hybrid top its
// pool up with LOS's boards, so every path of the samplers is in the
// digest. A change of a digest is a change of behaviour: of the draws,
// their order or their use of the random numbers.
func TestSampledViewsPinned(t *testing.T) {
	want := map[string]string{
		"berkeley 31 aosp black":   "e0cedf2f71294647",
		"berkeley 31 aosp white":   "2a7dda559715e61f",
		"berkeley 31 hybrid black": "e0cedf2f71294647",
		"berkeley 31 hybrid white": "2637ece609351ad2",
		"berkeley 31 los black":    "cd4ebf3e485c97fc",
		"berkeley 31 los white":    "2f46ffd42372d521",
		"berkeley 32 aosp black":   "37f1ec8818b2ea05",
		"berkeley 32 aosp white":   "4981939995927a52",
		"berkeley 32 hybrid black": "37f1ec8818b2ea05",
		"berkeley 32 hybrid white": "4981939995927a52",
		"berkeley 32 los black":    "15c0cf4a7b4774b3",
		"berkeley 32 los white":    "03537d19f6423d8b",
		"wild16 31 aosp black":     "0dca053591c02cc0",
		"wild16 31 aosp white":     "be65dbed9ce3c03d",
		"wild16 31 hybrid black":   "39713aecc2e00960",
		"wild16 31 hybrid white":   "be65dbed9ce3c03d",
		"wild16 31 los black":      "d0f8fd7ef6d2479f",
		"wild16 31 los white":      "06470cfc30a051ea",
		"wild16 32 aosp black":     "66e2fe1c1b9fdaf5",
		"wild16 32 aosp white":     "3ccc75e5000225d1",
		"wild16 32 hybrid black":   "800f28dd31e36b25",
		"wild16 32 hybrid white":   "3ccc75e5000225d1",
		"wild16 32 los black":      "4c3fc069642ccf7d",
		"wild16 32 los white":      "8717efd3c5cfd6a6",
	}
	got := map[string]string{}
	for _, rules := range []Ruleset{Wild16(), Berkeley()} {
		for _, seed := range []uint64{31, 32} {
			rec := randomRecord(t, rules, seed, 20)
			start, _ := chess.ParseFEN(rec.StartFEN)
			for _, name := range []string{"aosp", "los", "hybrid"} {
				for _, c := range []chess.Color{chess.White, chess.Black} {
					v, err := NewView(name, c, rules, start, rec.PawnTries, 6, rand.New(rand.NewPCG(5, uint64(c))))
					if err != nil {
						t.Fatal(err)
					}
					h := fnv.New64a()
					var st FollowStats
					err = follow(context.Background(), rec, c, 20, v, func(turn int, _ *chess.Board) error {
						fmt.Fprintf(h, "turn %d:", turn)
						for _, b := range v.Boards() {
							fmt.Fprintf(h, "%s;", b.FEN())
						}
						return nil
					}, &st)
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(h, "stopped %v at %d", st.Stopped != nil, st.StoppedAt)
					s := v.(*sampled)
					fmt.Fprintf(h, ", %d regenerations, %d draws", s.Regenerations, s.Draws)
					got[fmt.Sprintf("%s %d %s %s", rules.Name, seed, name, c)] = fmt.Sprintf("%016x", h.Sum64())
				}
			}
		}
	}
	for k, g := range got {
		if want[k] != g {
			t.Errorf("%q: %q, // was %q", k, g, want[k])
		}
	}
}
