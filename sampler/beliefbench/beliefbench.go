// Package beliefbench measures beliefs on recorded games: each game is
// replayed from one side through a fresh belief (sampler.Replay), and every
// turn reports the belief's size before and after the sense, its entropy,
// the time it took and whether it held the true board. `blindfish belief`
// prints the report as tables, JSON or a page of plots.
package beliefbench

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Config says what to replay, through what.
type Config struct {
	Samplers []string      // belief names (sampler.Names)
	Colors   []chess.Color // the sides to replay each game from
	Options  sampler.Options
	Paths    []string // records, archives and folders of them (record.Records)
}

// Turn is one replayed turn's report.
type Turn struct {
	Turn int `json:"turn"` // 1-based
	// SizeBefore and SizeAfter are the belief's size after the capture notice
	// (before the sense) and after the sense.
	SizeBefore int     `json:"size_before"`
	SizeAfter  int     `json:"size_after"`
	Reduction  float64 `json:"reduction"` // 1 − after/before
	// Refilled is true when the belief took in boards right after the sense
	// (a recovery, or exact's backlog replayed): after then measures the
	// refill, not the sense, and the turn is left out of the mean reduction.
	Refilled bool    `json:"refilled_after_sense,omitempty"`
	Entropy  float64 `json:"entropy_bits"`
	Deferred int     `json:"deferred"` // exact's backlog after the turn
	// Present is true when the true board was in the belief at every check of
	// the turn (after the notice, after the sense, after the move).
	Present       bool    `json:"present"`
	PresentNotice bool    `json:"present_after_notice"`
	PresentSense  bool    `json:"present_after_sense"`
	PresentMove   bool    `json:"present_after_move"`
	UpdateMillis  float64 `json:"update_ms"` // notice + sense + move, waits included
	Recoveries    int     `json:"recoveries"`
}

// Game is one game replayed from one side through one belief.
type Game struct {
	// Record is where the game's record is (a file, or an archive and its
	// Member), for a page's link.
	Record  string `json:"-"`
	Member  string `json:"-"`
	File    string `json:"file"`
	Color   string `json:"color"`
	Sampler string `json:"sampler"`
	Turns   []Turn `json:"turns"`
	Stats   struct {
		MaxBoards  int   `json:"max_boards"`
		Recoveries int   `json:"recoveries"`
		PeakBytes  int64 `json:"peak_bytes,omitempty"`
		// exact: the most disk the spilled backlog took, and deferred boards
		// dropped over the memory and disk budgets.
		PeakSpillBytes int64 `json:"peak_spill_bytes,omitempty"`
		Dropped        int64 `json:"dropped,omitempty"`
	} `json:"stats"`
}

// Totals sums one belief's games.
type Totals struct {
	Sampler       string  `json:"sampler"`
	Games         int     `json:"games"`
	Turns         int     `json:"turns"`
	Present       int     `json:"present"`
	Recall        float64 `json:"recall"` // percent
	MeanBefore    float64 `json:"mean_size_before"`
	MeanAfter     float64 `json:"mean_size_after"`
	MeanReduction float64 `json:"mean_reduction"` // over the turns not refilled after the sense
	MeanEntropy   float64 `json:"mean_entropy_bits"`
	MeanMillis    float64 `json:"mean_update_ms"`
	MaxMillis     float64 `json:"max_update_ms"`
	MaxBoards     int     `json:"max_boards"`
	Recoveries    int     `json:"recoveries"`
	PeakSpillMiB  float64 `json:"peak_spill_mib"` // the largest spilled backlog of one game
	Dropped       int64   `json:"dropped"`
}

// Report is every replay and the totals.
type Report struct {
	Games    []*Game  `json:"games"`
	Samplers []Totals `json:"samplers"`
	Turns    int      `json:"turns"`
	Recall   float64  `json:"recall"` // percent, over all samplers' turns
}

// Run replays every record of cfg.Paths through each belief from each side
// and totals the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	rep := &Report{}
	for rec, err := range record.Records(cfg.Paths...) {
		if err != nil {
			return nil, err
		}
		h, err := rec.History()
		if err != nil {
			return nil, err
		}
		for _, name := range cfg.Samplers {
			for _, c := range cfg.Colors {
				g, err := ReplayGame(ctx, h, name, c, cfg.Options)
				if err != nil {
					return nil, fmt.Errorf("%s as %v with %s: %w", filepath.Base(rec.Base()), c, name, err)
				}
				g.File, g.Record, g.Member = filepath.Base(rec.Base()), rec.Path, rec.Member
				rep.Games = append(rep.Games, g)
			}
		}
	}
	rep.total(cfg.Samplers)
	return rep, nil
}

// ReplayGame feeds one game to a fresh belief of the given name from colour
// c's point of view and reports each turn.
func ReplayGame(ctx context.Context, h *rbc.History, name string, c chess.Color, opts sampler.Options) (*Game, error) {
	s, err := sampler.New(name, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	g := &Game{Color: c.String(), Sampler: name}
	var bt Turn
	var before sampler.BeliefStats
	// A belief that could not look (an unreadable spilled backlog) fails the
	// game rather than counting the true board as lost.
	present := func(ctx context.Context, t *sampler.ReplayTurn) (bool, error) {
		ok, err := sampler.Present(ctx, s, t.Path)
		if err != nil {
			return false, fmt.Errorf("turn %d: %w", t.Index+1, err)
		}
		return ok, nil
	}
	r := &sampler.Replay{
		Noticed: func(ctx context.Context, t *sampler.ReplayTurn) (err error) {
			bt = Turn{Turn: t.Index + 1, SizeBefore: s.Size().Boards, PresentMove: true}
			bt.PresentNotice, err = present(ctx, t)
			before = s.Stats()
			return err
		},
		Sensed: func(ctx context.Context, t *sampler.ReplayTurn) (err error) {
			after := s.Stats()
			bt.Refilled = after.Recoveries != before.Recoveries || after.Replayed != before.Replayed
			bt.SizeAfter = s.Size().Boards
			bt.Entropy = s.Entropy()
			bt.PresentSense, err = present(ctx, t)
			if bt.SizeBefore > 0 {
				bt.Reduction = 1 - float64(bt.SizeAfter)/float64(bt.SizeBefore)
			}
			if err == nil && !t.HasMove {
				g.Turns = append(g.Turns, bt.end(s, t))
			}
			return err
		},
		Moved: func(ctx context.Context, t *sampler.ReplayTurn) (err error) {
			bt.PresentMove, err = present(ctx, t)
			if err == nil {
				g.Turns = append(g.Turns, bt.end(s, t))
			}
			return err
		},
	}
	if err := r.Run(ctx, s, h, c); err != nil {
		return nil, err
	}
	st := s.Stats()
	g.Stats.MaxBoards, g.Stats.Recoveries, g.Stats.PeakBytes = st.MaxBoards, st.Recoveries, st.PeakBytes
	g.Stats.Dropped, g.Stats.PeakSpillBytes = st.Dropped, st.PeakSpillBytes
	return g, nil
}

// end completes the turn's report once its last observation is in.
func (bt Turn) end(s sampler.Sampler, t *sampler.ReplayTurn) Turn {
	bt.Present = bt.PresentNotice && bt.PresentSense && bt.PresentMove
	bt.Deferred = s.Size().Deferred
	bt.UpdateMillis = float64(t.Spent.Microseconds()) / 1000
	bt.Recoveries = s.Stats().Recoveries
	return bt
}

// total fills the per-belief totals and the overall recall.
func (r *Report) total(names []string) {
	present := 0
	for _, name := range names {
		tot := Totals{Sampler: name}
		var before, after, red, ent, ms float64
		sensed := 0
		for _, g := range r.Games {
			if g.Sampler != name {
				continue
			}
			tot.Games++
			tot.Recoveries += g.Stats.Recoveries
			tot.Dropped += g.Stats.Dropped
			tot.PeakSpillMiB = max(tot.PeakSpillMiB, float64(g.Stats.PeakSpillBytes)/(1<<20))
			tot.MaxBoards = max(tot.MaxBoards, g.Stats.MaxBoards)
			for _, t := range g.Turns {
				tot.Turns++
				if t.Present {
					tot.Present++
				}
				before += float64(t.SizeBefore)
				after += float64(t.SizeAfter)
				if !t.Refilled {
					red += t.Reduction
					sensed++
				}
				ent += t.Entropy
				ms += t.UpdateMillis
				tot.MaxMillis = max(tot.MaxMillis, t.UpdateMillis)
			}
		}
		if n := float64(tot.Turns); n > 0 {
			tot.Recall = 100 * float64(tot.Present) / n
			tot.MeanBefore, tot.MeanAfter = before/n, after/n
			tot.MeanEntropy, tot.MeanMillis = ent/n, ms/n
		}
		if sensed > 0 {
			tot.MeanReduction = red / float64(sensed)
		}
		r.Samplers = append(r.Samplers, tot)
		r.Turns += tot.Turns
		present += tot.Present
	}
	if r.Turns > 0 {
		r.Recall = 100 * float64(present) / float64(r.Turns)
	}
}
