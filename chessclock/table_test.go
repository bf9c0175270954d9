package chessclock

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"
)

type side uint8

func (s side) String() string { return [...]string{"white", "black"}[s] }

type result struct {
	loser  side
	onTime bool
	detail string
}

var errAborted = errors.New("test: aborted")

func newTable(clk Clock) *Table[side, result] {
	cfg := Config{Game: "test", Initial: 10 * time.Second, Increment: 2 * time.Second, Clock: clk,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), GameEndTimeout: time.Second, Aborted: errAborted}
	return New(cfg, func(l Loss[side]) result { return result{l.Loser, l.OnTime, l.Detail} })
}

// TestTableChargesTurnAndAddsIncrement: a turn costs its whole time, then
// the increment is added.
func TestTableChargesTurnAndAddsIncrement(t *testing.T) {
	clk := NewManual(time.Unix(0, 0))
	tb := newTable(clk)
	tb.BeginTurn(1)
	if ok, err := tb.Call(context.Background(), "Think", func(context.Context) error {
		clk.Advance(3 * time.Second)
		return nil
	}); !ok || err != nil {
		t.Fatalf("Call = %v, %v", ok, err)
	}
	if got := tb.TurnLeft(); got != 7*time.Second {
		t.Errorf("TurnLeft = %v, want 7s", got)
	}
	tb.EndTurn()
	if got := tb.Clocks(); got != [2]time.Duration{10 * time.Second, 9 * time.Second} {
		t.Errorf("Clocks = %v", got)
	}
	if got := tb.TurnTimes()[1]; len(got) != 1 || got[0] != 3*time.Second {
		t.Errorf("TurnTimes = %v", got)
	}
}

// TestTableOverrunLosesOnTimeWithoutIncrement: a callback that returns after
// its clock ran out loses on time, and the loser gets no increment.
func TestTableOverrunLosesOnTimeWithoutIncrement(t *testing.T) {
	clk := NewManual(time.Unix(0, 0))
	tb := newTable(clk)
	tb.BeginTurn(0)
	ok, err := tb.Call(context.Background(), "Think", func(context.Context) error {
		clk.Advance(11 * time.Second)
		return nil
	})
	tb.EndTurn()
	if ok || err != nil || !tb.Over() {
		t.Fatalf("Call = %v, %v; Over = %v", ok, err, tb.Over())
	}
	if r := tb.Result(); r.loser != 0 || !r.onTime || r.detail != "white's Think returned after its clock ran out" {
		t.Errorf("Result = %+v", r)
	}
	if got := tb.Left(0); got != -time.Second {
		t.Errorf("Left = %v, want -1s (no increment)", got)
	}
}

// TestTableFailureResignsButNotAfterEnd: an error resigns; once the rules
// ended the game, a failure leaves their result alone.
func TestTableFailureResignsButNotAfterEnd(t *testing.T) {
	tb := newTable(NewManual(time.Unix(0, 0)))
	fail := func(context.Context) error { return errors.New("boom") }
	tb.End(result{detail: "rules"})
	tb.BeginTurn(1)
	if ok, _ := tb.Call(context.Background(), "Answer", fail); ok || tb.Result().detail != "rules" {
		t.Errorf("after End: ok = %v, Result = %+v", ok, tb.Result())
	}
	tb.EndTurn()
	if got := tb.Left(1); got != 12*time.Second {
		t.Errorf("Left = %v, want 12s (increment kept)", got)
	}

	tb = newTable(NewManual(time.Unix(0, 0)))
	tb.BeginTurn(0)
	if ok, _ := tb.Call(context.Background(), "Move", fail); ok || tb.Result() != (result{0, false, "white's Move failed: boom"}) {
		t.Errorf("resign: ok = %v, Result = %+v", ok, tb.Result())
	}
}

// TestTableStartOverrunEmptiesClock: game start is not charged, but one that
// outlasts the clock loses on time with nothing left; a panic resigns.
func TestTableStartOverrunEmptiesClock(t *testing.T) {
	clk := NewManual(time.Unix(0, 0))
	tb := newTable(clk)
	release := make(chan struct{})
	ok, err := tb.Start(context.Background(), 1, "Start", func(ctx context.Context) error {
		clk.Advance(10 * time.Second)
		<-ctx.Done()
		<-release
		return nil
	})
	if ok || err != nil || !tb.Result().onTime || tb.Left(1) != 0 {
		t.Errorf("Start = %v, %v; Result = %+v, Left = %v", ok, err, tb.Result(), tb.Left(1))
	}
	called := [2]bool{}
	close(release)
	tb.EndGame(context.Background(), "End", func(c side) func(context.Context) error {
		return func(context.Context) error { called[c] = true; panic("end") }
	})
	if called != [2]bool{true, true} {
		t.Errorf("EndGame called %v, want both (the overrun returned)", called)
	}

	tb = newTable(NewManual(time.Unix(0, 0)))
	ok, _ = tb.Start(context.Background(), 0, "Start", func(context.Context) error { panic("oops") })
	if ok || tb.Result() != (result{0, false, "white's Start failed: panic: oops"}) {
		t.Errorf("panic: ok = %v, Result = %+v", ok, tb.Result())
	}
}

// TestTableAbortWrapsGameError: a done context is the game's abort error.
func TestTableAbortWrapsGameError(t *testing.T) {
	tb := newTable(NewManual(time.Unix(0, 0)))
	ctx, cancel := context.WithCancel(context.Background())
	tb.BeginTurn(0)
	ok, err := tb.Call(ctx, "Think", func(context.Context) error { cancel(); return context.Canceled })
	if ok || !errors.Is(err, errAborted) || !errors.Is(err, context.Canceled) || tb.Over() {
		t.Errorf("Call = %v, %v; Over = %v", ok, err, tb.Over())
	}
}
