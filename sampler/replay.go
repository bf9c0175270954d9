package sampler

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// ErrStopReplay, returned by a Replay hook, ends the replay early without an
// error: the rest of the game is left out (a belief grown too large to be
// worth following, say).
var ErrStopReplay = errors.New("sampler: stop the replay")

// Replay is what to do at each point of one side's turns while a recorded
// game is replayed through a belief (Run). Run feeds the belief the side's
// observations in the order of the game (Observations: the capture notice,
// the sense result, the move result); the hooks only look at the belief and
// the true board, at the moments they name. Every hook may be nil. An error
// from a hook stops the replay and Run returns it as it is (ErrStopReplay:
// nil).
type Replay struct {
	// Noticed runs after the turn's capture notice, before the sense: the
	// belief the player senses from. The true board is t.Before.
	Noticed func(ctx context.Context, t *ReplayTurn) error
	// Sense picks the square the turn senses; nil senses the recorded one.
	// Another square's result is read off the true board (SenseWith).
	Sense func(ctx context.Context, t *ReplayTurn) (chess.Square, error)
	// Sensed runs after the sense result. The true board is still t.Before.
	Sensed func(ctx context.Context, t *ReplayTurn) error
	// Moved runs after the move result, with t.After the true board. A turn
	// that ended the game after its sense has no move and skips it.
	Moved func(ctx context.Context, t *ReplayTurn) error
}

// ReplayTurn is the turn Run is replaying, as its hooks see it.
type ReplayTurn struct {
	ObservedTurn
	// Turns is the number of the side's turns in the game (Index runs from
	// 0 to Turns−1).
	Turns int
	// Spent is the time the belief took over the turn's observations so
	// far, waits included (not the hooks' time).
	Spent time.Duration
	// Path is the true board after every observation fed so far, the
	// starting board first: the path Present and PathChecker take. It is
	// shared between turns; a hook that keeps it must copy it.
	Path []chess.Board
}

// Run starts s as colour c of the game h and replays c's turns through it,
// calling the hooks at each turn. A failed observation is returned wrapped
// with the turn (from 0) and the observation it was; s is left as the
// replay left it, for the caller to read or close.
func (r *Replay) Run(ctx context.Context, s Sampler, h *rbc.History, c chess.Color) error {
	start, turns, err := Observations(h, c)
	if err != nil {
		return err
	}
	if err := s.HandleGameStart(ctx, c, start); err != nil {
		return fmt.Errorf("game start: %w", err)
	}
	path := []chess.Board{start}
	for i := range turns {
		t := &ReplayTurn{ObservedTurn: turns[i], Turns: len(turns)}
		err := r.turn(ctx, s, t, path)
		path = t.Path
		if errors.Is(err, ErrStopReplay) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// turn replays one turn: each observation, then its hook.
func (r *Replay) turn(ctx context.Context, s Sampler, t *ReplayTurn, path []chess.Board) error {
	t.Path = path
	// fed times one observation and records the true board after it.
	fed := func(what string, truth chess.Board, feed func() error) error {
		t0 := time.Now()
		err := feed()
		t.Spent += time.Since(t0)
		if err != nil {
			return fmt.Errorf("turn %d: %s: %w", t.Index, what, err)
		}
		t.Path = append(t.Path, truth)
		return nil
	}
	call := func(hook func(context.Context, *ReplayTurn) error) error {
		if hook == nil {
			return nil
		}
		return hook(ctx, t)
	}
	if err := fed("notice", t.Before, func() error { return t.Notice(ctx, s) }); err != nil {
		return err
	}
	if err := call(r.Noticed); err != nil {
		return err
	}
	square := t.ObservedTurn.Sense
	if r.Sense != nil {
		var err error
		if square, err = r.Sense(ctx, t); err != nil {
			return err
		}
	}
	if err := fed("sense", t.Before, func() error { return t.SenseWith(ctx, s, square) }); err != nil {
		return err
	}
	if err := call(r.Sensed); err != nil {
		return err
	}
	if !t.HasMove {
		return nil
	}
	if err := fed("move", t.After, func() error { return t.Move(ctx, s) }); err != nil {
		return err
	}
	return call(r.Moved)
}
