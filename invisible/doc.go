// Package invisible is invisible chess: chess in which each side has a
// configured set of invisible pieces (none, 1B, 2B, 1N, 2N, 1R, 2R, 1Q) its
// opponent cannot see, on the chess core every Blindfish game shares.
//
// The package is the rules and the referee (Classify, Position.Play,
// PlayGame, Record.Replay), and what a player can know (Tracker: its view of
// the board and the exact belief of the opponent's invisible pieces, a
// distribution over their joint placements). A try is answered possible
// (played), impossible (the turn is forfeited) or illegal (the reason is
// told and the player tries again), as the paper that introduced the game
// defines them; where it leaves a point open the package makes a ruling,
// numbered R1..R12 in docs/invisible.md, each with its test.
//
// Trackers learn only what the referee tells their side, and update the
// belief by asking Classify of every placement they hold, so that the
// belief keeps exactly the placements under which the referee would have
// said what it said: the true placement can never be lost, which the tests
// check against the referee's own position.
package invisible
