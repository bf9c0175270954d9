package engine

import (
	"fmt"
	"time"
)

// The memory a bot may hold, so that a process hosting players can bound its
// own: a tournament machine is shared, and a player whose heap grows past what
// it was given is killed with its game.
//
// A Blindfish player's exact belief keeps two sets within its budget (memory=,
// or 1.5 MB a second of clock): the live boards with the expansion under way,
// and the backlog of deferred boards (past it they spill to disk). The rest
// of a player (the stand-in, a decision's samples and scores, the caches of
// the evaluator) is small beside it. Measured at 60+1 against random
// (GODEBUG=gctrace=1 on `blindfish match`, one game at a time): the heap
// live after a collection reached 180 MB with a 90 MB budget.
const (
	// playerOverhead is a Blindfish player's memory beyond its belief's
	// boards.
	playerOverhead = 64 << 20
	// baselineMemory is what a baseline bot holds: a board or two and
	// its random generator (Trout's Stockfish is another process).
	baselineMemory = 4 << 20
)

// MemoryBound returns the most memory the bot a spec names holds in a game
// whose clock starts at initial: for Blindfish, twice its belief budget (the
// live set and the backlog) plus the rest of a player; for a baseline, a few
// MB. A process hosting several players sets its heap's limit to the sum
// (Go's soft memory limit), so that the collector keeps the process within
// what its players were given instead of letting the heap double.
func MemoryBound(spec string, initial time.Duration) (int64, error) {
	name, params, err := ParseSpec(spec)
	if err != nil {
		return 0, err
	}
	if name != "blindfish" {
		for _, b := range Bots() {
			if b.Name == name {
				return baselineMemory, nil
			}
		}
		return 0, fmt.Errorf("engine: unknown bot %q", name)
	}
	cfg, err := ParseConfig(params)
	if err != nil {
		return 0, err
	}
	return cfg.MemoryBound(initial), nil
}

// MemoryBound is the most memory a player of this configuration holds in a
// game whose clock starts at initial (see the package's MemoryBound).
func (c Config) MemoryBound(initial time.Duration) int64 {
	mb := c.MemoryMB
	if mb <= 0 {
		mb = memoryFor(initial)
	}
	return 2*int64(mb)<<20 + playerOverhead
}

// memoryFor is the exact belief's memory budget for a clock of left: 1.5 MB
// per second of clock, 64 MB to 768 MB. The exact set's updates take time in
// proportion to its size (about a second per million boards on this
// machine kind, some 70 bytes each), so the budget is what bounds them: a
// 60 s clock affords about a million boards, 900 s about ten million. Boards
// past the budget wait in the sampler's backlog.
func memoryFor(left time.Duration) int {
	return int(min(max(left.Seconds()*1.5, 64), 768))
}
