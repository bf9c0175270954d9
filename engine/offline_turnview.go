package engine

import (
	"log/slog"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// SenseBench runs sense strategies outside a game, on a belief replayed from
// a recorded game: the offline sense benchmark (blindfish belief --sense)
// ranks strategies in seconds this way instead of in hours of games. It holds
// what a Player holds for its decisions: the weights, a move scorer on an
// evaluator (the voi strategy scores moves) and the throughput meter.
type SenseBench struct {
	cfg     Config
	scorer  *evaluator.MoveScorer
	embed   bool
	workers int
	rate    rateMeter
	log     *slog.Logger
}

// NewSenseBench returns a bench deciding with cfg's weights and scoring on
// eval (nil: no scoring, as in Emergency mode). workers is the number of
// evaluations run at once (0: one per core). log nil means slog.Default().
func NewSenseBench(cfg Config, eval evaluator.Evaluator, workers int, log *slog.Logger) *SenseBench {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if log == nil {
		log = slog.Default()
	}
	b := &SenseBench{cfg: cfg, workers: workers, log: log}
	if eval != nil {
		b.scorer = evaluator.NewMoveScorer(eval, evaluator.DefaultMoveTerms(), 1<<18)
		b.embed = eval.Name() == "embedded"
	}
	return b
}

// TurnView returns the view of one decision in Normal mode with the given
// budget (the caller bounds the decision's context by it).
func (b *SenseBench) TurnView(number int, color chess.Color, belief sampler.Sampler, senseActions []chess.Square,
	moveActions []chess.Move, rng *rand.Rand, budget time.Duration) *TurnView {
	cfg := b.cfg
	var sc *Scoring
	if b.scorer != nil {
		depth := cfg.Depth
		if b.embed {
			depth = cfg.EmbeddedDepth
		}
		sc = &Scoring{scorer: b.scorer, workers: b.workers, rate: &b.rate, lim: evaluator.Limits{Depth: depth}}
	}
	return &TurnView{
		Number: number, Color: color, Belief: belief,
		SenseActions: senseActions, MoveActions: moveActions,
		Rand: rng, Scoring: sc, Budget: Budget{Time: budget, Mode: Normal}, Config: &cfg,
		Log: b.log.With("turn", number), Captured: chess.NoSquare,
	}
}
