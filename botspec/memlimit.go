package botspec

import (
	"os"
	"runtime/debug"
	"time"
)

// ProcessMemory is what a command's process may hold besides its players:
// the referee, the records, the runtime. Generous, since passing the limit
// costs the collector's time: a match's own share is a few tens of MB.
const ProcessMemory = 256 << 20

// LongestClock sizes the players of a command that learns its games' clocks
// only when they start (connect, engine): a Blindfish belief's budget stops
// growing at 512 s, so this gives the largest bound.
const LongestClock = time.Hour

// LimitMemory sets Go's soft memory limit to what the process's players may
// hold (specs, each played in games at once, on a clock starting at
// initial; MemoryBound) plus ProcessMemory, and returns it. Without it the
// collector lets the heap grow to twice what is live, so a match of two
// Blindfish games at once at 60+1 reached 1,171 MiB, where their players'
// bounds add up to 496 MiB. A limit the user set with GOMEMLIMIT is left
// alone (0 is returned), as is one no spec can bound.
func LimitMemory(specs []string, games int, initial time.Duration) int64 {
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return 0
	}
	limit := int64(ProcessMemory)
	for _, spec := range specs {
		b, err := MemoryBound(spec, initial)
		if err != nil {
			return 0 // a bot the registry does not know (a Kriegspiel bot): no bound
		}
		limit += int64(games) * b
	}
	debug.SetMemoryLimit(limit)
	return limit
}
