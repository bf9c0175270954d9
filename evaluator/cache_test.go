package evaluator

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

func TestCacheLRU(t *testing.T) {
	c := NewCache[int, string](3)
	for i := 1; i <= 3; i++ {
		c.Put(i, fmt.Sprint(i))
	}
	if _, ok := c.Get(1); !ok { // 1 becomes most recent: order 1,3,2
		t.Fatal("1 missing")
	}
	c.Put(4, "4") // evicts 2, the least recently used
	if _, ok := c.Get(2); ok {
		t.Fatal("2 should have been evicted")
	}
	for _, k := range []int{1, 3, 4} {
		if v, ok := c.Get(k); !ok || v != fmt.Sprint(k) {
			t.Fatalf("Get(%d) = %q, %v", k, v, ok)
		}
	}
	c.Put(3, "three") // replace keeps the size
	if v, _ := c.Get(3); v != "three" || c.Len() != 3 {
		t.Fatalf("replace: %q, len %d", v, c.Len())
	}
	if s := c.Stats(); s.Evictions != 1 || s.Len != 3 {
		t.Fatalf("stats %+v", s)
	}
}

func TestCacheBoundedUnderChurn(t *testing.T) {
	c := NewCache[int, int](100)
	for i := 0; i < 10000; i++ {
		c.Put(i, i)
		if i%7 == 0 {
			c.Get(i / 2)
		}
	}
	if c.Len() != 100 {
		t.Fatalf("len %d, want 100", c.Len())
	}
	// The 100 most recent puts (and nothing older than the capacity window
	// except touched keys) are present.
	for i := 9990; i < 10000; i++ {
		if v, ok := c.Get(i); !ok || v != i {
			t.Fatalf("recent key %d missing", i)
		}
	}
}

func TestCacheDeduplicatesInFlight(t *testing.T) {
	c := NewCache[int, int](10)
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	const n = 50
	results := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			v, err := c.Do(context.Background(), 7, func(context.Context) (int, error) {
				calls.Add(1)
				<-release
				return 49, nil
			})
			if err != nil {
				t.Error(err)
			}
			results[i] = v
		}(i)
	}
	// Wait until every goroutine is either the leader or a waiter.
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := c.Stats()
		if s.Misses+s.Shared+s.Hits == n || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("computed %d times, want 1", calls.Load())
	}
	for i, v := range results {
		if v != 49 {
			t.Fatalf("result %d = %d", i, v)
		}
	}
	if v, ok := c.Get(7); !ok || v != 49 {
		t.Fatal("value not cached")
	}
}

func TestCacheErrorsNotCached(t *testing.T) {
	c := NewCache[string, int](10)
	boom := errors.New("boom")
	_, err := c.Do(context.Background(), "k", func(context.Context) (int, error) { return 0, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	v, err := c.Do(context.Background(), "k", func(context.Context) (int, error) { return 3, nil })
	if err != nil || v != 3 {
		t.Fatalf("second Do: %d, %v", v, err)
	}
}

func TestCacheLeaderCanceledWaiterRecomputes(t *testing.T) {
	c := NewCache[int, int](10)
	leaderCtx, cancelLeader := context.WithCancel(context.Background())
	started := make(chan struct{})
	leaderDone := make(chan error, 1)
	go func() {
		_, err := c.Do(leaderCtx, 1, func(ctx context.Context) (int, error) {
			close(started)
			<-ctx.Done()
			return 0, fmt.Errorf("search: %w", ctx.Err())
		})
		leaderDone <- err
	}()
	<-started
	waiterDone := make(chan int, 1)
	go func() {
		v, err := c.Do(context.Background(), 1, func(context.Context) (int, error) { return 11, nil })
		if err != nil {
			t.Error(err)
		}
		waiterDone <- v
	}()
	for c.Stats().Shared == 0 {
		time.Sleep(time.Millisecond)
	}
	cancelLeader()
	if err := <-leaderDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("leader err %v", err)
	}
	if v := <-waiterDone; v != 11 {
		t.Fatalf("waiter got %d, want its own computation 11", v)
	}
}

func TestCacheWaiterHonoursOwnContext(t *testing.T) {
	c := NewCache[int, int](10)
	release := make(chan struct{})
	defer close(release)
	started := make(chan struct{})
	go func() {
		_, _ = c.Do(context.Background(), 1, func(context.Context) (int, error) {
			close(started)
			<-release
			return 1, nil
		})
	}()
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := c.Do(ctx, 1, func(context.Context) (int, error) { return 2, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want deadline exceeded", err)
	}
}

func TestCachePanicReleasesWaiters(t *testing.T) {
	c := NewCache[int, int](10)
	started := make(chan struct{})
	proceed := make(chan struct{})
	go func() {
		defer func() { _ = recover() }()
		_, _ = c.Do(context.Background(), 1, func(context.Context) (int, error) {
			close(started)
			<-proceed
			panic("engine exploded")
		})
	}()
	<-started
	errc := make(chan error, 1)
	go func() {
		_, err := c.Do(context.Background(), 1, func(context.Context) (int, error) { return 0, nil })
		errc <- err
	}()
	for c.Stats().Shared == 0 {
		time.Sleep(time.Millisecond)
	}
	close(proceed)
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("waiter got no error from a panicked leader")
		}
	case <-time.After(time.Minute):
		t.Fatal("waiter hung after the leader panicked")
	}
}

// countingEvaluator counts evaluations and returns the board's material
// balance, slowly, to give concurrent callers time to collide.
type countingEvaluator struct {
	calls atomic.Int64
	delay time.Duration
}

func (e *countingEvaluator) Evaluate(ctx context.Context, b chess.Board, lim Limits) (Score, error) {
	e.calls.Add(1)
	select {
	case <-time.After(e.delay):
	case <-ctx.Done():
		return Score{}, ctx.Err()
	}
	return Score{CP: b.Pieces(b.Turn()).Count() - b.Pieces(b.Turn().Other()).Count(), Source: FromEngine}, nil
}
func (e *countingEvaluator) Name() string { return "counting" }
func (e *countingEvaluator) Close() error { return nil }

func TestCachedEvaluatorConcurrent(t *testing.T) {
	inner := &countingEvaluator{delay: 2 * time.Millisecond}
	ev := NewCached(inner, 1000)
	root := chess.StartBoard()
	children := root.AppendOptions(nil)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range children {
				b := root
				b.Apply(m)
				if _, err := ev.Evaluate(context.Background(), b, Limits{Depth: 1}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	// Exactly one evaluation per distinct board, however many goroutines ask.
	keys := map[uint64]bool{}
	for _, m := range children {
		b := root
		b.Apply(m)
		keys[b.Key()] = true
	}
	if got := inner.calls.Load(); got != int64(len(keys)) {
		t.Fatalf("%d evaluations for %d distinct boards", got, len(keys))
	}
	// Different limits are different entries.
	if _, err := ev.Evaluate(context.Background(), root, Limits{Depth: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := ev.Evaluate(context.Background(), root, Limits{Depth: 3}); err != nil {
		t.Fatal(err)
	}
	if got := inner.calls.Load(); got != int64(len(keys))+2 {
		t.Fatalf("limits not part of the key: %d calls", got)
	}
}

func BenchmarkCacheHit(b *testing.B) {
	c := NewCache[positionKey, Score](1 << 16)
	for i := 0; i < 1<<16; i++ {
		c.Put(positionKey{key: uint64(i)}, Score{CP: i})
	}
	ctx := context.Background()
	b.RunParallel(func(pb *testing.PB) {
		i := uint64(0)
		for pb.Next() {
			_, _ = c.Do(ctx, positionKey{key: i & (1<<16 - 1)}, func(context.Context) (Score, error) { return Score{}, nil })
			i += 7
		}
	})
}
