package stall

import (
	"context"
	"sync"
	"time"
)

// WithTimeout returns a context that ends with context.DeadlineExceeded d
// after now plus the longest time any one thread of this process or of
// pids waited for a CPU meanwhile (Probe.Longest), but at most
// max(d, StartTimeout) after now; or when parent ends, or cancel is called.
// It is a timeout of the time the work could run: exactly d on an idle
// machine, longer only by what a starved one withheld. It takes the longest
// wait, not the sum: the sum of threads that wait at the same time grows
// faster than the clock on a busy machine, and a deadline pushed back by it
// would never come before the cap while the work ran on. It is meant for timeouts that guard against
// a hang rather than bound a player's own time (an engine's handshake),
// and for tests whose deadline is the product's (a pool's batch) on a
// machine that may give them almost no CPU.
func WithTimeout(parent context.Context, d time.Duration, pids ...int) (context.Context, context.CancelFunc) {
	c := &stalledContext{Context: parent, done: make(chan struct{})}
	stopParent := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	probe := Start(pids...)
	start := time.Now()
	limit := max(d, StartTimeout)
	var mu sync.Mutex
	var t *time.Timer
	check := func() {
		budget := min(d+probe.Longest(), limit)
		if left := budget - time.Since(start); left > 0 {
			mu.Lock()
			t.Reset(left)
			mu.Unlock()
			return
		}
		c.end(context.DeadlineExceeded)
	}
	mu.Lock()
	t = time.AfterFunc(d, check)
	mu.Unlock()
	return c, func() {
		stopParent()
		mu.Lock()
		t.Stop()
		mu.Unlock()
		c.end(context.Canceled)
	}
}

// stalledContext is a context that ends when end is first called; its
// values (and its parent's deadline, if any) are its parent's.
type stalledContext struct {
	context.Context
	done chan struct{}
	once sync.Once
	err  error // set before done is closed
}

func (c *stalledContext) Done() <-chan struct{} { return c.done }

func (c *stalledContext) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

func (c *stalledContext) end(err error) {
	c.once.Do(func() {
		c.err = err
		close(c.done)
	})
}
