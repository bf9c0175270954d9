package sampler

// Last-observation sampling (LOS, Parker, Nau & Subrahmanian 2005) and the
// pools it tops up, once for both games: RBC's beliefs here (los, aosp,
// hybrid, exact's recovery) and Kriegspiel's (package kriegspiel's views).
// What differs between the games, how a board is proposed around the
// player's own men and what of the latest observation a proposal must still
// be checked against, is each game's LastObservation; the draw, its budget
// and the deduplication are DrawLOS, and a hybrid's merge of fresh boards
// into its pool is TopUp.

import (
	"context"
	"math/rand/v2"

	"github.com/blindfish-rbc/blindfish/chess"
)

// LastObservation is one game's last-observation sampling, as of the latest
// observation.
type LastObservation interface {
	// Propose places the opponent's men at random around ours as the
	// latest observation allows; false when this try found no place for
	// them.
	Propose(rng *rand.Rand) (chess.Board, bool)
	// Fits reports whether a proposed board agrees with what Propose does
	// not build in (RBC builds in everything: Fits keeps every board).
	Fits(b *chess.Board) bool
	// Key tells boards apart as the game does: RBC by the position,
	// Kriegspiel by the position and the half-move clock, which can end
	// its game.
	Key(b *chess.Board) uint64
}

// ctxLookEvery is how many proposals DrawLOS makes between looks at its
// context.
const ctxLookEvery = 1024

// DrawLOS draws up to want distinct boards from o by rejection: it makes at
// most tries proposals, keeps those that fit and whose key no kept board
// has, in the order drawn, and stops once it has want. When ctx ends (it
// looks before the first proposal and every ctxLookEvery after) it returns
// what it has kept.
func DrawLOS(ctx context.Context, o LastObservation, rng *rand.Rand, tries, want int) []chess.Board {
	out := make([]chess.Board, 0, max(min(tries, want), 0))
	seen := newKeySet(want)
	for try := 0; try < tries && len(out) < want && (try%ctxLookEvery != 0 || ctx.Err() == nil); try++ {
		b, ok := o.Propose(rng)
		if !ok || !o.Fits(&b) {
			continue
		}
		if seen.add(o.Key(&b)) {
			out = append(out, b)
		}
	}
	return out
}

// TopUp appends to pool the boards of fresh that it does not hold, each
// once, in fresh's order, and returns it: how a hybrid belief takes
// last-observation boards into its pool. entry makes a pool entry of a
// fresh board (with its weight, where the pool has weights), and key
// tells entries apart as the game does.
func TopUp[E any](pool []E, fresh []chess.Board, entry func(chess.Board) E, key func(*E) uint64) []E {
	seen := newKeySet(len(pool) + len(fresh))
	for i := range pool {
		seen.add(key(&pool[i]))
	}
	for _, b := range fresh {
		e := entry(b)
		if seen.add(key(&e)) {
			pool = append(pool, e)
		}
	}
	return pool
}
