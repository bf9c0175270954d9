package timeplan

import "time"

// Reading is a player's clock between two of the server's reports: the
// clock as last reported, less the time the player's own callbacks took
// since. The server charges those to the player; the opponent's time in
// between is not the player's, so counting the callbacks alone keeps the
// estimate honest without a clock of its own. The zero value knows no
// clock yet.
type Reading struct {
	reported, spent time.Duration
	known           bool
}

// Report takes the clock as the server reports it.
func (r *Reading) Report(left time.Duration) {
	r.reported, r.spent, r.known = left, 0, true
}

// Spend takes the time one of the player's callbacks took. Before the first
// report it counts for nothing: the report will say it.
func (r *Reading) Spend(d time.Duration) {
	if r.known {
		r.spent += d
	}
}

// Left returns the clock now, and false while none was reported.
func (r *Reading) Left() (time.Duration, bool) { return r.reported - r.spent, r.known }

// Share returns one turn's equal share of usable time over turns turns to
// go, counting this one: nothing when no time is usable, and all of it when
// this is the last turn (or fewer are given).
func Share(usable time.Duration, turns int) time.Duration {
	return max(usable, 0) / time.Duration(max(turns, 1))
}
