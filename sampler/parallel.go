package sampler

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// parallelFor runs fn(worker, i) for every i in [0, n) on up to workers
// goroutines. Items are handed out one at a time from a shared counter, so
// uneven items balance themselves. It stops at the first error, or when ctx
// ends (checked between items), and returns that error.
func parallelFor(ctx context.Context, workers, n int, fn func(worker, i int) error) error {
	if n == 0 {
		return ctx.Err()
	}
	workers = max(1, min(workers, n))
	if workers == 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := fn(0, i); err != nil {
				return err
			}
		}
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for w := range workers {
		g.Go(func() error {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return nil
				}
				if err := gctx.Err(); err != nil {
					return err
				}
				if err := fn(w, i); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}
