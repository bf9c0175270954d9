// Package engine names Blindfish's bots: every tool (match, the server
// client) builds a player from the same spec strings through NewPlayer, so a
// bot added to the table here is at once playable everywhere.
package engine

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/blindfish-rbc/blindfish/engine/baseline"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Params are a spec's settings: "blindfish:k=v,x=y" gives {k: v, x: y}.
type Params map[string]string

// Check returns an error naming any setting not in allowed, so that a typo
// in a spec fails loudly instead of being ignored.
func (p Params) Check(bot string, allowed ...string) error {
	var bad []string
	for k := range p {
		if !slices.Contains(allowed, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	if len(allowed) == 0 {
		return fmt.Errorf("engine: bot %q takes no settings, got %s", bot, strings.Join(bad, ", "))
	}
	return fmt.Errorf("engine: bot %q has no setting %s (it has %s)", bot, strings.Join(bad, ", "), strings.Join(allowed, ", "))
}

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
		{"blindfish", "our player: a belief, sense and move strategies, a clock manager (settings: see engine.ConfigKeys)", newBlindfishBot},
	}
}

// noParams adapts a constructor for a bot without settings.
func noParams(name string, f func(seed int64) rbc.Player) func(Params, int64) (rbc.Player, error) {
	return func(p Params, seed int64) (rbc.Player, error) {
		if err := p.Check(name); err != nil {
			return nil, err
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

// ParseSpec splits a bot spec into its name and settings.
func ParseSpec(spec string) (name string, params Params, err error) {
	name, rest, hasParams := strings.Cut(spec, ":")
	if name == "" {
		return "", nil, fmt.Errorf("engine: bad bot spec %q: no bot name", spec)
	}
	params = Params{}
	if !hasParams {
		return name, params, nil
	}
	for kv := range strings.SplitSeq(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("engine: bad bot spec %q: setting %q is not key=value", spec, kv)
		}
		if _, dup := params[k]; dup {
			return "", nil, fmt.Errorf("engine: bad bot spec %q: setting %q given twice", spec, k)
		}
		params[k] = v
	}
	return name, params, nil
}

// NewRand returns the random generator a bot built with seed draws from.
func NewRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
}
