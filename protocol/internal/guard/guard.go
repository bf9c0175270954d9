// Package guard runs a player's callback for a network client: with a
// context that ends at the player's deadline, its panics turned into errors,
// and a caller that stops waiting a moment after the deadline, so that a
// player that ignores its context cannot hang a game on a server (its
// goroutine is left to finish on its own).
package guard

import (
	"context"
	"fmt"
	"time"
)

// Grace is how long past its deadline a callback is waited for.
const Grace = time.Second

// Call runs fn as the player's callback name; prefix starts every error
// ("server", "kriegspiel.org").
func Call(ctx context.Context, prefix string, deadline time.Time, name string, fn func(context.Context) error) error {
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- fmt.Errorf("panic: %v", v)
			}
		}()
		done <- fn(cctx)
	}()
	grace := time.NewTimer(time.Until(deadline) + Grace)
	defer grace.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s: the player's %s failed: %w", prefix, name, err)
		}
		return nil
	case <-grace.C:
		return fmt.Errorf("%s: the player's %s did not return before its clock ran out", prefix, name)
	case <-ctx.Done():
		return fmt.Errorf("%s: %s: %w", prefix, name, ctx.Err())
	}
}
