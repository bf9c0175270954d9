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
)

// playBlindfish plays one game of blindfish (embedded evaluator, small
// samples) against opp under the real clock and returns the result.
func playBlindfish(t *testing.T, opp rbc.Player, asWhite bool, clock time.Duration, inc time.Duration, seed int64, spec Params) *rbc.GameResult {
	t.Helper()
	cfg, err := ParseConfig(spec)
	if err != nil {
		t.Fatal(err)
	}
	level := slog.LevelWarn
	if os.Getenv("BLINDFISH_TEST_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	bf, err := NewBlindfish(cfg, Options{Seed: seed, Evaluator: evaluator.NewEmbedded(), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer bf.Close()
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = clock, inc
	opts.Logger = log
	white, black := rbc.Player(bf), opp
	opts.WhiteName, opts.BlackName = "blindfish", "opponent"
	if !asWhite {
		white, black = opp, bf
		opts.WhiteName, opts.BlackName = "opponent", "blindfish"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := rbc.PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		t.Fatal(err)
	}
	s := bf.Stats()
	t.Logf("%s vs %s: %v after %d turns (blindfish used %v, left %v; fast %d, emergency %d, fallbacks %d, late %d, failovers %d, panics %d)",
		opts.WhiteName, opts.BlackName, res.History.Outcome, s.Turns, res.Used[colorOf(asWhite)], res.Left[colorOf(asWhite)],
		s.FastTurns, s.Emergencies, s.Fallbacks, s.LateUpdates, s.Failovers, s.Panics)
	if s.Panics > 0 {
		t.Errorf("blindfish panicked %d times", s.Panics)
	}
	return res
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
			res := playBlindfish(t, tc.opp(int64(i)), tc.asWhite, 15*time.Second, 200*time.Millisecond, int64(i), spec)
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
