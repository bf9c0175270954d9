package match

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Both referees score a callback that fails (returns an error or panics) as
// the player's resignation, and so does the Kriegspiel referee a player that
// asks too many questions: the outcome alone cannot tell a bot that failed
// from one that lost. The match wraps each player to see its callbacks fail,
// so that only a failure voids the game (VoidIfFailed).

// failWatch notes that a player's callback failed before its game ended.
// The referee runs callbacks on goroutines of its own, hence the atomic.
type failWatch struct{ failed atomic.Bool }

// Watch is what a match sees of one player in a game: whether a callback
// failed (Note, in a deferred call of every callback but HandleGameEnd) and
// the degradation counts it reports at the end (Take, deferred in
// HandleGameEnd). A game's Referee wraps each of its players in one; the RBC
// referee's wrapper is watchedPlayer.
type Watch struct {
	failWatch
	endWatch
}

// Note records the failure of a callback: err, or a panic on its way up,
// re-raised for the referee, which recovers it and resigns the player.
func (w *Watch) Note(err *error) {
	if v := recover(); v != nil {
		w.failed.Store(true)
		panic(v)
	}
	if *err != nil {
		w.failed.Store(true)
	}
}

// Take records p's degradation counts, if it reports them.
func (w *Watch) Take(p any) { w.take(p) }

// Failed reports whether a callback failed.
func (w *Watch) Failed() bool { return w.failed.Load() }

// Degraded returns the counts taken, nil if none were.
func (w *Watch) Degraded() map[string]int { return w.degraded() }

// watchedPlayer is an RBC player whose failures and degradation counts a
// Watch sees.
type watchedPlayer struct {
	p rbc.Player
	Watch
}

func (w *watchedPlayer) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) (err error) {
	defer w.Note(&err)
	return w.p.HandleGameStart(ctx, color, board, opponentName)
}

func (w *watchedPlayer) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) (err error) {
	defer w.Note(&err)
	return w.p.HandleOpponentMoveResult(ctx, captured, sq)
}

func (w *watchedPlayer) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (_ chess.Square, err error) {
	defer w.Note(&err)
	return w.p.ChooseSense(ctx, senses, moves, left)
}

func (w *watchedPlayer) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) (err error) {
	defer w.Note(&err)
	return w.p.HandleSenseResult(ctx, result)
}

func (w *watchedPlayer) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (_ chess.Move, err error) {
	defer w.Note(&err)
	return w.p.ChooseMove(ctx, moves, left)
}

func (w *watchedPlayer) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, sq chess.Square) (err error) {
	defer w.Note(&err)
	return w.p.HandleMoveResult(ctx, requested, taken, captured, sq)
}

func (w *watchedPlayer) HandleGameEnd(ctx context.Context, o rbc.Outcome, h *rbc.History) error {
	defer w.take(w.p)
	return w.p.HandleGameEnd(ctx, o, h)
}
