package engine

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/blindfish-rbc/blindfish/sampler"
)

// standInBoards is the size of the stand-in belief: enough boards for the
// safe move to see where a capture or a check came from, few enough that an
// update costs microseconds.
const standInBoards = 64

// standInWait bounds one stand-in update. Its own work is microseconds; the
// bound only keeps a pathological case (every particle dead and the
// regeneration slow) from delaying a callback.
const standInWait = 20 * time.Millisecond

// standIn is a small particle filter fed every observation as the callback
// gives it, on the callback's goroutine. The player's real belief updates in
// the background and can fall behind the clock (an exact set grown large, a
// starved CPU); while it does, the decisions fall back on a safe choice, and
// that choice needs boards. Without them the fallback is a pass, which
// leaves our king in check when the piece that just captured next to it
// gives check, and loses the game. The stand-in always has boards
// consistent with the latest capture notice and sense, weighted by the game
// so far, so the safe move sees the checking piece.
type standIn struct {
	belief sampler.Sampler
	rng    *rand.Rand
	log    *slog.Logger
	broken bool
}

// newStandIn makes the stand-in belief; it starts with the game.
func newStandIn(seed int64, log *slog.Logger) *standIn {
	// Its particles die and are regenerated often, which is what it is for:
	// the sampler's warnings about that are not the player's, so they are
	// dropped; a failure of the stand-in is logged by observe.
	s, err := sampler.New("particle", sampler.Options{PoolSize: standInBoards, Workers: 1, Seed: uint64(seed) ^ 0x5354414e44494e,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil { // "particle" is registered; nothing to stand in otherwise
		log.Error("cannot make the stand-in belief", "err", err)
		return &standIn{broken: true, log: log}
	}
	return &standIn{belief: s, rng: NewRand(seed ^ 0x5354), log: log}
}

// observe applies one observation. A failure retires the stand-in (its
// boards would no longer match the game); the player then passes as before
// when it has no boards.
func (s *standIn) observe(name string, apply func(context.Context, sampler.Sampler) error) {
	if s == nil || s.broken {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), standInWait)
	defer cancel()
	if err := apply(ctx, s.belief); err != nil {
		s.broken = true
		s.log.Warn("stand-in belief failed; fallbacks without boards pass", "update", name, "err", err)
	}
}

// boards returns up to n boards of the stand-in, or none when it is retired.
func (s *standIn) boards(n int) []sampler.Weighted {
	if s == nil || s.broken {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), standInWait)
	defer cancel()
	ws, err := s.belief.Sample(ctx, n, s.rng)
	if err != nil {
		s.log.Warn("stand-in belief: no sample", "err", err)
		return nil
	}
	return ws
}

// close releases the stand-in.
func (s *standIn) close() error {
	if s == nil || s.belief == nil {
		return nil
	}
	return s.belief.Close()
}
