package bots

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator"
)

// TestSamplingRebuildsALostBelief: a belief lost mid-game is rebuilt as a
// hybrid belief from what the player heard, and it follows the rest of the
// game without losing its boards again; with recover=none the player plays
// at random instead.
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
			if p.Losses != 1 || p.Recoveries != 1 {
				t.Errorf("recover=hybrid: %d losses, %d rebuilds; want 1 and 1", p.Losses, p.Recoveries)
			}
			t.Logf("belief lost at turn %d, rebuilt; %d boards at the end (turn %d)", lostAt, len(p.belief.Boards()), len(rec.Turns))
		case "none":
			if !p.lost || p.Recoveries != 0 {
				t.Errorf("recover=none: lost %v, %d rebuilds", p.lost, p.Recoveries)
			}
		}
	}
}
