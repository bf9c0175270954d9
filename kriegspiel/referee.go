package kriegspiel

// The referee of a local game: two Players under chess clocks, each turn a
// series of questions until one makes a move, every question and answer in
// the record. It shares rbc's clocks (chessclock.Table) and differs from it
// only in the rules: the whole turn is charged to the mover's clock, a
// callback that overruns its clock loses on time and is not waited for, and
// one that fails resigns.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
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
	Clock chessclock.Clock
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
		fen = chess.StartFEN
	}
	g, err := NewGameFromFEN(opts.Rules, fen)
	if err != nil {
		return nil, fmt.Errorf("kriegspiel: PlayGame: %w", err)
	}
	r := &referee{opts: opts, game: g, players: [2]Player{white, black},
		table: chessclock.New(chessclock.Config{Game: "kriegspiel", Initial: opts.InitialTime, Increment: opts.Increment,
			Clock: opts.Clock, Logger: opts.Logger, GameEndTimeout: opts.GameEndTimeout, Aborted: ErrAborted},
			func(l chessclock.Loss[chess.Color]) Result {
				return Result{Reason: chessclock.Reason(l, Timeout, Resign), Winner: l.Loser.Other(), HasWinner: true, Detail: l.Detail}
			})}
	if r.opts.QuestionLimit == 0 {
		r.opts.QuestionLimit = 1000
	}
	r.rec = &Record{Ruleset: opts.Rules, White: opts.WhiteName, Black: opts.BlackName,
		StartFEN: g.StartFEN(), PawnTries: g.PawnTries()}
	if err := r.play(ctx); err != nil {
		return nil, err
	}
	r.rec.Result = r.table.Result()
	b := r.game.Board()
	r.rec.FinalFEN = b.FEN()
	r.table.EndGame(ctx, "HandleGameEnd", func(c chess.Color) func(context.Context) error {
		rec, result := r.rec.clone(), r.rec.Result
		return func(ctx context.Context) error { return r.players[c].HandleGameEnd(ctx, result, rec) }
	})
	return &GameResult{Record: r.rec, Used: r.table.Used(), Left: r.table.Clocks()}, nil
}

// referee holds the state of one game; the table holds its clocks and runs
// the players' callbacks under them.
type referee struct {
	opts    Options
	table   *chessclock.Table[chess.Color, Result]
	players [2]Player
	game    *Game
	rec     *Record
	heard   [2][]Heard // what each player heard since its last turn
}

// play runs the game until it is over; it fails only when ctx is done.
func (r *referee) play(ctx context.Context) error {
	names := [2]string{r.opts.WhiteName, r.opts.BlackName}
	start := r.game.Board()
	for c := chess.White; c <= chess.Black; c++ {
		p := r.players[c]
		// Game start is not charged, but it may not outlast the clock either.
		if ok, err := r.table.Start(ctx, c, "HandleGameStart", func(ctx context.Context) error {
			return p.HandleGameStart(ctx, c, r.opts.Rules, start, r.game.PawnTries(), names[c.Other()])
		}); !ok {
			return err
		}
	}
	if r.game.Over() { // a starting position that is already mate or a draw
		r.table.End(ResultOf(r.game))
	}
	for !r.table.Over() {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrAborted, err)
		}
		b := r.game.Board()
		if r.opts.TurnLimit > 0 && b.FullmoveNumber() > r.opts.TurnLimit {
			r.table.End(Result{Reason: TurnLimit})
			return nil
		}
		if err := r.playTurn(ctx); err != nil {
			return err
		}
	}
	return nil
}

// playTurn plays one turn of the player to move: what it heard, then
// questions until one makes a move. It returns an error only when ctx is
// done; a turn that ends the game ends it on the table.
func (r *referee) playTurn(ctx context.Context) error {
	c := r.game.Turn()
	p := r.players[c]
	r.table.BeginTurn(c)
	r.rec.Turns = append(r.rec.Turns, Turn{Color: c, ClockLeft: -1})
	turn := &r.rec.Turns[len(r.rec.Turns)-1]
	defer func() {
		r.table.EndTurn()
		turn.ClockLeft = max(r.table.Left(c), 0)
	}()

	heard := r.heard[c]
	r.heard[c] = nil
	if ok, err := r.table.Call(ctx, "HandleOpponentTurn", func(ctx context.Context) error {
		return p.HandleOpponentTurn(ctx, heard)
	}); !ok {
		return err
	}
	for n := 0; ; n++ {
		if n == r.opts.QuestionLimit {
			r.table.End(Result{Reason: Resign, Winner: c.Other(), HasWinner: true,
				Detail: fmt.Sprintf("%s asked %d questions in one turn without making a move", c, n)})
			return nil
		}
		questions := r.game.Questions(nil)
		left := r.table.TurnLeft()
		var q Question
		if ok, err := r.table.Call(ctx, "ChooseQuestion", func(ctx context.Context) (err error) {
			q, err = p.ChooseQuestion(ctx, questions, left)
			return err
		}); !ok {
			return err
		}
		a, err := r.game.Ask(q)
		if err != nil {
			return fmt.Errorf("kriegspiel: referee asked after the end: %w", err) // cannot happen
		}
		try := Try{Question: q, Answer: a, Public: r.opts.Rules.HeardByOpponent(a)}
		turn.Tries = append(turn.Tries, try)
		if try.Public {
			r.heard[c.Other()] = append(r.heard[c.Other()], try.Overheard())
		}
		if a.Verdict.Done() {
			turn.Move = q.Move
			b := r.game.Board()
			turn.FENAfter = b.FEN()
			if r.game.Over() {
				r.table.End(ResultOf(r.game))
			}
		}
		if ok, err := r.table.Call(ctx, "HandleAnswer", func(ctx context.Context) error {
			return p.HandleAnswer(ctx, q, a)
		}); !ok || a.Verdict.Done() {
			return err
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
