package beliefbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// ErrNotKriegspiel is FollowRecords' error for a record of another game.
var ErrNotKriegspiel = errors.New("not a Kriegspiel record")

// FollowOptions say which beliefs FollowRecords follows records with.
type FollowOptions struct {
	Views  []string      // belief names (ViewNames)
	Colors []chess.Color // the sides to follow
	// Size is the sampling beliefs' size; Limit the exact belief's most
	// boards (a turn past it stops that game).
	Size, Limit int
	Seed        uint64 // of the sampling beliefs' randomness
	// Cut keeps following past Limit with a sample (Belief.SetCut); the
	// turns from the first cut on are counted apart (FollowStats.Exact).
	Cut bool
	// WeightedCut makes the cut keep a sample weighted by the opponent
	// model rather than a uniform one (Belief.SetWeightedCut).
	WeightedCut bool
	// Workers, Memory and SpillDir set up the exact belief (SetWorkers,
	// SetMemory).
	Workers  int
	Memory   int64
	SpillDir string
}

// Followed is one record followed from one side by one belief.
type Followed struct {
	Record *record.Record // where the record came from
	Color  chess.Color
	View   string
	Stats  kriegspiel.FollowStats
}

// FollowRecords follows every Kriegspiel record at paths (record.Records)
// with each belief of o from each side, in that order, and yields each
// following as it ends. An error (a record that cannot be read, one of
// another game: ErrNotKriegspiel, a done ctx) is yielded last.
func FollowRecords(ctx context.Context, paths []string, o FollowOptions) iter.Seq2[Followed, error] {
	return func(yield func(Followed, error) bool) {
		for rec, err := range record.Records(paths...) {
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(Followed{}, err)
				return
			}
			if !followOne(ctx, rec, o, yield) {
				return
			}
		}
	}
}

// followOne follows one record for FollowRecords; false when it is done.
func followOne(ctx context.Context, rec *record.Record, o FollowOptions, yield func(Followed, error) bool) bool {
	if !ksrecord.Is(rec.Data) {
		yield(Followed{}, fmt.Errorf("%s: %w", rec.Name(), ErrNotKriegspiel))
		return false
	}
	kr, err := ksrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		yield(Followed{}, fmt.Errorf("%s: %w", rec.Name(), err))
		return false
	}
	start, err := chess.ParseFEN(kr.StartFEN)
	if err != nil {
		yield(Followed{}, fmt.Errorf("%s: %w", rec.Name(), err))
		return false
	}
	for _, name := range o.Views {
		for _, c := range o.Colors {
			n := o.Size
			if name == "exact" {
				n = o.Limit
			}
			v, err := kriegspiel.NewView(name, c, kr.Ruleset, start, kr.PawnTries, n, rand.New(rand.NewPCG(o.Seed, uint64(c))))
			if err != nil {
				yield(Followed{}, err)
				return false
			}
			if bl, ok := v.(*kriegspiel.Belief); ok {
				bl.SetCut(o.Cut)
				bl.SetWeightedCut(o.WeightedCut)
				bl.SetWorkers(o.Workers)
				bl.SetMemory(o.Memory, o.SpillDir)
			}
			st, err := kriegspiel.Follow(ctx, kr, c, v)
			if bl, ok := v.(*kriegspiel.Belief); ok {
				bl.Close()
			}
			if err != nil {
				yield(Followed{}, fmt.Errorf("%s: %w", rec.Name(), err))
				return false
			}
			if !yield(Followed{Record: rec, Color: c, View: name, Stats: st}, nil) {
				return false
			}
		}
	}
	return true
}
