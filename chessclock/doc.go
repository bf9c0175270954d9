// Package chessclock plays a two-player game's turns under chess clocks, for
// the referees of the games this module plays locally: rbc.PlayLocalGame and
// kriegspiel.PlayGame.
//
// The two games differ in their rules and in what a player hears, and in
// nothing else about time: each player has a clock with an increment, the
// whole of a turn is charged to the mover, every callback of a player runs
// under a context whose deadline is that player's clock, and a callback that
// overruns it loses on time (the referee does not wait for it, so a bot that
// ignores its context cannot hang a game), while one that fails or panics
// resigns. A Table holds that machinery once, so that the two referees keep
// only their rules and observations and cannot drift apart on time.
//
// A Table keeps the game's result in the game's own type: a referee says how
// a Loss (who lost, on time or by failing, and why) reads in its game, and
// tells the Table (End) when its rules end the game instead.
package chessclock
