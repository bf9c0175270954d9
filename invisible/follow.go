package invisible

import "fmt"

// Follow replays the record through the referee and both sides' trackers,
// telling each tracker only what its side was told, and calls fn before the
// first turn (turn 0) and after each turn i (turn i+1) with the true
// position and the trackers. It is how a page draws the beliefs and how the
// belief test checks them against the truth on recorded games.
func (r *Record) Follow(fn func(turn int, pos *Position, tr [2]*Tracker) error) error {
	return r.FollowWith(Uniform, fn)
}

// FollowWith is Follow with both trackers' beliefs under opponent model m:
// how the models are compared on recorded games.
func (r *Record) FollowWith(m Model, fn func(turn int, pos *Position, tr [2]*Tracker) error) error {
	if _, err := r.Replay(); err != nil {
		return err
	}
	pos := Start(r.Configs)
	tr := [2]*Tracker{NewTracker(0, r.Configs), NewTracker(1, r.Configs)}
	tr[0].Model, tr[1].Model = m, m
	if err := fn(0, &pos, tr); err != nil {
		return err
	}
	for i, t := range r.Turns {
		us := t.Color
		moved := false
		for _, try := range t.Tries {
			if err := tr[us].OnAnswer(try.Move, try.Answer); err != nil {
				return fmt.Errorf("invisible: turn %d, %v's tracker: %w", i, us, err)
			}
			switch try.Answer.Outcome {
			case Possible:
				pos.Play(try.Move)
				moved = true
			case Impossible:
				pos.Forfeit()
				moved = true
			}
		}
		if moved {
			if err := tr[us.Other()].OnSeen(t.Seen); err != nil {
				return fmt.Errorf("invisible: turn %d, %v's tracker: %w", i, us.Other(), err)
			}
		}
		if err := fn(i+1, &pos, tr); err != nil {
			return err
		}
	}
	return nil
}
