package engine

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/internal/stall"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// slowClose is a stuck belief whose Close takes a while (an exact set
// waiting for its expansion and freeing its spill files), or until release
// is closed when release is not nil.
type slowClose struct {
	stuckBelief
	delay   time.Duration
	release chan struct{}
	closed  atomic.Bool
}

func (s *slowClose) Close() error {
	time.Sleep(s.delay)
	if s.release != nil {
		<-s.release
	}
	s.closed.Store(true)
	return s.Sampler.Close()
}

// failedOver returns a player whose first belief, b, was replaced by
// failover and is being closed in the background.
func failedOver(t *testing.T, b *slowClose) *Player {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Eval = evaluator.KindEmbedded
	p, err := NewBlindfish(cfg, Options{Seed: 3, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := rbc.StartBoard()
	if err := p.HandleGameStart(ctx, rbc.White, start, "nobody"); err != nil {
		t.Fatal(err)
	}
	p.ensureBelief(time.Minute)
	b.stuckBelief = stuckBelief{p.belief}
	p.belief = b
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := p.HandleOpponentMoveResult(short, false, rbc.NoSquare); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < failoverStreak && p.Stats().Failovers == 0; i++ {
		if _, err := p.ChooseSense(ctx, allSquares(), start.MoveActions(), 3*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if p.Stats().Failovers != 1 || p.belief == b {
		t.Fatalf("failovers %d, belief %s: want the stuck belief replaced", p.Stats().Failovers, p.belief.Name())
	}
	return p
}

// TestPlayerCloseWaitsForTheAbandonedBelief: a belief replaced by failover
// is closed in the background, and Close returns only once it is closed (its
// memory and spill files do not outlive the player).
func TestPlayerCloseWaitsForTheAbandonedBelief(t *testing.T) {
	b := &slowClose{delay: 300 * time.Millisecond}
	p := failedOver(t, b)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if !b.closed.Load() {
		t.Fatal("Close returned before the abandoned belief was closed")
	}
}

// TestPlayerCloseBoundsTheWaitForTheAbandonedBelief: a belief that never
// finishes closing does not hang Close past its bound.
func TestPlayerCloseBoundsTheWaitForTheAbandonedBelief(t *testing.T) {
	defer func(w time.Duration) { closeWait = w }(closeWait)
	closeWait = 200 * time.Millisecond
	b := &slowClose{release: make(chan struct{})}
	defer close(b.release)
	p := failedOver(t, b)
	probe := stall.Start()
	t0 := time.Now()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if took, stalled := time.Since(t0), probe.Stop(); took > 2*time.Second+stall.Allowance(stalled) {
		t.Fatalf("Close took %v with a bound of %v, having waited only %v for a CPU", took, closeWait, stalled)
	}
	if b.closed.Load() {
		t.Fatal("the wedged belief closed: the test did not wedge it")
	}
}
