// Package tally counts a client's finished games by verdict. The RBC
// tournament client and the kriegspiel.org client report their games the
// same way (a line per game, a count at the end); the verdict and the count
// live here once so that the two reports cannot drift apart.
package tally

import (
	"fmt"
	"io"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// Count is the number of games won, drawn, lost and failed (ended by an
// error on our side). The zero value is an empty count; it is not safe for
// concurrent use (the clients' tallies hold their own lock).
type Count struct {
	Won, Drew, Lost, Failed int
}

// Add counts one game that we played as us and that ended with the given
// winner (none when hasWinner is false), or failed with err, and returns its
// verdict: "won", "lost", "draw", or failed (the caller's word for a game
// ended by an error) when err is non-nil.
func (c *Count) Add(us rbc.Color, hasWinner bool, winner rbc.Color, err error, failed string) string {
	switch {
	case err != nil:
		c.Failed++
		return failed
	case !hasWinner:
		c.Drew++
		return "draw"
	case winner == us:
		c.Won++
		return "won"
	default:
		c.Lost++
		return "lost"
	}
}

// Games is the number of games counted.
func (c Count) Games() int { return c.Won + c.Drew + c.Lost + c.Failed }

// Write writes "N games: W won, D drawn, L lost" to w, followed by ", F
// <failed>" when some games failed, without a line end.
func (c Count) Write(w io.Writer, failed string) {
	fmt.Fprintf(w, "%d games: %d won, %d drawn, %d lost", c.Games(), c.Won, c.Drew, c.Lost)
	if c.Failed > 0 {
		fmt.Fprintf(w, ", %d %s", c.Failed, failed)
	}
}
