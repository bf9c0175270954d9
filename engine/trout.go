package engine

import (
	"fmt"
	"strconv"
	"time"

	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// newTrout builds the Trout baseline from a spec's settings:
// "trout", "trout:robust=true", "trout:movetime=500ms". It fails with a
// message naming evaluator.ErrNoStockfish when no Stockfish is installed.
func newTrout(p Params, seed int64) (rbc.Player, error) {
	if err := p.Check("trout", "robust", "movetime"); err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	cfg := baseline.TroutConfig{Rand: NewRand(seed)}
	if v, ok := p["robust"]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("engine: trout: robust=%q: want true or false", v)
		}
		cfg.Robust = b
	}
	if v, ok := p["movetime"]; ok {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("engine: trout: movetime=%q: want a positive duration such as 500ms", v)
		}
		cfg.MoveTime = d
	}
	return baseline.NewTrout(cfg)
}
