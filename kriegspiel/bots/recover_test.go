package bots

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator"
)

// TestSamplingRebuildsALostBelief: a belief lost mid-game is rebuilt as a
// hybrid belief from what the player heard (again if the small hybrid
// empties too), and the player ends the game with boards to choose from;
// with recover=none it plays at random from the loss on.
func TestSamplingRebuildsALostBelief(t *testing.T) {
	rec := randomGame(t, 24)
	for _, mode := range []string{"hybrid", "none"} {
		cfg := DefaultSamplingConfig()
		cfg.Recover, cfg.BeliefLimit, cfg.ThinTo = mode, 5_000, 200
		p := NewSampling(cfg, evaluator.NewEmbedded(), 1, nil)
		lostAt := -1
		followAs(t, p, rec, func(int) {}, func(i int) {
			if lostAt < 0 && i >= 10 {
				lostAt = i
				p.check(context.Background(), time.Now(), errors.New("a belief emptied, as a cut one may be"))
			}
		})
		if lostAt < 0 {
			t.Fatal("the game was too short to lose the belief in")
		}
		switch mode {
		case "hybrid":
			if p.lost || p.belief.Name() != "hybrid" || len(p.belief.Boards()) == 0 {
				t.Errorf("recover=hybrid: lost %v, belief %s of %d boards at the end", p.lost, p.belief.Name(), len(p.belief.Boards()))
			}
			if p.Losses < 1 || p.Recoveries < 1 || p.Recoveries > p.Losses+maxRecoveries {
				t.Errorf("recover=hybrid: %d losses, %d rebuilds", p.Losses, p.Recoveries)
			}
			t.Logf("belief lost at turn %d; %d losses, %d rebuilds, %d boards at the end (turn %d)",
				lostAt, p.Losses, p.Recoveries, len(p.belief.Boards()), len(rec.Turns))
		case "none":
			if !p.lost || p.Recoveries != 0 {
				t.Errorf("recover=none: lost %v, %d rebuilds", p.lost, p.Recoveries)
			}
		}
	}
}
