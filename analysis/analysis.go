// Package analysis replays a recorded game to a bot on one side and asks it,
// turn by turn, where it would sense and what it would move, next to what
// was played. That is how to find out why a game was lost: the bot's own
// choices, and (through Capture) the values behind them, on the very
// positions of the game.
//
// The bot gets every observation its side got in the game. Its own sense is
// answered from the recorded true board (a fact of this game, so its belief
// stays consistent with the recorded moves that follow), and it is then
// told the recorded move's result, so the game stays the recorded one.
// `blindfish analyze` prints the decisions as a table; `blindfish view
// --bot` draws them on the board.
package analysis

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Decision is what the bot chose at one recorded turn of its side.
type Decision struct {
	Turn   int            // the side's own turn, from 1
	Record rbc.TurnRecord // what was played
	Sense  chess.Square   // the bot's sense (chess.NoSquare: a pass)
	Move   chess.Move     // the bot's move request (null: a pass; none when the record has no move)
	Took   time.Duration  // the time the bot took over its sense and move
}

// SenseAgrees reports whether the bot sensed where the game's player did.
func (d *Decision) SenseAgrees() bool { return d.Sense == d.Record.Sense }

// MoveAgrees reports whether the bot requested the move the game's player
// did (true when the turn had no move).
func (d *Decision) MoveAgrees() bool { return !d.Record.HasMove || d.Move == d.Record.Requested }

// Follow plays the recorded game h to p on colour's side. Before each turn
// it asks next whether to go on (a caller may stop early, or raise a log
// level for the turns it shows), and after each turn it reports the bot's
// choices. Every callback gets left as its clock and as its deadline, as a
// referee would give it.
func Follow(ctx context.Context, p rbc.Player, h *rbc.History, color chess.Color, left time.Duration,
	next func(turn int) bool, report func(Decision)) error {
	call := func(f func(context.Context) error) error {
		ctx, cancel := context.WithTimeout(ctx, left)
		defer cancel()
		return f(ctx)
	}
	start := chess.StartBoard()
	opponent := h.BlackName
	if color == chess.Black {
		opponent = h.WhiteName
	}
	if err := call(func(ctx context.Context) error {
		return p.HandleGameStart(ctx, color, start, opponent)
	}); err != nil {
		return fmt.Errorf("game start: %w", err)
	}
	theirs := h.Turns[color.Other()]
	for i, rec := range h.Turns[color] {
		turn := i + 1
		if !next(turn) {
			return nil
		}
		// The opponent's move before this turn (none before White's first).
		capture := chess.NoSquare
		if j := i - 1 + int(color); j >= 0 && j < len(theirs) {
			capture = theirs[j].Capture
		}
		if err := call(func(ctx context.Context) error {
			return p.HandleOpponentMoveResult(ctx, capture != chess.NoSquare, capture)
		}); err != nil {
			return fmt.Errorf("turn %d: opponent's move: %w", turn, err)
		}
		before, err := chess.ParseFEN(rec.FENBefore)
		if err != nil {
			return fmt.Errorf("turn %d: the record's board: %w", turn, err)
		}
		actions := before.MoveActions()
		d := Decision{Turn: turn, Record: rec}
		began := time.Now()
		if err := call(func(ctx context.Context) (err error) {
			d.Sense, err = p.ChooseSense(ctx, AllSquares(), slices.Clone(actions), left)
			return err
		}); err != nil {
			return fmt.Errorf("turn %d: sense: %w", turn, err)
		}
		var result []rbc.SquarePiece
		if d.Sense != chess.NoSquare {
			result = rbc.Sense(&before, d.Sense)
		}
		if err := call(func(ctx context.Context) error {
			return p.HandleSenseResult(ctx, result)
		}); err != nil {
			return fmt.Errorf("turn %d: sense result: %w", turn, err)
		}
		if rec.HasMove {
			if err := call(func(ctx context.Context) (err error) {
				d.Move, err = p.ChooseMove(ctx, slices.Clone(actions), left)
				return err
			}); err != nil {
				return fmt.Errorf("turn %d: move: %w", turn, err)
			}
		}
		d.Took = time.Since(began)
		report(d)
		if !rec.HasMove {
			return nil
		}
		if err := call(func(ctx context.Context) error {
			return p.HandleMoveResult(ctx, rec.Requested, rec.Taken, rec.Capture != chess.NoSquare, rec.Capture)
		}); err != nil {
			return fmt.Errorf("turn %d: move result: %w", turn, err)
		}
	}
	return nil
}

// AllSquares returns the 64 squares, the sense actions of every turn.
func AllSquares() []chess.Square {
	s := make([]chess.Square, 64)
	for i := range s {
		s[i] = chess.Square(i)
	}
	return s
}
