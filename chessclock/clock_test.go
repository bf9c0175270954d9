package chessclock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestManualExpiresContexts: Advance reaches deadlines; cancel works.
func TestManualExpiresContexts(t *testing.T) {
	clk := NewManual(time.Unix(0, 0))
	ctx, cancel := clk.WithDeadline(context.Background(), time.Unix(10, 0))
	defer cancel()
	clk.Advance(9 * time.Second)
	if ctx.Err() != nil {
		t.Fatal("expired early")
	}
	clk.Advance(time.Second)
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("Err = %v", ctx.Err())
	}
	ctx2, cancel2 := clk.WithDeadline(context.Background(), time.Unix(100, 0))
	cancel2()
	if !errors.Is(ctx2.Err(), context.Canceled) {
		t.Errorf("cancelled: Err = %v", ctx2.Err())
	}
	ctx3, cancel3 := clk.WithDeadline(context.Background(), time.Unix(5, 0)) // already past
	defer cancel3()
	if !errors.Is(ctx3.Err(), context.DeadlineExceeded) {
		t.Errorf("past deadline: Err = %v", ctx3.Err())
	}
	if len(clk.waiters) != 0 {
		t.Errorf("%d waiters left", len(clk.waiters))
	}
}
