package kriegspiel

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
)

// TestTurnCutKeepsInProportion: fed 60,000 boards of weights 1 and 4 with a
// limit of 2,000, the cut never holds more than the limit, keeps those of
// weight 4 about four times as often, and what it keeps stands for about
// the 60,000.
func TestTurnCutKeepsInProportion(t *testing.T) {
	const n, limit = 60_000, 2_000
	c := &turnCut{on: true, weighted: true, salt: 7}
	out := newBoardSet(&boardSet{})
	b := chess.StartBoard()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		w := 1.0
		if i%2 == 1 {
			w = 4
		}
		k := rng.Uint64()
		var err error
		if out, err = c.add(context.Background(), out, &b, k, oppmodel.Priority(k^c.salt, w), limit); err != nil {
			t.Fatal(err)
		}
		if out.n > limit || len(c.w) != out.n {
			t.Fatalf("after %d boards: %d kept (%d weights), limit %d", i+1, out.n, len(c.w), limit)
		}
	}
	heavy := 0
	for _, w := range c.w {
		if w > 2 {
			heavy++
		}
	}
	light := len(c.w) - heavy
	if r := float64(heavy) / float64(light); r < 3.3 || r > 4.7 {
		t.Errorf("kept %d of weight 1 and %d of weight 4: ratio %.2f, want about 4", light, heavy, r)
	}
	if s := c.stands(out.n); math.Abs(s-n)/n > 0.1 {
		t.Errorf("the %d boards kept stand for %.0f, want about %d", out.n, s, n)
	}
	if out.n < limit/2 {
		t.Errorf("kept %d boards, fewer than half the limit", out.n)
	}
}

// TestTurnCutWeight: the weighted cut weighs a board by the opponent model
// from the belief's side, more the nearer the opponent's pieces are to our
// king; the uniform one weighs every board 1.
func TestTurnCutWeight(t *testing.T) {
	home := chess.MustParseFEN("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1")
	out := chess.MustParseFEN("4k3/8/5n2/8/8/8/8/4K3 w - - 0 1")
	near := chess.MustParseFEN("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1")
	bl := NewBelief(chess.White, Wild16(), chess.StartBoard(), -1)
	bl.SetWeightedCut(true)
	c := bl.newTurnCut()
	if wh, wo, wn := c.weight(&home), c.weight(&out), c.weight(&near); !(wn > wo && wo > wh) {
		t.Errorf("weights: knight next to our king %v, out %v, at home %v; want them in that order", wn, wo, wh)
	}
	bl.SetWeightedCut(false)
	c = bl.newTurnCut()
	for _, b := range []*chess.Board{&home, &out, &near} {
		if w := c.weight(b); w != 1 {
			t.Errorf("uniform cut: weight %v of %s, want 1", w, b.FEN())
		}
	}
}

// TestBeliefCutFavoursTheModel: at the first cut of a random game's belief,
// the boards the weighted cut keeps weigh more under the opponent model, on
// average, than the exact set's boards do; the uniform cut's weigh about
// the same. Both keep at most the limit, and the same boards whatever the
// workers and the memory budget.
func TestBeliefCutFavoursTheModel(t *testing.T) {
	const turns, limit = 10, 2_000
	rec, start, exact := cutGame(t, turns)
	prior := oppmodel.Kriegspiel(chess.Black)
	// mean returns the boards' mean weight, and what the mean of a sample
	// that keeps each in proportion to its weight would be.
	mean := func(boards []chess.Board) (float64, float64) {
		sum, sq := 0.0, 0.0
		for i := range boards {
			w := prior.Weight(&boards[i])
			sum += w
			sq += w * w
		}
		return sum / float64(len(boards)), sq / sum
	}
	for _, uniform := range []bool{false, true} {
		var base [][]chess.Board
		for _, setup := range []struct {
			workers int
			budget  int64
		}{{1, 0}, {3, 0}, {2, 500 * 80}} {
			bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
			bl.SetLimit(limit)
			bl.SetCut(true)
			bl.SetWeightedCut(!uniform)
			bl.SetWorkers(setup.workers)
			bl.SetMemory(setup.budget, t.TempDir())
			var trace [][]chess.Board
			checked := false
			err := followBelief(rec, bl, chess.Black, turns, 0, func(turn int, bl *Belief, _ *chess.Board) error {
				if bl.Len() > limit {
					return fmt.Errorf("%d boards, over the limit", bl.Len())
				}
				trace = append(trace, slices.Clone(bl.Boards()))
				if bl.Exact() || checked || base != nil {
					return nil
				}
				checked = true
				all, weighted := mean(exact[turn])
				kept, _ := mean(bl.Boards())
				t.Logf("uniform %v: the first cut, after turn %d, kept %d of %d boards, of mean weight %.3f times the exact set's (a weighted sample's: %.3f)",
					uniform, turn, bl.Len(), len(exact[turn]), kept/all, weighted/all)
				if mid := (all + weighted) / 2; uniform != (kept < mid) {
					return fmt.Errorf("the cut's boards weigh %.3f times the exact set's on average, a weighted sample's %.3f: on the wrong side of the middle",
						kept/all, weighted/all)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("uniform %v, workers %d, budget %d: %v", uniform, setup.workers, setup.budget, err)
			}
			if bl.Cuts() == 0 {
				t.Fatalf("uniform %v: never cut", uniform)
			}
			bl.Close()
			if base == nil {
				base = trace
				continue
			}
			for turn := range trace {
				if !slices.Equal(trace[turn], base[turn]) {
					t.Fatalf("uniform %v, workers %d, budget %d: after turn %d, %d boards, not the %d of one worker in memory",
						uniform, setup.workers, setup.budget, turn, len(trace[turn]), len(base[turn]))
				}
			}
		}
	}
}
