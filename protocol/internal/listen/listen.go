// Package listen is the loop the RBC tournament client and the
// kriegspiel.org client share to play their games: it polls the server,
// plays each game it is given in its own goroutine, at most MaxGames at
// once and never the same game twice, reports each to OnGame, and stops
// when its context is done or StopAfter games are finished. What a poll
// asks for (invitations, a lobby) and how a game is played stay with each
// client.
package listen

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// Config configures a Loop.
type Config[ID comparable, R any] struct {
	// MaxGames is how many games are played at once (at least 1).
	MaxGames int
	// StopAfter ends Run once this many games are finished (0: never).
	StopAfter int
	// PollUntilFinished keeps polling once StopAfter games are started,
	// until they are finished: for a server that puts us in games we must
	// play. Otherwise Run only waits for them.
	PollUntilFinished bool
	// PollInterval is the pause between polls.
	PollInterval time.Duration
	// Poll is one poll of the server; it calls Start for each game to
	// play. It logs its own failures: the loop polls again after the pause
	// whatever happened.
	Poll func(ctx context.Context)
	// OnGame is called (from the game's goroutine) with each game's result
	// or error, before its place is given to another game.
	OnGame func(id ID, res R, err error)
	// After returns a channel that delivers once d has passed and a
	// function that stops it; nil means a real timer. Tests pass a fake
	// clock.
	After func(d time.Duration) (<-chan time.Time, func() bool)
}

// Loop is one client's games: the ones running, the ones ever started (so
// that none is started twice) and how many are finished.
type Loop[ID comparable, R any] struct {
	cfg Config[ID, R]
	wg  sync.WaitGroup

	mu       sync.Mutex
	running  map[ID]bool
	started  map[ID]bool
	finished int
	stop     chan struct{} // closed when StopAfter games are finished
}

// New returns a loop that has started no game.
func New[ID comparable, R any](cfg Config[ID, R]) *Loop[ID, R] {
	if cfg.MaxGames < 1 {
		cfg.MaxGames = 1
	}
	if cfg.After == nil {
		cfg.After = func(d time.Duration) (<-chan time.Time, func() bool) {
			t := time.NewTimer(d)
			return t.C, t.Stop
		}
	}
	return &Loop[ID, R]{cfg: cfg, running: map[ID]bool{}, started: map[ID]bool{}, stop: make(chan struct{})}
}

// Run polls until ctx is done or StopAfter games are finished; once
// StopAfter games are started it stops polling (unless PollUntilFinished)
// and waits for them. It does not wait for the running games: Wait does.
func (l *Loop[ID, R]) Run(ctx context.Context) {
	for {
		if l.cfg.StopAfter > 0 {
			started, finished := l.counts()
			if finished >= l.cfg.StopAfter {
				return
			}
			if started >= l.cfg.StopAfter && !l.cfg.PollUntilFinished {
				select {
				case <-ctx.Done():
				case <-l.stop:
				}
				return
			}
		}
		l.cfg.Poll(ctx)
		if ctx.Err() != nil {
			return
		}
		tick, stop := l.cfg.After(l.cfg.PollInterval)
		select {
		case <-ctx.Done():
			stop()
			return
		case <-l.stop:
			stop()
			return
		case <-tick:
		}
	}
}

// Wait waits for the running games to finish, saying so to log if there
// are any.
func (l *Loop[ID, R]) Wait(log *slog.Logger) {
	if n := l.Running(); n > 0 {
		log.Info("waiting for running games to finish", "games", n)
	}
	l.wg.Wait()
}

// Start plays game id in its own goroutine with play, unless it was
// started before or MaxGames games are running; it reports whether it
// started it. The game's result goes to OnGame.
func (l *Loop[ID, R]) Start(id ID, play func() (R, error)) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started[id] || len(l.running) >= l.cfg.MaxGames {
		return false
	}
	l.started[id] = true
	l.running[id] = true
	l.wg.Go(func() {
		res, err := play()
		if l.cfg.OnGame != nil {
			l.cfg.OnGame(id, res, err)
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.running, id)
		l.finished++
		if l.cfg.StopAfter > 0 && l.finished == l.cfg.StopAfter {
			close(l.stop)
		}
	})
	return true
}

// Started reports whether game id was started (it may be finished).
func (l *Loop[ID, R]) Started(id ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.started[id]
}

// Room reports whether a new game would be started now: fewer than
// MaxGames are running, and fewer than StopAfter were started.
func (l *Loop[ID, R]) Room() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.running) < l.cfg.MaxGames && (l.cfg.StopAfter == 0 || len(l.started) < l.cfg.StopAfter)
}

// Running is the number of games being played.
func (l *Loop[ID, R]) Running() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.running)
}

func (l *Loop[ID, R]) counts() (started, finished int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.started), l.finished
}

// Logger is log, or one that discards everything when log is nil.
func Logger(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return log
}

// GameContext is the context a client's games run under: game, or when it
// is nil one that ctx's cancellation does not reach, so that the running
// games finish after a shutdown request.
func GameContext(ctx, game context.Context) context.Context {
	if game == nil {
		return context.WithoutCancel(ctx)
	}
	return game
}
