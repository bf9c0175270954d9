package web

import (
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// clocks keeps what the page shows of both clocks. The person's comes from
// the referee at each question; the bot's is estimated from the wall time
// between the person's turns, with the increment after each of its moves,
// since a player is not told the opponent's clock.
type clocks struct {
	person    chess.Color
	increment time.Duration
	ours      time.Duration
	theirs    time.Duration
	since     time.Time // when the bot's turn began (zero: not its turn)
}

func newClocks(person chess.Color, initial, increment time.Duration) *clocks {
	return &clocks{person: person, increment: increment, ours: initial, theirs: initial}
}

// ourTurn notes that the bot's turn ended now (its increment added) and
// shows our clock, timeLeft, running.
func (c *clocks) ourTurn(d *Desk, timeLeft time.Duration) {
	if !c.since.IsZero() {
		c.theirs = max(0, c.theirs-time.Since(c.since)) + c.increment
		c.since = time.Time{}
	}
	c.ours = timeLeft
	d.SetClocks(c.person, c.ours, c.theirs, c.person.String())
}

// theirTurn notes that our turn ended now: our clock stops, theirs runs.
func (c *clocks) theirTurn(d *Desk, ourLeft time.Duration) {
	c.ours = ourLeft
	c.since = time.Now()
	d.SetClocks(c.person, c.ours, c.theirs, c.person.Other().String())
}

// stop stops both clocks.
func (c *clocks) stop(d *Desk) { d.SetClocks(c.person, c.ours, c.theirs, "") }
