package chessclock

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Clock is the referee's source of time. The referee charges each player the
// time between readings of Now and stops waiting for a callback at a deadline
// set with WithDeadline, so a test can swap in a Manual clock and play a whole
// game under simulated time without sleeping.
type Clock interface {
	// Now returns the current time on this clock.
	Now() time.Time
	// WithDeadline returns a copy of parent that is done when this clock
	// reaches d (or when parent is done), as context.WithDeadline does for
	// the system clock.
	WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc)
}

// System is the real wall clock, the one real games are played under.
type System struct{}

// Now returns time.Now().
func (System) Now() time.Time { return time.Now() }

// WithDeadline is context.WithDeadline.
func (System) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(parent, d)
}

// Manual is a Clock that only moves when told to (Advance), so tests can
// make a player "think" for ten minutes in no time, and a replay can run with
// clocks that never run out. It is safe for concurrent use: a bot's callback
// may advance it while the referee waits.
type Manual struct {
	mu      sync.Mutex
	now     time.Time
	waiters map[*manualContext]struct{}
}

// NewManual returns a manual clock showing start.
func NewManual(start time.Time) *Manual {
	return &Manual{now: start, waiters: make(map[*manualContext]struct{})}
}

// Now returns the clock's current reading.
func (c *Manual) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d and expires every context whose
// deadline it reaches.
func (c *Manual) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*manualContext
	for w := range c.waiters {
		if !c.now.Before(w.deadline) {
			due = append(due, w)
			delete(c.waiters, w)
		}
	}
	c.mu.Unlock()
	for _, w := range due {
		w.expire()
	}
}

// WithDeadline returns a context that is done when Advance reaches d.
// Its Deadline method reports d, a time on this clock.
func (c *Manual) WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	inner, cancel := context.WithCancel(parent)
	w := &manualContext{Context: inner, deadline: d, cancel: cancel}
	c.mu.Lock()
	if !c.now.Before(d) {
		c.mu.Unlock()
		w.expire()
		return w, cancel
	}
	c.waiters[w] = struct{}{}
	c.mu.Unlock()
	return w, func() {
		c.mu.Lock()
		delete(c.waiters, w)
		c.mu.Unlock()
		cancel()
	}
}

// manualContext is a context that a Manual expires.
type manualContext struct {
	context.Context // cancelled by expire or by its cancel function
	deadline        time.Time
	cancel          context.CancelFunc
	expired         atomic.Bool
}

func (w *manualContext) expire() {
	if w.Context.Err() == nil {
		w.expired.Store(true) // before cancel, so Err sees it once Done is closed
	}
	w.cancel()
}

func (w *manualContext) Deadline() (time.Time, bool) { return w.deadline, true }

func (w *manualContext) Err() error {
	err := w.Context.Err()
	if err != nil && w.expired.Load() {
		return context.DeadlineExceeded
	}
	return err
}
