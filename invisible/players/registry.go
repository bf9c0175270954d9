// Package players is the invisible-chess bots that match, view and analyze
// name by spec: random, the paper's program (advisor) and Blindfish's own
// player (blindfish).
package players

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/spec"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// Names lists the bots.
func Names() []string { return []string{"random", "advisor", "blindfish"} }

// Usage says in a line what the bots take.
const Usage = "advisor takes hide=, seek=, depth=, boards=, repeat=, noise=, model=uniform|greedy; blindfish takes depth=, boards=, hide="

// New builds the player a spec names: "random", "advisor" with optional
// settings "advisor:hide=5,seek=0,depth=2,boards=48,noise=0.05,model=greedy", or
// "blindfish" with optional "blindfish:depth=2,boards=64,hide=1".
func New(botSpec string, seed int64, log *slog.Logger) (invisible.Player, error) {
	name, params, err := spec.Parse(botSpec)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	switch name {
	case "random":
		if len(params) > 0 {
			return nil, fmt.Errorf("players: bot %q takes no settings", botSpec)
		}
		return &Random{rng: rand.New(rand.NewPCG(uint64(seed), 0x52616e64)), tried: map[chess.Move]bool{}}, nil
	case "advisor":
		cfg := DefaultAdvisor
		if v, ok := params["model"]; ok {
			if cfg.Model, err = invisible.ParseModel(v); err != nil {
				return nil, fmt.Errorf("players: bot %q: %w", botSpec, err)
			}
			delete(params, "model")
		}
		if err := setAll(params, map[string]*float64{"hide": &cfg.Hide, "seek": &cfg.Seek, "noise": &cfg.Noise, "repeat": &cfg.Repeat}, map[string]*int{"depth": &cfg.Depth, "boards": &cfg.Boards}); err != nil {
			return nil, fmt.Errorf("players: bot %q: %w", botSpec, err)
		}
		return NewAdvisor(cfg, seed, log), nil
	case "blindfish":
		cfg := DefaultBlindfish
		if err := setAll(params, map[string]*float64{"hide": &cfg.Hide}, map[string]*int{"depth": &cfg.Depth, "boards": &cfg.Boards}); err != nil {
			return nil, fmt.Errorf("players: bot %q: %w", botSpec, err)
		}
		return NewBlindfish(cfg, seed, log), nil
	}
	return nil, fmt.Errorf("players: unknown invisible-chess bot %q (want %s)", botSpec, strings.Join(Names(), ", "))
}

// setAll sets the settings a spec gives, refusing unknown ones.
func setAll(params spec.Params, floats map[string]*float64, ints map[string]*int) error {
	for k, v := range params {
		if f, ok := floats[k]; ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 {
				return fmt.Errorf("setting %s=%q: want a number ≥ 0", k, v)
			}
			*f = x
			continue
		}
		if n, ok := ints[k]; ok {
			x, err := strconv.Atoi(v)
			if err != nil || x < 0 || x > 6 && k == "depth" {
				return fmt.Errorf("setting %s=%q: want a whole number ≥ 0 (depth ≤ 6)", k, v)
			}
			*n = x
			continue
		}
		return fmt.Errorf("unknown setting %q", k)
	}
	return nil
}

// Random tries a random move among those legal on the board it sees, then
// any untried one.
type Random struct {
	rng   *rand.Rand
	tr    *invisible.Tracker
	tried map[chess.Move]bool
	buf   []chess.Move
}

// HandleGameStart starts the tracker.
func (p *Random) HandleGameStart(_ context.Context, s invisible.GameStart) error {
	p.tr = invisible.NewTracker(s.Color, s.Configs)
	return nil
}

// HandleOpponentTurn updates the tracker.
func (p *Random) HandleOpponentTurn(_ context.Context, s invisible.Seen) error {
	clear(p.tried)
	return p.tr.OnSeen(s)
}

// ChooseTry picks at random.
func (p *Random) ChooseTry(context.Context, time.Duration) (chess.Move, error) {
	p.buf = invisible.AppendTries(&p.tr.View, p.buf[:0])
	var legal, other []chess.Move
	for _, m := range p.buf {
		switch {
		case p.tried[m]:
		case chess.IsLegal(&p.tr.View, m):
			legal = append(legal, m)
		default:
			other = append(other, m)
		}
	}
	if len(legal) > 0 {
		return legal[p.rng.IntN(len(legal))], nil
	}
	if len(other) > 0 {
		return other[p.rng.IntN(len(other))], nil
	}
	return chess.Move{}, fmt.Errorf("players: no untried try left")
}

// HandleAnswer updates the tracker.
func (p *Random) HandleAnswer(_ context.Context, m chess.Move, a invisible.Answer) error {
	p.tried[m] = a.Outcome == invisible.Illegal
	return p.tr.OnAnswer(m, a)
}

// HandleGameEnd does nothing.
func (p *Random) HandleGameEnd(context.Context, invisible.Result) error { return nil }
