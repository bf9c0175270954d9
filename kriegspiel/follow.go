package kriegspiel

import (
	"context"
	"fmt"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// FollowStats is what following one record from one side with one belief
// gave: how often the true board was among the belief's boards, how large
// the belief grew and how long its updates took.
type FollowStats struct {
	Turns   int // turns followed (each player's turns, both sides')
	Present int // turns after which the true board was in the belief
	// Exact counts the turns after which the exact belief was still exact
	// (every turn of the others is 0); CutPresent the turns after a cut on
	// which the true board was still among the boards kept.
	Exact      int
	CutPresent int
	MaxBoards  int
	Took       time.Duration // in the belief's callbacks
	// Stopped is the error that ended the following before the record did
	// (ErrBeliefTooLarge for an exact belief past its limit, ErrEmptyBelief
	// for a belief that lost every board), at turn StoppedAt (0-based).
	Stopped   error
	StoppedAt int
}

// Follow feeds a record to the belief v of player c, turn by turn, as a
// player would have heard it, and checks after each turn whether the true
// board is among its boards. A belief error stops it (FollowStats.Stopped);
// the error is for a record that cannot be read, or a done ctx.
func Follow(ctx context.Context, rec *Record, c chess.Color, v View) (FollowStats, error) {
	var st FollowStats
	run, err := FollowTurns(ctx, rec, c, v, func(_ int, truth *chess.Board) error {
		st.Turns++
		if bl, ok := v.(*Belief); ok {
			// Asked of the belief itself: a spilled one is read a piece
			// at a time rather than all at once.
			st.MaxBoards = max(st.MaxBoards, bl.Len())
			has, err := bl.Has(truth)
			if err != nil {
				return err
			}
			switch {
			case bl.Exact():
				st.Exact++
			case has:
				st.CutPresent++
			}
			if has {
				st.Present++
			}
			return nil
		}
		boards := v.Boards()
		st.MaxBoards = max(st.MaxBoards, len(boards))
		for i := range boards {
			if sameBoard(&boards[i], truth) {
				st.Present++
				break
			}
		}
		return nil
	})
	st.Took, st.Stopped, st.StoppedAt = run.Took, run.Stopped, run.StoppedAt
	return st, err
}

// FollowTurns feeds a record to the belief v of player c as Follow does and
// calls after with the index of each turn followed (in rec.Turns) and the
// true board after it, so that a caller can look at the belief turn by turn
// (the game viewer draws it). A belief error stops it as it stops Follow
// (FollowStats.Stopped; only Took, Stopped and StoppedAt are set); the
// error is for a record that cannot be read, a done ctx, or after's own.
func FollowTurns(ctx context.Context, rec *Record, c chess.Color, v View, after func(turn int, truth *chess.Board) error) (FollowStats, error) {
	var st FollowStats
	err := follow(ctx, rec, c, -1, v, after, &st)
	return st, err
}

// follow feeds rec's first turns (all when turns < 0) to v from c's side and
// calls check with the true board after each turn. With st, the belief's
// errors end it quietly into st and its time is counted there; without, they
// are returned.
func follow(ctx context.Context, rec *Record, c chess.Color, turns int, v View, check func(turn int, truth *chess.Board) error, st *FollowStats) error {
	for i, turn := range rec.Turns {
		if i == turns || turn.Move.IsNull() {
			break
		}
		start := time.Now()
		var err error
		if turn.Color == c {
			for _, try := range turn.Tries {
				if err = v.Own(ctx, try.Question, try.Answer); err != nil {
					err = fmt.Errorf("turn %d, own %s: %w", i, try.Question, err)
					break
				}
			}
		} else {
			if err = v.Opponent(ctx, turn.Overheard()); err != nil {
				err = fmt.Errorf("turn %d, opponent: %w", i, err)
			}
		}
		if ctx.Err() != nil {
			return fmt.Errorf("turn %d: %w", i, ctx.Err()) // stopped, not the belief's doing
		}
		if st != nil {
			st.Took += time.Since(start)
			if err != nil {
				st.Stopped, st.StoppedAt = err, i
				return nil
			}
		}
		if err != nil {
			return err
		}
		truth, err := chess.ParseFEN(turn.FENAfter)
		if err != nil {
			return fmt.Errorf("turn %d: the record's board: %w", i, err)
		}
		if err := check(i, &truth); err != nil {
			return fmt.Errorf("turn %d: %w", i, err)
		}
	}
	return nil
}
