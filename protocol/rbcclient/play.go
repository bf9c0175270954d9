package rbcclient

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/guard"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// PlayOptions tune PlayGame.
type PlayOptions struct {
	// PollInterval is the longest pause between game_status calls while
	// the opponent plays (default 0.5 s, the reference client's pause). The
	// first polls of a wait come sooner (from 50 ms, doubling), so a fast
	// opponent's turn costs less than a full interval.
	PollInterval time.Duration
	// Margin is kept off our clock for the network: the player's contexts
	// end this much before the server's clock would (default 300 ms, at most
	// a tenth of the clock).
	Margin time.Duration
	// StartTimeout bounds HandleGameStart, before the clocks run (default 60 s).
	StartTimeout time.Duration
	// EndTimeout bounds HandleGameEnd (default 30 s).
	EndTimeout time.Duration
	// Logger receives the game's progress; nil discards it.
	Logger *slog.Logger
}

// Result is a game played to its end.
type Result struct {
	GameID   int
	Color    chess.Color
	Opponent string
	Outcome  rbc.Outcome
	Turns    int // our turns
	// HistoryJSON is the record as the server sent it, History the same
	// parsed (nil if the record could not be fetched or parsed).
	HistoryJSON json.RawMessage
	History     *rbc.History
}

// PlayGame plays game g with player, the way the reference client's
// play_remote_game does: start, ready, then for each of our turns the
// opponent's capture, the sense and the move, until the game is over; then
// the outcome and the record go to the player's HandleGameEnd.
//
// Every callback gets a context that ends with our clock (less a margin),
// and a callback that outlives it is abandoned. An error means the game
// could not be played on (the player failed, or the server failed beyond the
// retries): the caller should error-resign. A game that ends in the middle
// of our turn (our clock ran out) is not an error.
func PlayGame(ctx context.Context, g *Game, player rbc.Player, o PlayOptions) (*Result, error) {
	if o.PollInterval <= 0 {
		o.PollInterval = 500 * time.Millisecond
	}
	if o.Margin <= 0 {
		o.Margin = 300 * time.Millisecond
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = time.Minute
	}
	if o.EndTimeout <= 0 {
		o.EndTimeout = 30 * time.Second
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("game", g.ID)
	res := &Result{GameID: g.ID}

	var err error
	if res.Color, err = g.Color(ctx); err != nil {
		return res, err
	}
	board, err := g.StartingBoard(ctx)
	if err != nil {
		return res, err
	}
	if res.Opponent, err = g.OpponentName(ctx); err != nil {
		return res, err
	}
	log.Info("game start", "color", res.Color.String(), "opponent", res.Opponent)
	if err := callPlayer(ctx, time.Now().Add(o.StartTimeout), "HandleGameStart", func(ctx context.Context) error {
		return player.HandleGameStart(ctx, res.Color, board, res.Opponent)
	}); err != nil {
		return res, err
	}
	if err := g.Ready(ctx); err != nil {
		return res, err
	}
	for {
		over, err := waitTurn(ctx, g, o.PollInterval)
		if err != nil {
			return res, err
		}
		if over {
			break
		}
		err = playTurn(ctx, g, player, o, res)
		if errors.Is(err, ErrGameOver) {
			break
		}
		if err != nil {
			return res, err
		}
	}

	if res.Outcome, err = g.Outcome(ctx); err != nil {
		return res, err
	}
	hist := &rbc.History{Outcome: res.Outcome}
	raw, h, herr := g.History(ctx)
	res.HistoryJSON, res.History = raw, h
	if herr != nil {
		log.Warn("no game record", "err", herr)
	} else {
		hist = h
	}
	log.Info("game over", "outcome", res.Outcome.String(), "turns", res.Turns)
	if err := callPlayer(ctx, time.Now().Add(o.EndTimeout), "HandleGameEnd", func(ctx context.Context) error {
		return player.HandleGameEnd(ctx, res.Outcome, hist)
	}); err != nil {
		log.Warn("the player failed at the game's end", "err", err)
	}
	return res, nil
}

// waitTurn polls game_status until it is our turn or the game is over.
func waitTurn(ctx context.Context, g *Game, longest time.Duration) (over bool, err error) {
	every := min(50*time.Millisecond, longest)
	for {
		s, err := g.Status(ctx)
		if err != nil {
			return false, err
		}
		if s.IsOver {
			return true, nil
		}
		if s.IsMyTurn {
			return false, nil
		}
		t := time.NewTimer(every)
		select {
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		case <-t.C:
		}
		every = min(2*every, longest)
	}
}

// playTurn plays one of our turns.
func playTurn(ctx context.Context, g *Game, player rbc.Player, o PlayOptions, res *Result) error {
	left, err := g.SecondsLeft(ctx)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	start := time.Now()
	deadline := start.Add(left - min(o.Margin, left/10))
	senseActions, err := g.SenseActions(ctx)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	moveActions, err := g.MoveActions(ctx)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	capture, err := g.OpponentMoveResult(ctx)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	if err := callPlayer(ctx, deadline, "HandleOpponentMoveResult", func(ctx context.Context) error {
		return player.HandleOpponentMoveResult(ctx, capture.Valid(), capture)
	}); err != nil {
		return err
	}
	var sense chess.Square
	if err := callPlayer(ctx, deadline, "ChooseSense", func(ctx context.Context) (err error) {
		sense, err = player.ChooseSense(ctx, senseActions, moveActions, time.Until(deadline))
		return err
	}); err != nil {
		return err
	}
	result, err := g.Sense(ctx, sense)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	if err := callPlayer(ctx, deadline, "HandleSenseResult", func(ctx context.Context) error {
		return player.HandleSenseResult(ctx, result)
	}); err != nil {
		return err
	}
	var move chess.Move
	if err := callPlayer(ctx, deadline, "ChooseMove", func(ctx context.Context) (err error) {
		move, err = player.ChooseMove(ctx, moveActions, time.Until(deadline))
		return err
	}); err != nil {
		return err
	}
	mr, err := g.Move(ctx, move)
	if err != nil {
		return gameOverOr(ctx, g, err)
	}
	if err := g.EndTurn(ctx); err != nil {
		return gameOverOr(ctx, g, err)
	}
	res.Turns++
	// The turn has ended: the move result is handled on the opponent's time,
	// within our clock's budget for a turn.
	budget := max(time.Until(deadline), 5*time.Second)
	return callPlayer(ctx, time.Now().Add(budget), "HandleMoveResult", func(ctx context.Context) error {
		return player.HandleMoveResult(ctx, mr.Requested, mr.Taken, mr.Capture.Valid(), mr.Capture)
	})
}

// gameOverOr turns a refused game call into ErrGameOver when the game has
// ended meanwhile (a clock ran out); other errors pass through.
func gameOverOr(ctx context.Context, g *Game, err error) error {
	var se *StatusError
	if !errors.As(err, &se) || se.Code < 400 || se.Code >= 500 || se.Code == http.StatusUnauthorized {
		return err
	}
	s, serr := g.Status(ctx)
	if serr == nil && s.IsOver {
		return ErrGameOver
	}
	return err
}

// callPlayer runs a callback with a context that ends at deadline (see
// package guard).
func callPlayer(ctx context.Context, deadline time.Time, name string, fn func(context.Context) error) error {
	return guard.Call(ctx, "server", deadline, name, fn)
}
