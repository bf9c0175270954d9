package bots

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/internal/spec"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// bot is one line of the table New reads: a name, and what builds the
// player from a spec's settings (already split by spec.Parse).
type bot struct {
	name  string
	build func(p spec.Params, seed int64, log *slog.Logger) (kriegspiel.Player, error)
}

// table lists the Kriegspiel bots, in the order help texts list them. To
// add a bot, add one line here.
func table() []bot {
	return []bot{
		{"random", func(p spec.Params, seed int64, _ *slog.Logger) (kriegspiel.Player, error) {
			if len(p) > 0 {
				return nil, fmt.Errorf("random takes no settings")
			}
			return kriegspiel.NewRandomPlayer(uint64(seed)), nil
		}},
		{"capturer", func(p spec.Params, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
			if len(p) > 0 {
				return nil, fmt.Errorf("capturer takes no settings")
			}
			return NewCapturer(uint64(seed), log), nil
		}},
		{"sampling", newSamplingBot},
		{"mcts", func(p spec.Params, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
			cfg := DefaultMCTSConfig()
			if err := apply(&cfg, "mcts", p, mctsSettings()); err != nil {
				return nil, err
			}
			return NewMCTS(cfg, uint64(seed), log), nil
		}},
		{"darkboard", func(p spec.Params, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
			cfg := DefaultDarkboardConfig()
			if err := apply(&cfg, "darkboard", p, darkboardSettings()); err != nil {
				return nil, err
			}
			return NewDarkboard(cfg, uint64(seed), log), nil
		}},
	}
}

// Names lists the Kriegspiel bots New builds, in the order help texts list
// them.
func Names() []string {
	var names []string
	for _, b := range table() {
		names = append(names, b.name)
	}
	return names
}

// New builds the Kriegspiel player a spec names: "random", or "sampling"
// with optional settings
// "sampling:samples=48,depth=6,eval=auto,belief=exact,size=2000,limit=200000,recover=hybrid,movetime=50ms"
// (eval is auto, stockfish or embedded, as for the RBC player; belief is
// exact, aosp, los or hybrid, size the sampling beliefs' boards and the
// exact one's size once thinned, limit the exact one's size before it is
// thinned, recover what follows a lost belief: hybrid or none, and movetime
// the most a turn takes, belief and choice together, whatever the clock;
// no cap by default), or
// "mcts" (approach C, mcts.go) with optional settings
// "mcts:approach=c,k=1,boards=256,c=0.25,depth=4,iterations=200000,belief=exact,size=2000,limit=200000,recover=hybrid,movetime=50ms"
// (approach is the paper's A, B or C, k approach B's simulation length in
// our moves; boards is the most belief boards the root's answers are counted on, c
// UCB1's exploration, depth the most of our turns a line of the tree
// holds, iterations the most a decision runs; the belief's settings are
// the sampling player's), "capturer" (the random mover that tries every
// capture it may have first, capturer.go) or "darkboard" (weighed maximax
// over metapositions, darkboard.go) with optional settings
// "darkboard:depth=3,alpha=0.5,nodes=20000,movetime=1s". The grammar is the
// RBC bots' (internal/spec).
// seed fixes its random choices. A sampling player owns its evaluator: it
// is an io.Closer, to be closed after the game.
func New(botSpec string, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
	name, params, err := spec.Parse(botSpec)
	if err != nil {
		return nil, fmt.Errorf("bots: %w", err)
	}
	for _, b := range table() {
		if b.name == name {
			p, err := b.build(params, seed, log)
			if err != nil {
				return nil, fmt.Errorf("kriegspiel bot %q: %w", botSpec, err)
			}
			return p, nil
		}
	}
	return nil, fmt.Errorf("unknown kriegspiel bot %q (want %s)", botSpec, strings.Join(Names(), ", "))
}

// Check reports whether spec names a bot New can make, by making one and
// closing it: the check of a spec before a long run uses it. How the
// close went says nothing of the spec and is not reported.
func Check(spec string, log *slog.Logger) error {
	p, err := New(spec, 1, log)
	if err != nil {
		return err
	}
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
	return nil
}

// setting is one key a bot's spec takes and how it changes the bot's
// configuration C.
type setting[C any] struct {
	key string
	set func(c *C, v string) error
}

// apply applies a spec's settings to cfg in the order of their keys (so
// that the first bad one is the same on every run); an error names the key,
// and an unknown key's error lists the bot's keys.
func apply[C any](cfg *C, bot string, p spec.Params, settings []setting[C]) error {
	for _, k := range p.Keys() {
		i := slices.IndexFunc(settings, func(s setting[C]) bool { return s.key == k })
		if i < 0 {
			keys := make([]string, len(settings))
			for j, s := range settings {
				keys[j] = s.key
			}
			return fmt.Errorf("%s: unknown setting (%s has %s)", k, bot, strings.Join(keys, ", "))
		}
		if err := settings[i].set(cfg, p[k]); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}

// samplingSpec is what a sampling spec sets: the player's configuration
// and the evaluator it opens.
type samplingSpec struct {
	cfg  SamplingConfig
	eval evaluator.Kind
}

func newSamplingBot(p spec.Params, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
	s := samplingSpec{cfg: DefaultSamplingConfig(), eval: evaluator.KindAuto}
	settings := []setting[samplingSpec]{
		{"samples", func(s *samplingSpec, v string) (err error) { s.cfg.Samples, err = positive(v); return err }},
		{"depth", func(s *samplingSpec, v string) (err error) { s.cfg.Depth, err = positive(v); return err }},
		{"eval", func(s *samplingSpec, v string) (err error) { s.eval, err = evaluator.ParseKind(v); return err }},
	}
	settings = append(settings, beliefSettings(func(s *samplingSpec) *SamplingConfig { return &s.cfg })...)
	if err := apply(&s, "sampling", p, settings); err != nil {
		return nil, err
	}
	eval, err := evaluator.Open(context.Background(), s.eval, evaluator.OpenConfig{Logger: log})
	if err != nil {
		return nil, err
	}
	sp := NewSampling(s.cfg, eval, uint64(seed), log)
	sp.owned = true
	return sp, nil
}

func mctsSettings() []setting[MCTSConfig] {
	s := []setting[MCTSConfig]{
		{"boards", func(c *MCTSConfig, v string) (err error) { c.Belief.Samples, err = positive(v); return err }},
		{"c", func(c *MCTSConfig, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil && (x < 0 || math.IsInf(x, 0) || math.IsNaN(x)) {
				err = fmt.Errorf("%q is not a finite number at least 0", v)
			}
			c.Exploration = x
			return err
		}},
		{"depth", func(c *MCTSConfig, v string) (err error) { c.MaxDepth, err = positive(v); return err }},
		{"iterations", func(c *MCTSConfig, v string) (err error) { c.Iterations, err = positive(v); return err }},
		{"approach", func(c *MCTSConfig, v string) error {
			if v != "a" && v != "b" && v != "c" {
				return fmt.Errorf("%q is not a, b or c", v)
			}
			c.Approach = v
			return nil
		}},
		{"k", func(c *MCTSConfig, v string) (err error) { c.K, err = positive(v); return err }},
	}
	return append(s, beliefSettings(func(c *MCTSConfig) *SamplingConfig { return &c.Belief })...)
}

func darkboardSettings() []setting[DarkboardConfig] {
	return []setting[DarkboardConfig]{
		{"depth", func(c *DarkboardConfig, v string) (err error) { c.Depth, err = positive(v); return err }},
		{"alpha", func(c *DarkboardConfig, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err == nil && !(x > 0 && x < 1) {
				err = fmt.Errorf("%q is not a number strictly between 0 and 1", v)
			}
			c.Alpha = x
			return err
		}},
		{"nodes", func(c *DarkboardConfig, v string) (err error) { c.Nodes, err = positive(v); return err }},
		{"movetime", func(c *DarkboardConfig, v string) (err error) { c.MoveTime, err = positiveDuration(v); return err }},
	}
}

// beliefSettings are the belief's settings, shared by the sampling and MCTS
// players; belief picks the belief's configuration out of the bot's.
func beliefSettings[C any](belief func(*C) *SamplingConfig) []setting[C] {
	return []setting[C]{
		{"belief", func(c *C, v string) error {
			if !slices.Contains(kriegspiel.ViewNames(), v) {
				return fmt.Errorf("%q is not one of %v", v, kriegspiel.ViewNames())
			}
			belief(c).Belief = v
			return nil
		}},
		{"size", func(c *C, v string) (err error) { belief(c).ThinTo, err = positive(v); return err }},
		{"movetime", func(c *C, v string) (err error) { belief(c).MoveTime, err = positiveDuration(v); return err }},
		{"limit", func(c *C, v string) (err error) { belief(c).BeliefLimit, err = positive(v); return err }},
		{"recover", func(c *C, v string) error {
			if v != "hybrid" && v != "none" {
				return fmt.Errorf("%q is neither hybrid nor none", v)
			}
			belief(c).Recover = v
			return nil
		}},
	}
}

func positiveDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		err = fmt.Errorf("%q is not a positive duration", s)
	}
	return d, err
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a positive integer", s)
	}
	return n, nil
}
