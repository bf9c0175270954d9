// Package player names Blindfish's bots: every tool (match, the server
// client) builds a player from the same spec strings through NewPlayer, so a
// bot added to the table here is at once playable everywhere.
package engine

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"

	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/internal/spec"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Params are a spec's settings: "blindfish:k=v,x=y" gives {k: v, x: y}.
// The grammar is internal/spec's, shared with the Kriegspiel bots.
type Params = spec.Params

// Bot describes one buildable bot.
type Bot struct {
	Name    string
	Summary string
	// New builds a player from the spec's settings and a seed for all its
	// random choices (the same seed and settings replay the same choices).
	New func(p Params, seed int64) (rbc.Player, error)
}

// Bots returns every known bot, in the order help texts list them. To add a
// bot, add one line here.
func Bots() []Bot {
	return []Bot{
		{"random", "the harness's RandomBot: random sense, random move action or pass", noParams("random", func(seed int64) rbc.Player { return baseline.NewRandom(NewRand(seed)) })},
		{"attacker", "the harness's AttackerBot: one of four scripted rushes, random senses", noParams("attacker", func(seed int64) rbc.Player { return baseline.NewAttacker(NewRand(seed)) })},
		{"trout", "the harness's TroutBot: one board of what it saw, Stockfish 0.5 s (needs Stockfish; settings robust=true, movetime=500ms)", newTrout},
		{"blindfish", "our player: a belief, sense and move strategies, a clock manager (settings: see player.ConfigKeys)", newBlindfishBot},
	}
}

// noParams adapts a constructor for a bot without settings.
func noParams(name string, f func(seed int64) rbc.Player) func(Params, int64) (rbc.Player, error) {
	return func(p Params, seed int64) (rbc.Player, error) {
		if err := p.Check(name); err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		return f(seed), nil
	}
}

// NewPlayer builds the bot a spec names: "name" or "name:key=value,...".
// An unknown name is an error listing the known ones.
func NewPlayer(spec string, seed int64) (rbc.Player, error) {
	name, params, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, b := range Bots() {
		if b.Name == name {
			p, err := b.New(params, seed)
			if err != nil {
				return nil, fmt.Errorf("engine: bot %q: %w", spec, err)
			}
			return p, nil
		}
		names = append(names, b.Name)
	}
	return nil, fmt.Errorf("engine: unknown bot %q (known: %s)", name, strings.Join(names, ", "))
}

// NewLoggingPlayer is NewPlayer, but the blindfish bot logs its decisions
// (the values behind each choice) to log, so that a tool replaying a game
// through it can show why it chose what it did; the other bots have no
// decision log.
func NewLoggingPlayer(spec string, seed int64, log *slog.Logger) (rbc.Player, error) {
	name, params, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	if name != "blindfish" {
		return NewPlayer(spec, seed)
	}
	cfg, err := ParseConfig(params)
	if err != nil {
		return nil, err
	}
	return NewBlindfish(cfg, Options{Seed: seed, Logger: log})
}

// ParseSpec splits a bot spec into its name and settings (spec.Parse).
func ParseSpec(botSpec string) (name string, params Params, err error) {
	name, params, err = spec.Parse(botSpec)
	if err != nil {
		return "", nil, fmt.Errorf("engine: %w", err)
	}
	return name, params, nil
}

// NewRand returns the random generator a bot built with seed draws from.
func NewRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}

// Evaluates says which evaluator the bot of spec scores boards with, as a
// match prints it before its games ("Stockfish (/usr/games/stockfish)",
// "the embedded evaluator: no Stockfish found"), or "" for a bot that
// scores none (random, attacker) or one this build does not make.
func Evaluates(spec string) string {
	name, params, err := ParseSpec(spec)
	if err != nil {
		return ""
	}
	kind := evaluator.KindStockfish // trout's
	switch name {
	case "blindfish":
		c, err := ParseConfig(params)
		if err != nil {
			return ""
		}
		kind = c.Eval
	case "trout":
	default:
		return ""
	}
	if kind == evaluator.KindEmbedded {
		return "the embedded evaluator"
	}
	path, err := evaluator.LookupStockfish()
	switch {
	case err == nil:
		return "Stockfish (" + path + ")"
	case kind == evaluator.KindAuto:
		return "the embedded evaluator: no Stockfish found (install Debian's stockfish for the full strength)"
	}
	return "no evaluator: " + err.Error()
}
