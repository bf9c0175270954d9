package bots

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Names lists the Kriegspiel bots New builds, in the order help texts list
// them.
func Names() []string { return []string{"random", "sampling", "mcts"} }

// New builds the Kriegspiel player a spec names: "random", or "sampling"
// with optional settings
// "sampling:samples=48,depth=6,eval=auto,belief=exact,size=2000,limit=200000,recover=hybrid"
// (eval is auto, stockfish or embedded, as for the RBC player; belief is
// exact, aosp, los or hybrid, size the sampling beliefs' boards and the
// exact one's size once thinned, limit the exact one's size before it is
// thinned, and recover what follows a lost belief: hybrid or none), or
// "mcts" (approach C, mcts.go) with optional settings
// "mcts:boards=256,c=0.25,depth=4,restrict=false,iterations=200000,belief=exact,size=2000,limit=200000,recover=hybrid"
// (boards is the most belief boards the root's answers are counted on, c
// UCB1's exploration, depth the most of our turns a line of the tree
// holds, restrict whether the root counts the opponent's moves on its
// boards, iterations the most a decision runs; the belief's settings are
// the sampling player's). seed fixes its random
// choices. A sampling player owns its evaluator: it is an io.Closer, to be
// closed after the game.
func New(spec string, seed int64, log *slog.Logger) (kriegspiel.Player, error) {
	name, settings, _ := strings.Cut(spec, ":")
	params := map[string]string{}
	if settings != "" {
		for _, kv := range strings.Split(settings, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return nil, fmt.Errorf("kriegspiel bot %q: setting %q is not key=value", spec, kv)
			}
			params[k] = v
		}
	}
	switch name {
	case "random":
		if len(params) > 0 {
			return nil, fmt.Errorf("kriegspiel bot %q: random takes no settings", spec)
		}
		return kriegspiel.NewRandomPlayer(uint64(seed)), nil
	case "mcts":
		cfg := DefaultMCTSConfig()
		for k, v := range params {
			var err error
			switch k {
			case "boards":
				cfg.Belief.Samples, err = positive(v)
			case "depth":
				cfg.MaxDepth, err = positive(v)
			case "restrict":
				cfg.Restrict, err = strconv.ParseBool(v)
			case "iterations":
				cfg.Iterations, err = positive(v)
			case "c":
				cfg.Exploration, err = strconv.ParseFloat(v, 64)
				if err == nil && (cfg.Exploration < 0 || math.IsInf(cfg.Exploration, 0) || math.IsNaN(cfg.Exploration)) {
					err = fmt.Errorf("%q is not a finite number at least 0", v)
				}
			default:
				var known bool
				known, err = beliefSetting(&cfg.Belief, k, v)
				if !known {
					err = fmt.Errorf("unknown setting (mcts has boards, c, depth, restrict, iterations, belief, size, limit, recover)")
				}
			}
			if err != nil {
				return nil, fmt.Errorf("kriegspiel bot %q: %s: %w", spec, k, err)
			}
		}
		return NewMCTS(cfg, uint64(seed), log), nil
	case "sampling":
		cfg := DefaultSamplingConfig()
		kind := evaluator.KindAuto
		for k, v := range params {
			var err error
			switch k {
			case "samples":
				cfg.Samples, err = positive(v)
			case "depth":
				cfg.Depth, err = positive(v)
			case "eval":
				kind, err = evaluator.ParseKind(v)
			default:
				var known bool
				known, err = beliefSetting(&cfg, k, v)
				if !known {
					err = fmt.Errorf("unknown setting (sampling has samples, depth, eval, belief, size, limit, recover)")
				}
			}
			if err != nil {
				return nil, fmt.Errorf("kriegspiel bot %q: %s: %w", spec, k, err)
			}
		}
		eval, err := evaluator.Open(context.Background(), kind, evaluator.OpenConfig{Logger: log})
		if err != nil {
			return nil, fmt.Errorf("kriegspiel bot %q: %w", spec, err)
		}
		p := NewSampling(cfg, eval, uint64(seed), log)
		p.owned = true
		return p, nil
	}
	return nil, fmt.Errorf("unknown kriegspiel bot %q (want %s)", spec, strings.Join(Names(), ", "))
}

// beliefSetting applies one of the belief's settings, shared by the
// sampling and MCTS players; known is false for any other key.
func beliefSetting(cfg *SamplingConfig, k, v string) (known bool, err error) {
	switch k {
	case "belief":
		if !slices.Contains(kriegspiel.ViewNames(), v) {
			err = fmt.Errorf("%q is not one of %v", v, kriegspiel.ViewNames())
		}
		cfg.Belief = v
	case "size":
		cfg.ThinTo, err = positive(v)
	case "limit":
		cfg.BeliefLimit, err = positive(v)
	case "recover":
		if v != "hybrid" && v != "none" {
			err = fmt.Errorf("%q is neither hybrid nor none", v)
		}
		cfg.Recover = v
	default:
		return false, nil
	}
	return true, err
}

func positive(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a positive integer", s)
	}
	return n, nil
}
