package engine

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// game describes one test game of blindfish (embedded evaluator unless eval
// is set, small samples) against a baseline.
type game struct {
	opp        rbc.Player
	asWhite    bool
	clock, inc time.Duration
	turnLimit  int
	seed       int64
	spec       Params
	// eval replaces the embedded evaluator; wrap wraps every belief.
	eval evaluator.Evaluator
	wrap func(sampler.Sampler) sampler.Sampler
}

// play plays the game and returns its result and blindfish's counters.
func (g game) play(t *testing.T) (*rbc.GameResult, Stats) {
	t.Helper()
	cfg, err := ParseConfig(g.spec)
	if err != nil {
		t.Fatal(err)
	}
	level := slog.LevelWarn
	if os.Getenv("BLINDFISH_TEST_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	eval := g.eval
	if eval == nil {
		eval = evaluator.NewEmbedded()
	}
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment, opts.TurnLimit = g.clock, g.inc, g.turnLimit
	opts.Logger = log
	bf, err := NewBlindfish(cfg, Options{Seed: g.seed, Evaluator: eval, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	bf.wrapBelief = g.wrap
	defer bf.Close()
	white, black := rbc.Player(bf), g.opp
	opts.WhiteName, opts.BlackName = "blindfish", "opponent"
	if !g.asWhite {
		white, black = g.opp, bf
		opts.WhiteName, opts.BlackName = "opponent", "blindfish"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := rbc.PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := bf.Stats()
	t.Logf("%s vs %s: %v after %d turns (blindfish used %v, left %v; fast %d, emergency %d, fallbacks %d, cut-offs %d, late %d, failovers %d, panics %d, slowness %.2f)",
		opts.WhiteName, opts.BlackName, res.History.Outcome, s.Turns, res.Used[colorOf(g.asWhite)], res.Left[colorOf(g.asWhite)],
		s.FastTurns, s.Emergencies, s.Fallbacks, s.Cutoffs, s.LateUpdates, s.Failovers, s.Panics, s.Slowness)
	if s.Panics > 0 {
		t.Errorf("blindfish panicked %d times", s.Panics)
	}
	return res, s
}

func colorOf(white bool) rbc.Color {
	if white {
		return rbc.White
	}
	return rbc.Black
}

// TestGamesAgainstBaselines: short-clock games against random and attacker
// finish cleanly (no illegal action, no time loss, no resignation), and
// blindfish does not lose them (under the race detector, which slows the
// player many times over, only the clean finish is checked).
func TestGamesAgainstBaselines(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	spec := Params{"samples": "24", "voisamples": "12", "sensesamples": "300"}
	for i, tc := range []struct {
		name    string
		opp     func(seed int64) rbc.Player
		asWhite bool
	}{
		{"random", func(s int64) rbc.Player { return baseline.NewRandom(NewRand(s)) }, true},
		{"random", func(s int64) rbc.Player { return baseline.NewRandom(NewRand(s)) }, false},
		{"attacker", func(s int64) rbc.Player { return baseline.NewAttacker(NewRand(s)) }, true},
		{"attacker", func(s int64) rbc.Player { return baseline.NewAttacker(NewRand(s)) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, _ := game{opp: tc.opp(int64(i)), asWhite: tc.asWhite, clock: 15 * time.Second, inc: 200 * time.Millisecond,
				seed: int64(i), spec: spec}.play(t)
			o := res.History.Outcome
			switch {
			case o.Reason == rbc.Timeout || o.Reason == rbc.IllegalAction || o.Reason == rbc.Resign:
				t.Errorf("game ended badly: %v", o)
			case o.HasWinner && o.Winner != colorOf(tc.asWhite) && !raceEnabled:
				t.Errorf("blindfish lost: %v", o)
			}
		})
	}
}

// TestGameWithStockfish plays one short game on Stockfish (the evaluator the
// player uses in matches) against random. It is skipped when no Stockfish is
// installed, except under CI=true, where a missing engine is a failure.
func TestGameWithStockfish(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	path, ok := evaluator.FindStockfish()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Stockfish found under CI")
		}
		t.Skip("no Stockfish found")
	}
	cfg, err := ParseConfig(Params{"samples": "24", "voisamples": "12", "sensesamples": "300", "depth": "4", "engines": "1"})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := evaluator.NewPool(ctx, evaluator.PoolConfig{Path: path, Size: 1, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	eval := evaluator.NewStockfish(pool, evaluator.StockfishConfig{Logger: log})
	defer eval.Close()
	bf, err := NewBlindfish(cfg, Options{Seed: 5, Evaluator: eval, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = 15*time.Second, 200*time.Millisecond
	opts.Logger = log
	res, err := rbc.PlayLocalGame(ctx, bf, baseline.NewRandom(NewRand(5)), opts)
	if err != nil {
		t.Fatal(err)
	}
	o := res.History.Outcome
	t.Logf("%v after %d turns; blindfish used %v", o, len(res.History.Turns[rbc.White]), res.Used[rbc.White])
	switch {
	case o.Reason == rbc.Timeout || o.Reason == rbc.IllegalAction || o.Reason == rbc.Resign:
		t.Errorf("game ended badly: %v", o)
	case o.HasWinner && o.Winner != rbc.White && !raceEnabled:
		t.Errorf("blindfish lost to random: %v", o)
	}
}
