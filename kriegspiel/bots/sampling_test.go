package bots

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// playAgainstRandom plays the sampling player (embedded evaluator) against
// the random player under a clock that never runs, and returns the results
// from the sampling player's side.
func playAgainstRandom(t *testing.T, rules kriegspiel.Ruleset, games int) (wins, draws, losses int, players []*Sampling) {
	t.Helper()
	eval := evaluator.NewEmbedded()
	for g := range games {
		cfg := DefaultSamplingConfig()
		cfg.Depth, cfg.Samples, cfg.BeliefLimit, cfg.ThinTo = 1, 8, 20_000, 500
		p := NewSampling(cfg, eval, uint64(g), nil)
		players = append(players, p)
		opts := kriegspiel.DefaultOptions()
		opts.Rules = rules
		r, us := gameAgainstRandom(t, p, g, uint64(100+g), opts)
		switch {
		case !r.HasWinner:
			draws++
		case r.Winner == us:
			wins++
		default:
			losses++
			t.Logf("game %d lost: %s", g, r)
		}
		if r.Reason == kriegspiel.Resign || r.Reason == kriegspiel.Timeout {
			t.Errorf("game %d: %s", g, r)
		}
	}
	return wins, draws, losses, players
}

// gameAgainstRandom plays p against the random player of randomSeed, p
// White in even games g and Black in odd ones, under opts with a clock
// that never runs (a loaded machine cannot flag either side) and a limit of
// 100 turns; it returns the result and p's colour.
func gameAgainstRandom(t *testing.T, p kriegspiel.Player, g int, randomSeed uint64, opts kriegspiel.Options) (kriegspiel.Result, chess.Color) {
	t.Helper()
	opts.Clock = chessclock.NewManual(time.Unix(0, 0))
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	opts.TurnLimit = 100
	var white, black kriegspiel.Player = p, kriegspiel.NewRandomPlayer(randomSeed)
	us := chess.White
	if g%2 == 1 {
		white, black, us = black, white, chess.Black
	}
	res, err := kriegspiel.PlayGame(context.Background(), white, black, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res.Record.Result, us
}

// TestSamplingBeatsRandom: the sampling player mates the random player far
// more often than it is mated, under every ruleset.
func TestSamplingBeatsRandom(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 1 // the race pass: a game takes tens of seconds there
	}
	wins := 0
	for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley(), kriegspiel.BerkeleyAny()} {
		w, d, l, players := playAgainstRandom(t, rules, games)
		wins += w
		thin, lost, rebuilt := 0, 0, 0
		for _, p := range players {
			thin += p.Thinnings
			lost += p.Losses
			rebuilt += p.Recoveries
		}
		t.Logf("%s: %d-%d-%d against random (belief thinned %d times, lost %d times, %d rebuilds)", rules.Name, w, d, l, thin, lost, rebuilt)
		if l > 0 || w < games/2 {
			t.Errorf("%s: %d-%d-%d against random", rules.Name, w, d, l)
		}
	}
	if wins == 0 {
		t.Errorf("no win against random under any ruleset")
	}
}
