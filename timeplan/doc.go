// Package timeplan holds what the RBC and Kriegspiel players share in
// planning the time on their own clock (package chessclock is the
// referee's side of it): the clock as a player knows it between two of the
// server's reports (Reading), and a turn's share of the time it may plan
// for (Share).
//
// What differs stays with each player. player.ClockManager plans RBC's
// turns with a reserve it never plans for, an estimate of the increment,
// effort modes and the machine's measured slowness, because the RBC harness
// tells a player neither the increment nor the game's length. The
// Kriegspiel bots' plan (kriegspiel/bots) leaves the increment out, which
// errs on the side of time, and splits each turn's share between the
// belief's update and the choice of a question.
package timeplan
