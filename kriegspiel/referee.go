package kriegspiel

// The referee of a local game: two Players under chess clocks, each turn a
// series of questions until one makes a move, every question and answer in
// the record. It follows rbc's referee in everything but the rules: the
// whole turn is charged to the mover's clock, a callback that overruns its
// clock loses on time and is not waited for, and one that fails resigns.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// Options configure a local game. Start from DefaultOptions: the zero value
// has no rules named and no time on the clocks.
type Options struct {
	// Rules are the game's rules.
	Rules Ruleset
	// StartFEN is the starting position; "" is the standard one.
	StartFEN string
	// InitialTime is each player's clock at the start.
	InitialTime time.Duration
	// Increment is added to a player's clock after each of its turns.
	Increment time.Duration
	// TurnLimit draws the game when the full-move number exceeds it; 0
	// means no limit (the rules end every game sooner or later).
	TurnLimit int
	// QuestionLimit is the most questions a player may ask in one turn;
	// one more resigns the game. It stops a bot that keeps asking the
	// impossible faster than its clock runs out. 0 means 1000.
	QuestionLimit int
	// WhiteName and BlackName go into the record and to the opponent.
	WhiteName, BlackName string
	// Clock is the time source; nil means the system clock.
	Clock rbc.Clock
	// GameEndTimeout bounds HandleGameEnd, and the wait for a callback that
	// overran its clock to return before HandleGameEnd is called; 0 means 10 s.
	GameEndTimeout time.Duration
	// Logger receives warnings about misbehaving players; nil means slog.Default().
	Logger *slog.Logger
}

// DefaultOptions returns wild16 from the standard position with 900 s + 5 s
// per turn, as rbc's defaults are.
func DefaultOptions() Options {
	return Options{Rules: Wild16(), InitialTime: 900 * time.Second, Increment: 5 * time.Second}
}

// GameResult is what a local game leaves behind.
type GameResult struct {
	// Record is the full record; Record.Result is the result.
	Record *Record
	// Used is the clock time charged to each colour over the game.
	Used [2]time.Duration
	// Left is each colour's clock at the end.
	Left [2]time.Duration
}

// ErrAborted is returned (wrapped with the context's error) when the context
// of PlayGame is done before the game is over.
var ErrAborted = errors.New("kriegspiel: game aborted")

// errNoQuestions is what a player returns when asked to choose from nothing.
var errNoQuestions = errors.New("kriegspiel: no question to choose from")

// PlayGame plays one game between white and black and returns its record.
// The error is non-nil only for bad options, nil players or an aborted game
// (ctx done: ErrAborted; HandleGameEnd is not called).
func PlayGame(ctx context.Context, white, black Player, opts Options) (*GameResult, error) {
	switch {
	case white == nil || black == nil:
		return nil, errors.New("kriegspiel: PlayGame: nil player")
	case opts.Rules.Name == "":
		return nil, errors.New("kriegspiel: PlayGame: no rules (start from DefaultOptions)")
	case opts.InitialTime <= 0:
		return nil, fmt.Errorf("kriegspiel: PlayGame: initial time %v is not positive", opts.InitialTime)
	case opts.Increment < 0 || opts.TurnLimit < 0 || opts.QuestionLimit < 0:
		return nil, fmt.Errorf("kriegspiel: PlayGame: negative increment %v, turn limit %d or question limit %d",
			opts.Increment, opts.TurnLimit, opts.QuestionLimit)
	}
	fen := opts.StartFEN
	if fen == "" {
		fen = rbc.StartFEN
	}
	g, err := NewGameFromFEN(opts.Rules, fen)
	if err != nil {
		return nil, fmt.Errorf("kriegspiel: PlayGame: %w", err)
	}
	r := &referee{opts: opts, clock: opts.Clock, log: opts.Logger, game: g}
	if r.clock == nil {
		r.clock = rbc.SystemClock{}
	}
	if r.log == nil {
		r.log = slog.Default()
	}
	if r.opts.GameEndTimeout <= 0 {
		r.opts.GameEndTimeout = 10 * time.Second
	}
	if r.opts.QuestionLimit == 0 {
		r.opts.QuestionLimit = 1000
	}
	r.rec = &Record{Ruleset: opts.Rules, White: opts.WhiteName, Black: opts.BlackName,
		StartFEN: g.StartFEN(), PawnTries: g.PawnTries()}
	r.seats[rbc.White] = &seat{p: white, color: rbc.White, log: r.log}
	r.seats[rbc.Black] = &seat{p: black, color: rbc.Black, log: r.log}
	r.clocks = [2]time.Duration{opts.InitialTime, opts.InitialTime}
	if err := r.play(ctx); err != nil {
		return nil, err
	}
	r.rec.Result = r.result
	b := r.game.Board()
	r.rec.FinalFEN = b.FEN()
	r.endGame(ctx)
	return &GameResult{Record: r.rec, Used: r.used, Left: r.clocks}, nil
}

// referee holds the state of one game.
type referee struct {
	opts   Options
	clock  rbc.Clock
	log    *slog.Logger
	game   *Game
	seats  [2]*seat
	clocks [2]time.Duration // time left on each clock
	used   [2]time.Duration
	rec    *Record
	heard  [2][]Heard // what each player heard since its last turn
	result Result
	over   bool
}

// play runs the game until it is over; it fails only when ctx is done.
func (r *referee) play(ctx context.Context) error {
	names := [2]string{r.opts.WhiteName, r.opts.BlackName}
	start := r.game.Board()
	for c := rbc.White; c <= rbc.Black; c++ {
		s := r.seats[c]
		// Game start is not charged, but it may not outlast the clock either.
		deadline := r.clock.Now().Add(r.clocks[c])
		if ok, err := r.run(ctx, c, deadline, "HandleGameStart", func(ctx context.Context) error {
			return s.p.HandleGameStart(ctx, c, r.opts.Rules, start, r.game.PawnTries(), names[c.Other()])
		}); !ok {
			if r.over && r.result.Reason == Timeout {
				r.clocks[c] = 0
			}
			return err
		}
	}
	if r.game.Over() { // a starting position that is already mate or a draw
		r.finish(ResultOf(r.game))
	}
	for !r.over {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrAborted, err)
		}
		b := r.game.Board()
		if r.opts.TurnLimit > 0 && b.FullmoveNumber() > r.opts.TurnLimit {
			r.finish(Result{Reason: TurnLimit})
			return nil
		}
		if err := r.playTurn(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (r *referee) finish(res Result) {
	r.result = res
	r.over = true
}

// run calls a callback of colour c (see seat.call). It reports whether the
// game goes on; when it does not, the game is over (r.over) or aborted (the
// error).
func (r *referee) run(ctx context.Context, c rbc.Color, deadline time.Time, name string, fn func(context.Context) error) (bool, error) {
	err := r.seats[c].call(ctx, r.clock, deadline, name, fn)
	if err == nil {
		return true, nil
	}
	var stop *stopError
	if !errors.As(err, &stop) {
		return false, err
	}
	if r.over { // the rules ended the game first; the failure changes nothing
		r.log.Warn("kriegspiel: a callback failed after the game ended", "color", c.String(), "err", err)
		return false, nil
	}
	r.finish(Result{Reason: stop.reason, Winner: c.Other(), HasWinner: true, Detail: stop.detail})
	return false, nil
}

// playTurn plays one turn of the player to move: what it heard, then
// questions until one makes a move. It returns an error only when ctx is
// done; a turn that ends the game sets r.over.
func (r *referee) playTurn(ctx context.Context) error {
	c := r.game.Turn()
	s := r.seats[c]
	start := r.clock.Now()
	deadline := start.Add(r.clocks[c])
	r.rec.Turns = append(r.rec.Turns, Turn{Color: c, ClockLeft: -1})
	turn := &r.rec.Turns[len(r.rec.Turns)-1]
	defer func() {
		elapsed := r.clock.Now().Sub(start)
		r.used[c] += elapsed
		r.clocks[c] -= elapsed
		if !r.over || r.result.Reason != Timeout {
			r.clocks[c] += r.opts.Increment
		}
		turn.ClockLeft = max(r.clocks[c], 0)
	}()

	heard := r.heard[c]
	r.heard[c] = nil
	if ok, err := r.run(ctx, c, deadline, "HandleOpponentTurn", func(ctx context.Context) error {
		return s.p.HandleOpponentTurn(ctx, heard)
	}); !ok {
		return err
	}
	for n := 0; ; n++ {
		if n == r.opts.QuestionLimit {
			r.finish(Result{Reason: Resign, Winner: c.Other(), HasWinner: true,
				Detail: fmt.Sprintf("%s asked %d questions in one turn without making a move", c, n)})
			return nil
		}
		questions := r.game.Questions(nil)
		left := deadline.Sub(r.clock.Now())
		var q Question
		if ok, err := r.run(ctx, c, deadline, "ChooseQuestion", func(ctx context.Context) (err error) {
			q, err = s.p.ChooseQuestion(ctx, questions, left)
			return err
		}); !ok {
			return err
		}
		a, err := r.game.Ask(q)
		if err != nil {
			return fmt.Errorf("kriegspiel: referee asked after the end: %w", err) // cannot happen
		}
		public := r.opts.Rules.HeardByOpponent(a)
		turn.Tries = append(turn.Tries, Try{Question: q, Answer: a, Public: public})
		if public {
			h := Heard{Answer: a}
			h.Question.AskAny = q.AskAny
			r.heard[c.Other()] = append(r.heard[c.Other()], h)
		}
		if a.Verdict.Done() {
			turn.Move = q.Move
			b := r.game.Board()
			turn.FENAfter = b.FEN()
			if r.game.Over() {
				r.finish(ResultOf(r.game))
			}
		}
		if ok, err := r.run(ctx, c, deadline, "HandleAnswer", func(ctx context.Context) error {
			return s.p.HandleAnswer(ctx, q, a)
		}); !ok || a.Verdict.Done() {
			return err
		}
	}
}

// endGame calls HandleGameEnd on both players.
func (r *referee) endGame(ctx context.Context) {
	for c := rbc.White; c <= rbc.Black; c++ {
		s := r.seats[c]
		if !s.waitIdle(r.opts.GameEndTimeout) {
			r.log.Warn("kriegspiel: a callback overran its clock and has not returned; HandleGameEnd not called",
				"color", c.String(), "callback", s.pendingName)
			continue
		}
		rec := r.rec.clone()
		result := r.result
		deadline := r.clock.Now().Add(r.opts.GameEndTimeout)
		err := s.call(context.WithoutCancel(ctx), r.clock, deadline, "HandleGameEnd", func(ctx context.Context) error {
			return s.p.HandleGameEnd(ctx, result, rec)
		})
		if err != nil {
			r.log.Warn("kriegspiel: HandleGameEnd failed", "color", c.String(), "err", err)
		}
	}
}

// clone returns a deep copy of the record.
func (r *Record) clone() *Record {
	c := *r
	c.Turns = slices.Clone(r.Turns)
	for i := range c.Turns {
		c.Turns[i].Tries = slices.Clone(c.Turns[i].Tries)
	}
	return &c
}

// stopError is a callback failure that ends the game: the player resigns
// (an error or a panic) or loses on time.
type stopError struct {
	reason Reason
	detail string
}

func (e *stopError) Error() string { return e.detail }

// seat is one player at the board and the state of its callbacks.
type seat struct {
	p     Player
	color rbc.Color
	log   *slog.Logger
	// pending receives the result of a callback the referee stopped waiting
	// for (it overran its clock); nil when no callback is running.
	pending     chan error
	pendingName string
}

// call runs fn (a callback of the seat's player) in its own goroutine with a
// context done at deadline, and waits for it until then. It returns nil, a
// *stopError (the callback failed, panicked or overran its clock) or, when
// ctx is done, ErrAborted.
func (s *seat) call(ctx context.Context, clock rbc.Clock, deadline time.Time, name string, fn func(context.Context) error) error {
	cctx, cancel := clock.WithDeadline(ctx, deadline)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				s.log.Error("kriegspiel: player panicked", "color", s.color.String(), "callback", name,
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
				return fmt.Errorf("%w: %w", ErrAborted, ctx.Err())
			}
			return &stopError{Timeout, fmt.Sprintf("%s's %s was still running when its clock ran out", s.color, name)}
		}
	}
	if !clock.Now().Before(deadline) {
		return &stopError{Timeout, fmt.Sprintf("%s's %s returned after its clock ran out", s.color, name)}
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: %w", ErrAborted, ctx.Err())
		}
		return &stopError{Resign, fmt.Sprintf("%s's %s failed: %v", s.color, name, err)}
	}
	return nil
}

// waitIdle waits up to d for a callback that overran its clock to return.
func (s *seat) waitIdle(d time.Duration) bool {
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
