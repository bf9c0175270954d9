package evaluator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Cache is a bounded least-recently-used map with in-flight de-duplication:
// while one goroutine computes the value for a key, others asking for the
// same key wait for that result instead of computing it again. The player
// scores hundreds of (board, move) pairs per turn from many goroutines and
// many requested moves resolve to the same taken move, so both matter.
//
// Errors are never cached. A waiter whose leader failed only because the
// leader's own context ended (and whose own context is still live) computes
// the value itself, so one impatient caller cannot fail the others.
//
// Entries live in a slice threaded by indices (an intrusive list), so a full
// cache evicts and inserts without allocating.
type Cache[K comparable, V any] struct {
	mu       sync.Mutex
	capacity int
	index    map[K]int32
	entries  []cacheEntry[K, V]
	head     int32 // most recently used, -1 when empty
	tail     int32 // least recently used
	inflight map[K]*flight[V]

	hits, misses, shared, evictions atomic.Int64
}

type cacheEntry[K comparable, V any] struct {
	key        K
	val        V
	prev, next int32
}

type flight[V any] struct {
	done chan struct{}
	val  V
	err  error
}

// CacheStats counts cache events.
type CacheStats struct {
	// Hits counts lookups answered from the cache.
	Hits int64
	// Misses counts computations started.
	Misses int64
	// Shared counts callers that waited for another caller's computation.
	Shared int64
	// Evictions counts entries dropped to stay within capacity.
	Evictions int64
	// Len is the number of entries held.
	Len int
}

// NewCache returns a cache holding at most capacity entries (at least 1).
func NewCache[K comparable, V any](capacity int) *Cache[K, V] {
	capacity = max(capacity, 1)
	return &Cache[K, V]{
		capacity: capacity,
		index:    make(map[K]int32, min(capacity, 1<<16)),
		entries:  make([]cacheEntry[K, V], 0, min(capacity, 1<<16)),
		head:     -1,
		tail:     -1,
		inflight: make(map[K]*flight[V]),
	}
}

// Get returns the cached value for k and marks it recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, ok := c.index[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.touch(i)
	c.hits.Add(1)
	return c.entries[i].val, true
}

// Put stores v under k.
func (c *Cache[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(k, v)
}

// Do returns the value for k: from the cache, from a computation of k already
// in flight, or by calling compute(ctx) and caching its result. It returns
// when ctx ends even if a shared computation is still running.
func (c *Cache[K, V]) Do(ctx context.Context, k K, compute func(context.Context) (V, error)) (V, error) {
	var zero V
	for {
		c.mu.Lock()
		if i, ok := c.index[k]; ok {
			c.touch(i)
			v := c.entries[i].val
			c.mu.Unlock()
			c.hits.Add(1)
			return v, nil
		}
		if f, ok := c.inflight[k]; ok {
			c.mu.Unlock()
			c.shared.Add(1)
			select {
			case <-f.done:
			case <-ctx.Done():
				return zero, fmt.Errorf("evaluator: waiting for a shared evaluation: %w", ctx.Err())
			}
			if f.err == nil {
				return f.val, nil
			}
			if isContextError(f.err) && ctx.Err() == nil {
				continue // the leader gave up; compute it ourselves
			}
			return zero, f.err
		}
		f := &flight[V]{done: make(chan struct{})}
		c.inflight[k] = f
		c.mu.Unlock()
		c.misses.Add(1)
		return c.lead(ctx, k, f, compute)
	}
}

// lead runs compute for a flight and publishes the result, even if compute
// panics (waiters then see an error and the panic goes on).
func (c *Cache[K, V]) lead(ctx context.Context, k K, f *flight[V], compute func(context.Context) (V, error)) (v V, err error) {
	finished := false
	defer func() {
		if !finished {
			f.err = errors.New("evaluator: shared evaluation panicked")
		}
		c.mu.Lock()
		delete(c.inflight, k)
		if f.err == nil {
			c.put(k, f.val)
		}
		c.mu.Unlock()
		close(f.done)
	}()
	f.val, f.err = compute(ctx)
	finished = true
	return f.val, f.err
}

// Stats returns the counters.
func (c *Cache[K, V]) Stats() CacheStats {
	c.mu.Lock()
	n := len(c.index)
	c.mu.Unlock()
	return CacheStats{Hits: c.hits.Load(), Misses: c.misses.Load(), Shared: c.shared.Load(), Evictions: c.evictions.Load(), Len: n}
}

// Len returns the number of cached entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.index)
}

// put inserts or replaces k; c.mu must be held.
func (c *Cache[K, V]) put(k K, v V) {
	if i, ok := c.index[k]; ok {
		c.entries[i].val = v
		c.touch(i)
		return
	}
	var i int32
	if len(c.entries) < c.capacity {
		c.entries = append(c.entries, cacheEntry[K, V]{})
		i = int32(len(c.entries) - 1)
	} else {
		i = c.tail
		c.unlink(i)
		delete(c.index, c.entries[i].key)
		c.evictions.Add(1)
	}
	c.entries[i] = cacheEntry[K, V]{key: k, val: v, prev: -1, next: -1}
	c.index[k] = i
	c.pushFront(i)
}

func (c *Cache[K, V]) touch(i int32) {
	if c.head == i {
		return
	}
	c.unlink(i)
	c.pushFront(i)
}

func (c *Cache[K, V]) unlink(i int32) {
	e := &c.entries[i]
	if e.prev >= 0 {
		c.entries[e.prev].next = e.next
	} else {
		c.head = e.next
	}
	if e.next >= 0 {
		c.entries[e.next].prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = -1, -1
}

func (c *Cache[K, V]) pushFront(i int32) {
	e := &c.entries[i]
	e.prev, e.next = -1, c.head
	if c.head >= 0 {
		c.entries[c.head].prev = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
}

func isContextError(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// positionKey identifies a position evaluation: the board's Key (placement,
// side to move, castling, usable en passant; the guard resets the move
// counters so they cannot change a score) and the limits.
type positionKey struct {
	key uint64
	lim Limits
}

// Cached wraps an Evaluator with a Cache keyed by board Key and limits.
type Cached struct {
	inner Evaluator
	cache *Cache[positionKey, Score]
}

// NewCached returns e with a cache of the given capacity in front.
func NewCached(e Evaluator, capacity int) *Cached {
	return &Cached{inner: e, cache: NewCache[positionKey, Score](capacity)}
}

// Evaluate returns the cached score of b or evaluates it once, however many
// goroutines ask at the same time.
func (c *Cached) Evaluate(ctx context.Context, b chess.Board, lim Limits) (Score, error) {
	return c.cache.Do(ctx, positionKey{b.Key(), lim}, func(ctx context.Context) (Score, error) {
		return c.inner.Evaluate(ctx, b, lim)
	})
}

// Name returns the wrapped evaluator's name.
func (c *Cached) Name() string { return c.inner.Name() }

// Close closes the wrapped evaluator.
func (c *Cached) Close() error { return c.inner.Close() }

// Stats returns the cache counters.
func (c *Cached) Stats() CacheStats { return c.cache.Stats() }
