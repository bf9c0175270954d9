package engine

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/rbc"
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
	// eval replaces the embedded evaluator; newBelief makes every belief
	// (Options.NewBelief).
	eval      evaluator.Evaluator
	newBelief BeliefFactory
	// virtual plays under the referee's virtual clock, which only the
	// test could move (it does not): no callback is charged, so the game
	// cannot be lost on time however slow the machine, and the player,
	// timed on the same clock, plans every turn with the full clock. Its
	// deadlines stay real, so it plays as it would at that clock. The
	// clock starts a year ahead of the real one, so that the deadlines it
	// puts on the callbacks' contexts lie far in the real future.
	virtual bool
}

// play plays the game and returns its result and blindfish's counters.
func (g game) play(t *testing.T) (*rbc.GameResult, PlayerStats) {
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
	var now func() time.Time
	if g.virtual {
		clock := chessclock.NewManual(time.Now().AddDate(1, 0, 0))
		opts.Clock, now = clock, clock.Now
	}
	bf, err := NewBlindfish(cfg, Options{Seed: g.seed, Evaluator: eval, Logger: log, Now: now, NewBelief: g.newBelief})
	if err != nil {
		t.Fatal(err)
	}
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
	// The process's memory limit counts on this (MemoryBound).
	if s.BeliefMB < 64 || s.BeliefPeakMB > 2*s.BeliefMB {
		t.Errorf("the belief's boards peaked at %d MB against a budget of %d MB (at most twice that: live set and backlog)", s.BeliefPeakMB, s.BeliefMB)
	}
	return res, s
}

func colorOf(white bool) chess.Color {
	if white {
		return chess.White
	}
	return chess.Black
}

// cleanly checks what a test game must show however busy the machine:
// it ended by the rules (no illegal request, no resignation, no loss on
// time, no panic). Whether blindfish won depends on how much work it got
// done in its budgets, so a loss fails the test only when the player saw no
// sign of a starved machine (no decision cut off, no belief replaced, no
// slowness measured) and the race detector, which slows it many times over,
// is off; otherwise it is logged.
func cleanly(t *testing.T, res *rbc.GameResult, s PlayerStats, us chess.Color) {
	t.Helper()
	o := res.History.Outcome
	switch {
	case o.Reason == rbc.Timeout || o.Reason == rbc.IllegalAction || o.Reason == rbc.Resign:
		t.Errorf("game ended badly: %v", o)
	case !o.HasWinner || o.Winner == us:
	case raceEnabled || s.Cutoffs > 0 || s.Failovers > 0 || s.Slowness > 1:
		t.Logf("blindfish lost on a starved machine (cut-offs %d, failovers %d, slowness %.2f): %v",
			s.Cutoffs, s.Failovers, s.Slowness, o)
	default:
		t.Errorf("blindfish lost: %v", o)
	}
}

// TestGamesAgainstBaselines: games against random and attacker end by the
// rules, and blindfish does not lose them (see cleanly). They run under the
// referee's virtual clock at 5+0.1 (see game.virtual): the player plans
// each turn as at that clock, and no time is charged, so a busy machine
// costs strength, never the game on time. (That the player never flags on
// a starved machine under the real clock is TestStarvedPlayerNeverFlags.)
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
			res, s := game{opp: tc.opp(int64(i)), asWhite: tc.asWhite, clock: 5 * time.Second, inc: 100 * time.Millisecond,
				turnLimit: 80, seed: int64(i), spec: spec, virtual: true}.play(t)
			cleanly(t, res, s, colorOf(tc.asWhite))
		})
	}
}

// TestGameWithStockfish plays one short game on Stockfish (the evaluator the
// player uses in matches) against random, under the referee's virtual clock
// as TestGamesAgainstBaselines. It is skipped when no Stockfish is
// installed, except under CI=true, where a missing engine is a failure
// (stockfishtest.Path).
func TestGameWithStockfish(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a game")
	}
	path := stockfishtest.Path(t)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := evaluator.NewPool(ctx, evaluator.PoolConfig{Path: path, Size: 1, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	eval := evaluator.NewStockfish(pool, evaluator.StockfishConfig{Logger: log})
	defer eval.Close()
	res, s := game{opp: baseline.NewRandom(NewRand(5)), asWhite: true, clock: 5 * time.Second, inc: 100 * time.Millisecond,
		turnLimit: 80, seed: 5, eval: eval, virtual: true,
		spec: Params{"samples": "24", "voisamples": "12", "sensesamples": "300", "depth": "4", "engines": "1"}}.play(t)
	cleanly(t, res, s, chess.White)
	// The game-end line reports the engine's memory beside the belief's
	// (read from the running engine here: the test owns the pool).
	if runtime.GOOS == "linux" && s.EnginesPeakMB <= 0 {
		t.Errorf("no peak memory for the Stockfish engine: %+v", s)
	}
}
