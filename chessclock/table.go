package chessclock

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"
)

// Color is a side, 0 or 1, with a name for messages ("white").
type Color interface {
	~uint8
	String() string
}

// Config configures a Table.
type Config struct {
	// Game names the game in log messages ("rbc").
	Game string
	// Initial is each player's clock at the start; Increment is added to it
	// after each of the player's turns.
	Initial, Increment time.Duration
	// Clock is the time source; nil means the system clock.
	Clock Clock
	// Logger receives warnings about misbehaving players; nil means
	// slog.Default().
	Logger *slog.Logger
	// GameEndTimeout bounds the game-end callback, and the wait for a
	// callback that overran its clock to return before it; 0 means 10 s.
	GameEndTimeout time.Duration
	// Aborted is the game's error for a context done before the game is
	// over; a Table returns it wrapped with the context's error.
	Aborted error
}

// Loss is a callback failure that lost the game for its player.
type Loss[C Color] struct {
	// Loser is the player whose callback failed.
	Loser C
	// OnTime reports a loss on time: the callback overran its player's
	// clock. Otherwise the player resigned: the callback failed or panicked.
	OnTime bool
	// Detail says which callback failed and how.
	Detail string
}

func (l *Loss[C]) Error() string { return l.Detail }

// Reason returns timeout for a loss on time and resign for a failure: the
// game's own names for the two ways a Table loses it.
func Reason[C Color, W any](l Loss[C], timeout, resign W) W {
	if l.OnTime {
		return timeout
	}
	return resign
}

// Table is the clocks, the callbacks and the result of one game, a result of
// the game's type R. It is not safe for concurrent use: the referee drives it
// from one goroutine, and only the callbacks it starts run beside it.
type Table[C Color, R any] struct {
	cfg       Config
	left      [2]time.Duration // time left on each clock
	used      [2]time.Duration
	turnTimes [2][]time.Duration
	seats     [2]seat[C]

	// the turn in progress
	mover           C
	start, deadline time.Time

	lose   func(Loss[C]) R
	over   bool
	result R
	loss   *Loss[C] // the callback failure that ended the game, if one did
}

// New returns the table of a game about to start, both clocks at
// cfg.Initial. A nil cfg.Clock is the system clock, a nil cfg.Logger
// slog.Default(). lose gives the game's result when a callback fails.
func New[C Color, R any](cfg Config, lose func(Loss[C]) R) *Table[C, R] {
	if cfg.Clock == nil {
		cfg.Clock = System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.GameEndTimeout <= 0 {
		cfg.GameEndTimeout = 10 * time.Second
	}
	return &Table[C, R]{cfg: cfg, lose: lose, left: [2]time.Duration{cfg.Initial, cfg.Initial}}
}

// Start runs c's game-start callback fn. Game start is not charged, but it
// may not outlast the player's clock either: a player that overruns it loses
// on time with no time left. The result is Call's.
func (t *Table[C, R]) Start(ctx context.Context, c C, name string, fn func(context.Context) error) (bool, error) {
	ok, err := t.call(ctx, c, t.cfg.Clock.Now().Add(t.left[c]), name, fn)
	if t.loss != nil && t.loss.OnTime {
		t.left[c] = 0
	}
	return ok, err
}

// BeginTurn starts c's turn: c's clock runs from now until EndTurn, and the
// callbacks run by Call are c's, due when its clock runs out.
func (t *Table[C, R]) BeginTurn(c C) {
	t.mover = c
	t.start = t.cfg.Clock.Now()
	t.deadline = t.start.Add(t.left[c])
}

// EndTurn charges the whole turn to the mover's clock and adds the
// increment, unless the mover lost on time.
func (t *Table[C, R]) EndTurn() {
	c := t.mover
	elapsed := t.cfg.Clock.Now().Sub(t.start)
	t.used[c] += elapsed
	t.turnTimes[c] = append(t.turnTimes[c], elapsed)
	t.left[c] -= elapsed
	if t.loss == nil || !t.loss.OnTime {
		t.left[c] += t.cfg.Increment
	}
}

// TurnLeft returns the time the mover has left in this turn.
func (t *Table[C, R]) TurnLeft() time.Duration { return t.deadline.Sub(t.cfg.Clock.Now()) }

// Call runs the mover's callback fn (see BeginTurn) under its clock. It
// reports whether the game goes on; when it does not, the game is over (Over)
// or aborted (the error, which wraps cfg.Aborted). A callback that fails
// after the game is over (End) changes nothing but a warning.
func (t *Table[C, R]) Call(ctx context.Context, name string, fn func(context.Context) error) (bool, error) {
	return t.call(ctx, t.mover, t.deadline, name, fn)
}

func (t *Table[C, R]) call(ctx context.Context, c C, deadline time.Time, name string, fn func(context.Context) error) (bool, error) {
	err := t.seat(c).call(ctx, t.cfg, deadline, c, name, fn)
	if err == nil {
		return true, nil
	}
	loss, ok := err.(*Loss[C])
	if !ok {
		return false, err
	}
	if t.over { // the rules ended the game first
		t.cfg.Logger.Warn(t.cfg.Game+": a callback failed after the game ended", "color", c.String(), "err", err)
		return false, nil
	}
	t.over, t.loss, t.result = true, loss, t.lose(*loss)
	return false, nil
}

// End records that the game's rules ended it with result.
func (t *Table[C, R]) End(result R) { t.over, t.result = true, result }

// Over reports whether the game is over, by the rules or by a Loss.
func (t *Table[C, R]) Over() bool { return t.over }

// Result returns the game's result: End's, or lose's for the callback
// failure that ended the game; the zero R while the game goes on.
func (t *Table[C, R]) Result() R { return t.result }

// Left returns the time left on c's clock.
func (t *Table[C, R]) Left(c C) time.Duration { return t.left[c] }

// Clocks returns the time left on each clock.
func (t *Table[C, R]) Clocks() [2]time.Duration { return t.left }

// Used returns the clock time charged to each player over the game.
func (t *Table[C, R]) Used() [2]time.Duration { return t.used }

// TurnTimes returns the clock time charged to each player at each of its
// turns, in order.
func (t *Table[C, R]) TurnTimes() [2][]time.Duration { return t.turnTimes }

// EndGame runs each player's game-end callback, the one build(c) returns,
// under cfg.GameEndTimeout and not under its clock, even when ctx is done. It
// skips a player whose callback overran its clock and has not returned within
// cfg.GameEndTimeout: calling it then would race with the bot. Failures are
// only logged: the game is over.
func (t *Table[C, R]) EndGame(ctx context.Context, name string, build func(c C) func(context.Context) error) {
	for c := C(0); c <= 1; c++ {
		s := t.seat(c)
		if !s.waitIdle(t.cfg.GameEndTimeout) {
			t.cfg.Logger.Warn(t.cfg.Game+": a callback overran its clock and has not returned; "+name+" not called",
				"color", c.String(), "callback", s.pendingName)
			continue
		}
		fn := build(c)
		deadline := t.cfg.Clock.Now().Add(t.cfg.GameEndTimeout)
		if err := s.call(context.WithoutCancel(ctx), t.cfg, deadline, c, name, fn); err != nil {
			t.cfg.Logger.Warn(t.cfg.Game+": "+name+" failed", "color", c.String(), "err", err)
		}
	}
}

func (t *Table[C, R]) seat(c C) *seat[C] { return &t.seats[c] }

// seat is the state of one player's callbacks.
type seat[C Color] struct {
	// pending receives the result of a callback the referee stopped waiting
	// for (it overran its clock); nil when no callback is running.
	pending     chan error
	pendingName string
}

// call runs fn (a callback of player c) in its own goroutine with a context
// done at deadline, and waits for it until then. It returns nil, a *Loss[C]
// (the callback failed, panicked or overran its clock) or, when ctx is done,
// cfg.Aborted wrapped with ctx's error.
func (s *seat[C]) call(ctx context.Context, cfg Config, deadline time.Time, c C, name string, fn func(context.Context) error) error {
	cctx, cancel := cfg.Clock.WithDeadline(ctx, deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				cfg.Logger.Error(cfg.Game+": player panicked", "color", c.String(), "callback", name,
					"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				done <- fmt.Errorf("panic: %v", v)
			}
		}()
		done <- fn(cctx)
	}()
	var err error
	select {
	case err = <-done:
	case <-cctx.Done():
		select {
		case err = <-done: // it returned just as the deadline passed
		default:
			s.pending, s.pendingName = done, name
			if ctx.Err() != nil {
				return fmt.Errorf("%w: %w", cfg.Aborted, ctx.Err())
			}
			return &Loss[C]{Loser: c, OnTime: true, Detail: fmt.Sprintf("%s's %s was still running when its clock ran out", c, name)}
		}
	}
	if !cfg.Clock.Now().Before(deadline) {
		return &Loss[C]{Loser: c, OnTime: true, Detail: fmt.Sprintf("%s's %s returned after its clock ran out", c, name)}
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w", cfg.Aborted, ctx.Err())
		}
		return &Loss[C]{Loser: c, Detail: fmt.Sprintf("%s's %s failed: %v", c, name, err)}
	}
	return nil
}

// waitIdle waits up to d for a callback that overran its clock to return.
func (s *seat[C]) waitIdle(d time.Duration) bool {
	if s.pending == nil {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.pending:
		s.pending = nil
		return true
	case <-t.C:
		return false
	}
}
