package stall

import (
	"context"
	"sync"
	"time"
)

// WithTimeout returns a context that ends with context.DeadlineExceeded d
// after now plus the time the threads of this process and of pids waited
// for a CPU meanwhile, added up (Allowance), but at most max(d,
// StartTimeout) after now; or when parent ends, or cancel is called. It is
// meant for timeouts that guard against a hang rather than bound a
// player's own time (an engine's handshake), and for tests whose deadline
// is the product's (a pool's batch) on a machine that may give them almost
// no CPU: exactly d on an idle machine, and generous on a busy one, where
// the waits of threads that wait at once add up faster than the clock and
// the timeout may run to its cap. Generous on purpose: pushed back by the
// longest wait of one thread instead, Stockfish's handshake at nice 19
// beside busy engines outlasted it ("waiting for uciok" after 27 s) where
// the sum let it finish, and taking a starved engine for a dead one costs a
// game, while waiting for a hung one until the cap costs only time.
func WithTimeout(parent context.Context, d time.Duration, pids ...int) (context.Context, context.CancelFunc) {
	return withTimeout(parent, d, func(p *Probe) time.Duration { return Allowance(p.Stop()) }, pids)
}

// WithWorkTimeout is WithTimeout for a deadline on work this process
// computes itself (a search told to stop at it): pushed back only by the
// longest time any one thread of this process waited for a CPU
// (Probe.Longest), which never grows faster than the clock, so that the
// deadline comes after d of the time the work could run even while its own
// threads crowd the CPUs. Pushed back by the sum it would not come before
// the cap on a busy machine, and the work would run on for minutes.
func WithWorkTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return withTimeout(parent, d, (*Probe).Longest, nil)
}

// withTimeout is the timeout of both: d plus allowance of a probe of this
// process and pids, at most max(d, StartTimeout).
func withTimeout(parent context.Context, d time.Duration, allowance func(*Probe) time.Duration, pids []int) (context.Context, context.CancelFunc) {
	c := &stalledContext{Context: parent, done: make(chan struct{})}
	stopParent := context.AfterFunc(parent, func() { c.end(parent.Err()) })
	probe := Start(pids...)
	start := time.Now()
	limit := max(d, StartTimeout)
	var mu sync.Mutex
	var t *time.Timer
	check := func() {
		budget := min(d+allowance(probe), limit)
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
