package match

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Both referees score a callback that fails (returns an error or panics) as
// the player's resignation, and so does the Kriegspiel referee a player that
// asks too many questions: the outcome alone cannot tell a bot that failed
// from one that lost. The match wraps each player to see its callbacks fail,
// so that only a failure voids the game (voidIfFailed).

// failWatch notes that a player's callback failed before its game ended.
// The referee runs callbacks on goroutines of its own, hence the atomic.
type failWatch struct{ failed atomic.Bool }

// note records err, or a panic on its way up (re-raised for the referee,
// which recovers it and resigns the player). Deferred by every callback but
// HandleGameEnd, whose failure comes after the outcome.
func (w *failWatch) note(err *error) {
	if v := recover(); v != nil {
		w.failed.Store(true)
		panic(v)
	}
	if *err != nil {
		w.failed.Store(true)
	}
}

// watchedPlayer is an RBC player whose failures a failWatch sees, and whose
// degradation counts an endWatch takes at the end of its game.
type watchedPlayer struct {
	p rbc.Player
	failWatch
	endWatch
}

func (w *watchedPlayer) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) (err error) {
	defer w.note(&err)
	return w.p.HandleGameStart(ctx, color, board, opponentName)
}

func (w *watchedPlayer) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) (err error) {
	defer w.note(&err)
	return w.p.HandleOpponentMoveResult(ctx, captured, sq)
}

func (w *watchedPlayer) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (_ chess.Square, err error) {
	defer w.note(&err)
	return w.p.ChooseSense(ctx, senses, moves, left)
}

func (w *watchedPlayer) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) (err error) {
	defer w.note(&err)
	return w.p.HandleSenseResult(ctx, result)
}

func (w *watchedPlayer) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (_ chess.Move, err error) {
	defer w.note(&err)
	return w.p.ChooseMove(ctx, moves, left)
}

func (w *watchedPlayer) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, sq chess.Square) (err error) {
	defer w.note(&err)
	return w.p.HandleMoveResult(ctx, requested, taken, captured, sq)
}

func (w *watchedPlayer) HandleGameEnd(ctx context.Context, o rbc.Outcome, h *rbc.History) error {
	defer w.take(w.p)
	return w.p.HandleGameEnd(ctx, o, h)
}

// watchedKriegspiel is a Kriegspiel player whose failures a failWatch sees,
// and whose degradation counts an endWatch takes at the end of its game.
type watchedKriegspiel struct {
	p kriegspiel.Player
	failWatch
	endWatch
}

func (w *watchedKriegspiel) HandleGameStart(ctx context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, opponent string) (err error) {
	defer w.note(&err)
	return w.p.HandleGameStart(ctx, color, rules, start, pawnTries, opponent)
}

func (w *watchedKriegspiel) HandleOpponentTurn(ctx context.Context, heard []kriegspiel.Heard) (err error) {
	defer w.note(&err)
	return w.p.HandleOpponentTurn(ctx, heard)
}

func (w *watchedKriegspiel) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, left time.Duration) (_ kriegspiel.Question, err error) {
	defer w.note(&err)
	return w.p.ChooseQuestion(ctx, questions, left)
}

func (w *watchedKriegspiel) HandleAnswer(ctx context.Context, q kriegspiel.Question, a kriegspiel.Answer) (err error) {
	defer w.note(&err)
	return w.p.HandleAnswer(ctx, q, a)
}

func (w *watchedKriegspiel) HandleGameEnd(ctx context.Context, r kriegspiel.Result, rec *kriegspiel.Record) error {
	defer w.take(w.p)
	return w.p.HandleGameEnd(ctx, r, rec)
}
