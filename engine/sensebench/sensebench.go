// Package sensebench is the offline sense benchmark (blindfish belief
// --sense): it ranks sense strategies in seconds or minutes on recorded
// games instead of in hours of played ones.
//
// It replays recorded games through the exact belief from each player's side
// and, at every turn where the belief holds more than one board, asks each
// sense strategy where it would sense. For every window it counts the boards
// of the belief that show what the true board shows there: the size of the
// set that sense would leave. A strategy is scored by those sizes, against
// the sense the recorded player made and the best window in hindsight (the
// smallest size any window would leave; a strategy "matches" it when its
// window leaves no more boards). The game then goes on with the recorded
// sense and move, so every strategy is judged on the same turns. The
// benchmark sees only information, not the value of information for the
// next move: voi is expected to trade some set reduction for better moves.
//
// The strategies decide through engine.SenseBench, which gives them what a
// player gives them in a game (weights, move scoring, the throughput meter).
package sensebench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Config is what a run compares and on which games.
type Config struct {
	// Strategies are the sense strategies compared (engine.SenseNames).
	Strategies []string
	// Budget is the time of each sense decision.
	Budget time.Duration
	// MaxBoards stops replaying a side once its belief holds more boards
	// (a random mover's belief explodes, and counting it would take hours).
	MaxBoards int
	// Eval is the evaluator opened when a strategy scores moves (voi).
	Eval evaluator.Kind
	// Engine holds the weights the strategies decide with.
	Engine engine.Config
	// MemoryMB is the exact belief's memory budget in MiB.
	MemoryMB int
	// Workers is the number of goroutines for belief work and evaluations
	// (0: one per core).
	Workers int
	// Seed seeds the strategies' and the belief's random choices, so that a
	// run can be repeated.
	Seed int64
	// Paths are the recorded games: records, archives and folders of them
	// (record.Records).
	Paths []string
	// Logger receives the strategies' and the belief's details (nil:
	// slog.Default()).
	Logger *slog.Logger
	// Progress, if set, receives a line per side replayed; TurnLog a line
	// per scored turn (belief size, what each window choice leaves, times).
	Progress, TurnLog io.Writer
}

// Run runs the benchmark. It returns what it measured so far even when it
// stops early (an error, or ctx done).
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	var eval evaluator.Evaluator
	if slices.Contains(cfg.Strategies, "voi") {
		e, err := evaluator.Open(ctx, cfg.Eval, evaluator.OpenConfig{Engines: cfg.Workers, Logger: cfg.Logger})
		if err != nil {
			return nil, fmt.Errorf("sensebench: opening the evaluator: %w", err)
		}
		defer e.Close()
		eval = e
	}
	r := &run{cfg: cfg, bench: engine.NewSenseBench(cfg.Engine, eval, cfg.Workers, cfg.Logger), res: newResult()}
	for i, name := range cfg.Strategies {
		c := cfg.Engine
		s, err := engine.NewSenseStrategy(name, &c)
		if err != nil {
			return nil, fmt.Errorf("sensebench: %w", err)
		}
		r.strategies = append(r.strategies, s)
		r.rngs = append(r.rngs, engine.NewRand(cfg.Seed+int64(i)))
		r.res.Strategies = append(r.res.Strategies, &Row{Name: name, Timed: true})
	}
	for rec, err := range record.Records(cfg.Paths...) {
		if err != nil {
			return r.res, fmt.Errorf("sensebench: %w", err)
		}
		h, err := rec.History()
		if err != nil {
			return r.res, fmt.Errorf("sensebench: %w", err)
		}
		r.res.Games++
		for c := chess.White; c <= chess.Black; c++ {
			start := time.Now()
			n, err := r.side(ctx, h, c)
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "%s %s: %d turns in %s\n", rec.Base(), c, n, time.Since(start).Round(time.Millisecond))
			}
			if err != nil {
				return r.res, fmt.Errorf("sensebench: %s, %s: %w", rec.Name(), c, err)
			}
		}
	}
	return r.res, nil
}

// run is one benchmark run: the strategies, each with its own random
// source, deciding through one bench, and the result they fill.
type run struct {
	cfg        Config
	bench      *engine.SenseBench
	strategies []engine.SenseStrategy
	rngs       []*rand.Rand
	res        *Result
}

// side replays colour c of h and scores every strategy at each turn. It
// returns the number of turns scored.
func (r *run) side(ctx context.Context, h *rbc.History, c chess.Color) (int, error) {
	s, err := sampler.New("exact", sampler.Options{MemoryBudget: int64(r.cfg.MemoryMB) << 20, Workers: r.cfg.Workers,
		Seed: uint64(r.cfg.Seed), Logger: r.cfg.Logger})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	scored := 0
	score := func(ctx context.Context, t *sampler.ReplayTurn) error {
		size := s.Size()
		if size.Boards+size.Deferred > r.cfg.MaxBoards {
			r.res.CutSides++
			r.res.CutTurns += t.Turns - t.Index
			if r.cfg.TurnLog != nil {
				fmt.Fprintf(r.cfg.TurnLog, "%s turn %d: %d boards: stopping this side\n", c, t.Index+1, size.Boards+size.Deferred)
			}
			return sampler.ErrStopReplay
		}
		if size.Boards <= 1 {
			return nil
		}
		if err := r.turn(ctx, s, c, t.Index+1, &t.ObservedTurn, size); err != nil {
			return err
		}
		scored++
		return nil
	}
	err = (&sampler.Replay{Noticed: score}).Run(ctx, s, h, c)
	return scored, err
}

// turn scores the recorded sense, the hindsight-best window and every
// strategy at turn number of colour c, on belief s before the sense.
func (r *run) turn(ctx context.Context, s sampler.Sampler, c chess.Color, number int, t *sampler.ObservedTurn, size sampler.Size) error {
	t0 := time.Now()
	left, err := windowSizes(ctx, s, &t.Before)
	countTime := time.Since(t0)
	if err != nil {
		return err
	}
	n := size.Boards
	best := slices.Min(left[:])
	sizeOf := func(q chess.Square) int {
		if !q.Valid() {
			return n
		}
		return left[q]
	}
	res := r.res
	res.Turns++
	if !size.Exact {
		res.Inexact++
	}
	if best == 0 {
		res.Missing++
	}
	res.NoSense.add(n, n, n == best)
	res.Recorded.add(n, sizeOf(t.Sense), sizeOf(t.Sense) == best)
	res.Hindsight.add(n, best, true)
	moves := t.Before.MoveActions()
	var line strings.Builder
	if r.cfg.TurnLog != nil {
		fmt.Fprintf(&line, "%s turn %d: %d boards (counted in %s); best %d, recorded %s leaves %d",
			c, number, n, countTime.Round(time.Millisecond), best, t.Sense, sizeOf(t.Sense))
	}
	for k, strat := range r.strategies {
		row := res.Strategies[k]
		view := r.bench.TurnView(number, c, s, allSquares(), slices.Clone(moves), r.rngs[k], r.cfg.Budget)
		dctx, cancel := context.WithTimeout(ctx, r.cfg.Budget)
		t0 = time.Now()
		q, err := strat.ChooseSense(dctx, view)
		took := time.Since(t0)
		cancel()
		row.Time += took
		row.Decisions++
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			row.Failed++
			q = chess.NoSquare
		}
		row.add(n, sizeOf(q), sizeOf(q) == best)
		if r.cfg.TurnLog != nil {
			fmt.Fprintf(&line, "; %s %s leaves %d (%s)", row.Name, q, sizeOf(q), took.Round(time.Millisecond))
		}
	}
	if r.cfg.TurnLog != nil {
		fmt.Fprintln(r.cfg.TurnLog, line.String())
	}
	return nil
}

// allSquares returns every square: a strategy may sense anywhere.
func allSquares() []chess.Square {
	all := make([]chess.Square, 64)
	for i := range all {
		all[i] = chess.Square(i)
	}
	return all
}
