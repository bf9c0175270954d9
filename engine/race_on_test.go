//go:build race

package engine

// raceEnabled reports that the race detector is on: the player's Go code runs
// many times slower, so game tests check that games end cleanly but not who
// wins.
const raceEnabled = true
