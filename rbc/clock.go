package rbc

import (
	"time"

	"github.com/blindfish-rbc/blindfish/chessclock"
)

// Clock is the referee's source of time; see chessclock.Clock.
type Clock = chessclock.Clock

// SystemClock is the real wall clock, the one real games are played under.
type SystemClock = chessclock.System

// ManualClock is a Clock that only moves when told to (Advance), so tests can
// make a player "think" for ten minutes in no time, and a replay can run with
// clocks that never run out.
type ManualClock = chessclock.Manual

// NewManualClock returns a manual clock showing start.
func NewManualClock(start time.Time) *ManualClock { return chessclock.NewManual(start) }
