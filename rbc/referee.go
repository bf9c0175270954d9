package rbc

// The referee: a local game between two Players under chess clocks, played
// turn for turn as the reference harness's play_local_game and LocalGame do,
// so that games we play locally mean what tournament games mean.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
)

// Options configure a local game. Start from DefaultOptions: the zero value
// has no time on the clocks.
type Options struct {
	// InitialTime is each player's clock at the start (harness: 900 s).
	InitialTime time.Duration
	// Increment is added to a player's clock after each of its turns (harness: 5 s).
	Increment time.Duration
	// MoveLimit draws the game when the half-move clock reaches it
	// (harness: 100); 0 means no limit.
	MoveLimit int
	// TurnLimit draws the game when the full-move number exceeds it; 0 (the
	// harness's default) means no limit.
	TurnLimit int
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

// DefaultOptions returns the harness's settings: 900 s + 5 s per turn, draw
// at 100 half-moves without capture or pawn move, no turn limit.
func DefaultOptions() Options {
	return Options{InitialTime: 900 * time.Second, Increment: 5 * time.Second, MoveLimit: 100}
}

// GameResult is what a local game leaves behind.
type GameResult struct {
	// History is the full record; History.Outcome is the result.
	History *History
	// Used is the clock time charged to each colour over the game.
	Used [2]time.Duration
	// TurnTimes is the clock time charged to each colour at each of its
	// turns, in order (their sum is Used): how a bot spends its clock over
	// a game, which reports plot.
	TurnTimes [2][]time.Duration
	// Left is each colour's clock at the end.
	Left [2]time.Duration
}

// ErrAborted is returned (wrapped with the context's error) when the context
// of PlayLocalGame is done before the game is over.
var ErrAborted = errors.New("rbc: game aborted")

// PlayLocalGame plays one game between white and black and returns its record.
//
// The turn order is the harness's: the opponent's capture notice, then the
// sense (ChooseSense, HandleSenseResult), then the move (ChooseMove, the move
// resolved on the true board, HandleMoveResult); the whole turn, notice and
// move result included, is charged to the mover's clock, then the increment
// is added. Between turns the game ends, in this precedence, by resignation,
// time, king capture, the turn limit (full-move number above it) or the move
// limit (half-move clock at it), with the winner as the harness names it.
//
// Every callback gets a context whose deadline is the player's clock. A
// callback still running at that deadline loses on TIMEOUT, and the referee
// does not wait for it: a bot that ignores its context cannot hang a game.
// (The harness's local games are laxer: they look at the clock only after
// the turn, increment added; a tournament bot must not rely on that.) A
// callback that returns an error or panics resigns (RESIGN, the error in
// Outcome.Detail). A sense outside the board, or a move request that is not a
// move action (after the queen default), loses by IllegalAction, where the
// harness would stop with an error.
//
// HandleGameEnd is called on both players with the outcome and a copy of the
// record, except on a player whose callback overran its clock and has not
// returned within GameEndTimeout (calling it then would race with the bot).
// The error is non-nil only for bad options, nil players or an aborted game
// (ctx done: ErrAborted; HandleGameEnd is not called).
func PlayLocalGame(ctx context.Context, white, black Player, opts Options) (*GameResult, error) {
	switch {
	case white == nil || black == nil:
		return nil, errors.New("rbc: PlayLocalGame: nil player")
	case opts.InitialTime <= 0:
		return nil, fmt.Errorf("rbc: PlayLocalGame: initial time %v is not positive", opts.InitialTime)
	case opts.Increment < 0:
		return nil, fmt.Errorf("rbc: PlayLocalGame: negative increment %v", opts.Increment)
	case opts.MoveLimit < 0 || opts.TurnLimit < 0:
		return nil, fmt.Errorf("rbc: PlayLocalGame: negative move limit %d or turn limit %d", opts.MoveLimit, opts.TurnLimit)
	}
	r := &referee{
		opts:        opts,
		board:       chess.StartBoard(),
		lastCapture: chess.NoSquare,
		hist:        &History{WhiteName: opts.WhiteName, BlackName: opts.BlackName},
		players:     [2]Player{white, black},
		table: chessclock.New(chessclock.Config{Game: "rbc", Initial: opts.InitialTime, Increment: opts.Increment,
			Clock: opts.Clock, Logger: opts.Logger, GameEndTimeout: opts.GameEndTimeout, Aborted: ErrAborted},
			func(l chessclock.Loss[chess.Color]) Outcome {
				return Outcome{Winner: l.Loser.Other(), HasWinner: true, Reason: chessclock.Reason(l, Timeout, Resign), Detail: l.Detail}
			}),
	}
	r.hist.Turns = [2][]TurnRecord{{}, {}}

	if err := r.play(ctx); err != nil {
		return nil, err
	}
	r.hist.Outcome = r.table.Result()
	r.table.EndGame(ctx, "HandleGameEnd", func(c chess.Color) func(context.Context) error {
		hist, outcome := r.hist.Clone(), r.hist.Outcome
		return func(ctx context.Context) error { return r.players[c].HandleGameEnd(ctx, outcome, hist) }
	})
	t := r.table
	return &GameResult{History: r.hist, Used: t.Used(), TurnTimes: t.TurnTimes(), Left: t.Clocks()}, nil
}

// referee holds the state of one game; the table holds its clocks and runs
// the players' callbacks under them.
type referee struct {
	opts        Options
	table       *chessclock.Table[chess.Color, Outcome]
	players     [2]Player
	board       chess.Board
	lastCapture chess.Square // the square of the piece the last move captured
	hist        *History
}

// play runs the game until it is over; it fails only when ctx is done.
func (r *referee) play(ctx context.Context) error {
	names := [2]string{r.opts.WhiteName, r.opts.BlackName}
	for c := chess.White; c <= chess.Black; c++ {
		p, board := r.players[c], r.board
		// Game start is not charged (the harness starts the clocks after
		// it), but it may not outlast the player's clock either.
		if ok, err := r.table.Start(ctx, c, "HandleGameStart", func(ctx context.Context) error {
			return p.HandleGameStart(ctx, c, board, names[c.Other()])
		}); !ok {
			return err
		}
	}
	for {
		if r.checkOver(); r.table.Over() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", ErrAborted, err)
		}
		if err := r.playTurn(ctx); err != nil {
			return err
		}
		if r.table.Over() {
			return nil
		}
	}
}

// checkOver applies the harness's end-of-game rules between turns.
func (r *referee) checkOver() {
	switch {
	case r.table.Left(chess.White) <= 0:
		r.table.End(Outcome{Winner: chess.Black, HasWinner: true, Reason: Timeout})
	case r.table.Left(chess.Black) <= 0:
		r.table.End(Outcome{Winner: chess.White, HasWinner: true, Reason: Timeout})
	case r.board.KingMissing(chess.White):
		r.table.End(Outcome{Winner: chess.Black, HasWinner: true, Reason: KingCapture})
	case r.board.KingMissing(chess.Black):
		r.table.End(Outcome{Winner: chess.White, HasWinner: true, Reason: KingCapture})
	case r.opts.TurnLimit > 0 && r.board.FullmoveNumber() > r.opts.TurnLimit:
		r.table.End(Outcome{Reason: TurnLimit})
	case r.opts.MoveLimit > 0 && r.board.HalfmoveClock() >= r.opts.MoveLimit:
		r.table.End(Outcome{Reason: MoveLimit})
	}
}

// playTurn plays one turn of the side to move. It returns an error only when
// ctx is done; a turn that ends the game early ends it on the table.
func (r *referee) playTurn(ctx context.Context) error {
	c := r.board.Turn()
	p := r.players[c]
	r.table.BeginTurn(c)
	defer r.table.EndTurn()
	moveActions := r.board.MoveActions()

	// 1. The opponent's capture, if any.
	captured := r.lastCapture
	if ok, err := r.table.Call(ctx, "HandleOpponentMoveResult", func(ctx context.Context) error {
		return p.HandleOpponentMoveResult(ctx, captured != chess.NoSquare, captured)
	}); !ok {
		return err
	}

	// 2. The sense.
	var sense chess.Square
	left := r.table.TurnLeft()
	senseActions, senseMoves := allSquares(), slices.Clone(moveActions)
	if ok, err := r.table.Call(ctx, "ChooseSense", func(ctx context.Context) (err error) {
		sense, err = p.ChooseSense(ctx, senseActions, senseMoves, left)
		return err
	}); !ok {
		return err
	}
	if sense != chess.NoSquare && !sense.Valid() {
		r.table.End(Outcome{Winner: c.Other(), HasWinner: true, Reason: IllegalAction,
			Detail: fmt.Sprintf("%s sensed square %d, which is not on the board", c, sense)})
		return nil
	}
	result := []SquarePiece{}
	if sense != chess.NoSquare {
		result = AppendSense(&r.board, make([]SquarePiece, 0, 9), sense)
	}
	r.hist.Turns[c] = append(r.hist.Turns[c], TurnRecord{Sense: sense, SenseResult: result, Capture: chess.NoSquare})
	rec := &r.hist.Turns[c][len(r.hist.Turns[c])-1]
	shown := slices.Clone(result)
	if ok, err := r.table.Call(ctx, "HandleSenseResult", func(ctx context.Context) error {
		return p.HandleSenseResult(ctx, shown)
	}); !ok {
		return err
	}

	// 3. The move.
	var req chess.Move
	left = r.table.TurnLeft()
	moveMoves := slices.Clone(moveActions)
	if ok, err := r.table.Call(ctx, "ChooseMove", func(ctx context.Context) (err error) {
		req, err = p.ChooseMove(ctx, moveMoves, left)
		return err
	}); !ok {
		return err
	}
	if !req.IsNull() && !r.board.IsMoveAction(WithQueenDefault(&r.board, req)) {
		r.table.End(Outcome{Winner: c.Other(), HasWinner: true, Reason: IllegalAction,
			Detail: fmt.Sprintf("%s requested %s, which is not one of its %d move actions", c, moveString(req), len(moveActions))})
		return nil
	}
	if req.IsNull() {
		req = chess.Move{} // a pass, however the player spelled it
	}
	rec.HasMove = true
	rec.Requested = req
	rec.FENBefore = r.board.FEN()
	rec.Taken, rec.Capture = Play(&r.board, req)
	rec.FENAfter = r.board.FEN()
	r.lastCapture = rec.Capture
	taken, capture := rec.Taken, rec.Capture
	_, err := r.table.Call(ctx, "HandleMoveResult", func(ctx context.Context) error {
		return p.HandleMoveResult(ctx, req, taken, capture != chess.NoSquare, capture)
	})
	return err
}

// moveString shows a request, even one with squares off the board.
func moveString(m chess.Move) string {
	if m.From.Valid() && m.To.Valid() && m.Promotion <= chess.King {
		return m.String()
	}
	return fmt.Sprintf("Move{From: %d, To: %d, Promotion: %d}", m.From, m.To, m.Promotion)
}

// allSquares returns the sense actions: every square.
func allSquares() []chess.Square {
	s := make([]chess.Square, 64)
	for i := range s {
		s[i] = chess.Square(i)
	}
	return s
}

// ErrScriptEnded is what a ScriptedPlayer returns when the referee asks it for
// a turn its record does not hold.
var ErrScriptEnded = errors.New("rbc: the record holds no more of this player's turns")

// ScriptedPlayer plays one colour of a recorded game: it senses and requests
// exactly what the record says, so the referee can re-play a record and show
// that it produces the same sense results, moves and result.
type ScriptedPlayer struct {
	turns []TurnRecord
	next  int
	ended atomic.Bool
}

// NewScriptedPlayer returns a player that replays turns (one colour's turns
// of a History).
func NewScriptedPlayer(turns []TurnRecord) *ScriptedPlayer { return &ScriptedPlayer{turns: turns} }

// Exhausted reports whether the referee asked for a turn beyond the record:
// the recorded game stopped there without the rules ending it.
func (p *ScriptedPlayer) Exhausted() bool { return p.ended.Load() }

// HandleGameStart does nothing: the script needs no set-up.
func (p *ScriptedPlayer) HandleGameStart(context.Context, chess.Color, chess.Board, string) error {
	return nil
}

// HandleOpponentMoveResult does nothing: the script does not look.
func (p *ScriptedPlayer) HandleOpponentMoveResult(context.Context, bool, chess.Square) error {
	return nil
}

// ChooseSense returns the recorded sense of the next turn.
func (p *ScriptedPlayer) ChooseSense(context.Context, []chess.Square, []chess.Move, time.Duration) (chess.Square, error) {
	if p.next >= len(p.turns) {
		p.ended.Store(true)
		return chess.NoSquare, ErrScriptEnded
	}
	return p.turns[p.next].Sense, nil
}

// HandleSenseResult does nothing: the referee compares results afterwards.
func (p *ScriptedPlayer) HandleSenseResult(context.Context, []SquarePiece) error { return nil }

// ChooseMove returns the recorded request of the turn.
func (p *ScriptedPlayer) ChooseMove(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
	t := p.turns[p.next]
	if !t.HasMove {
		p.ended.Store(true)
		return chess.Move{}, ErrScriptEnded
	}
	p.next++
	return t.Requested, nil
}

// HandleMoveResult does nothing: the referee compares results afterwards.
func (p *ScriptedPlayer) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}

// HandleGameEnd does nothing.
func (p *ScriptedPlayer) HandleGameEnd(context.Context, Outcome, *History) error { return nil }

// Replay is the verdict on a recorded game played again by the referee.
type Replay struct {
	// Replayed is the record the referee produced.
	Replayed *History
	// Divergence is the first difference from the record; nil when the game
	// reproduces.
	Divergence *Divergence
	// Unchecked explains, for a game that reproduces, a result the replay
	// cannot re-check (a loss on time, a resignation, an illegal request);
	// it is empty when the result was checked too.
	Unchecked string
}

// Divergence is the first place where a replay differs from its record.
type Divergence struct {
	Color chess.Color
	// Turn is the colour's turn index, from 0 (the harness's turn number);
	// -1 when only the result differs.
	Turn int
	// What names the value: "sense", "sense result", "requested move",
	// "FEN before move", "taken move", "capture square", "FEN after move",
	// "move", "turn" or "result".
	What               string
	Recorded, Replayed string
}

// String shows the divergence, numbering turns from 1 (White's turn n and
// Black's turn n have full-move number n).
func (d *Divergence) String() string {
	if d.Turn < 0 {
		return fmt.Sprintf("%s: recorded %s, replayed %s", d.What, d.Recorded, d.Replayed)
	}
	return fmt.Sprintf("turn %d (%s): %s: recorded %s, replayed %s", d.Turn+1, d.Color, d.What, d.Recorded, d.Replayed)
}

// ReplayHistory re-referees a recorded game: scripted players send the
// recorded senses and requests through PlayLocalGame (under a clock that
// never runs), and the new record is compared with the old one turn by turn,
// then the result. The move limit is the harness's 100 half-moves; a game
// drawn by TURN_LIMIT is replayed with the limit its last board shows.
// The error is non-nil only when ctx is done.
func ReplayHistory(ctx context.Context, rec *History) (*Replay, error) {
	opts := DefaultOptions()
	opts.WhiteName, opts.BlackName = rec.WhiteName, rec.BlackName
	opts.Clock = chessclock.NewManual(time.Unix(0, 0))
	if rec.Outcome.Reason == TurnLimit {
		if b, ok := lastBoard(rec); ok {
			opts.TurnLimit = max(b.FullmoveNumber()-1, 1)
		}
	}
	white, black := NewScriptedPlayer(rec.Turns[chess.White]), NewScriptedPlayer(rec.Turns[chess.Black])
	res, err := PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		return nil, err
	}
	out := &Replay{Replayed: res.History}
	if out.Divergence = CompareTurns(rec, res.History); out.Divergence != nil {
		return out, nil
	}
	scriptEnded := white.Exhausted() || black.Exhausted()
	got := res.History.Outcome
	replayed := got.String()
	if scriptEnded {
		replayed = "a game not over after the recorded turns"
	}
	switch rec.Outcome.Reason {
	case Timeout, Resign, IllegalAction:
		// These precede every rule, and the record holds neither the clocks
		// nor the illegal request: only the turns can be checked.
		out.Unchecked = fmt.Sprintf("the record ends by %s, which a replay cannot re-check; all its turns match", rec.Outcome.Reason)
	case NoReason:
		if !scriptEnded {
			out.Divergence = &Divergence{Turn: -1, What: "result", Recorded: "none (game not over)", Replayed: replayed}
		} else {
			out.Unchecked = "the record has no result"
		}
	default:
		if scriptEnded || got.HasWinner != rec.Outcome.HasWinner || got.Reason != rec.Outcome.Reason ||
			(got.HasWinner && got.Winner != rec.Outcome.Winner) {
			out.Divergence = &Divergence{Turn: -1, What: "result", Recorded: rec.Outcome.String(), Replayed: replayed}
		}
	}
	return out, nil
}

// lastBoard returns the board after the record's last move.
func lastBoard(h *History) (chess.Board, bool) {
	fen := ""
	for i := range h.Turns[chess.White] { // White has at least as many turns as Black
		for c := chess.White; c <= chess.Black; c++ {
			if i < len(h.Turns[c]) && h.Turns[c][i].HasMove {
				fen = h.Turns[c][i].FENAfter
			}
		}
	}
	b, err := chess.ParseFEN(fen)
	return b, err == nil
}

// CompareTurns returns the first difference between the turns of two records
// of a game, in the order they were played, or nil when every turn matches.
// It does not compare the results.
func CompareTurns(rec, got *History) *Divergence {
	n := max(len(rec.Turns[chess.White]), len(rec.Turns[chess.Black]), len(got.Turns[chess.White]), len(got.Turns[chess.Black]))
	for i := 0; i < n; i++ {
		for c := chess.White; c <= chess.Black; c++ {
			var a, b *TurnRecord
			if i < len(rec.Turns[c]) {
				a = &rec.Turns[c][i]
			}
			if i < len(got.Turns[c]) {
				b = &got.Turns[c][i]
			}
			if d := compareTurn(c, i, a, b, got.Outcome); d != nil {
				return d
			}
		}
	}
	return nil
}

func compareTurn(c chess.Color, i int, a, b *TurnRecord, gotOutcome Outcome) *Divergence {
	div := func(what, rec, got string) *Divergence {
		return &Divergence{Color: c, Turn: i, What: what, Recorded: rec, Replayed: got}
	}
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil:
		return div("turn", "none", describeTurn(b))
	case b == nil:
		return div("turn", describeTurn(a), "none (the game was over: "+gotOutcome.String()+")")
	case a.Sense != b.Sense:
		return div("sense", senseString(a.Sense), senseString(b.Sense))
	case !slices.Equal(a.SenseResult, b.SenseResult):
		return div("sense result", senseResultString(a.SenseResult), senseResultString(b.SenseResult))
	case a.HasMove != b.HasMove:
		if a.HasMove {
			return div("move", a.Requested.String(), "none ("+gotOutcome.String()+")")
		}
		return div("move", "none", b.Requested.String())
	case !a.HasMove:
		return nil
	case a.Requested != b.Requested:
		return div("requested move", a.Requested.String(), b.Requested.String())
	case a.FENBefore != b.FENBefore:
		return div("FEN before move", a.FENBefore, b.FENBefore)
	case a.Taken != b.Taken:
		return div("taken move", a.Taken.String(), b.Taken.String())
	case a.Capture != b.Capture:
		return div("capture square", a.Capture.String(), b.Capture.String())
	case a.FENAfter != b.FENAfter:
		return div("FEN after move", a.FENAfter, b.FENAfter)
	}
	return nil
}

func senseString(s chess.Square) string {
	if s == chess.NoSquare {
		return "pass"
	}
	return s.String()
}

// senseResultString shows a sense result as "a8=r b8=n a7=- …".
func senseResultString(r []SquarePiece) string {
	if len(r) == 0 {
		return "[]"
	}
	b := []byte{'['}
	for i, sp := range r {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, sp.Square.String()...)
		b = append(b, '=')
		if sp.Piece == chess.NoPiece {
			b = append(b, '-')
		} else {
			b = append(b, sp.Piece.Symbol())
		}
	}
	return string(append(b, ']'))
}

func describeTurn(t *TurnRecord) string {
	if !t.HasMove {
		return "sense " + senseString(t.Sense) + ", no move"
	}
	return "sense " + senseString(t.Sense) + ", move " + t.Requested.String()
}
