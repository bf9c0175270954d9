package invisible

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// GameStart is what a player is told when its game starts.
type GameStart struct {
	Color    chess.Color
	Configs  [2]Config // White's and Black's invisible pieces
	Opponent string
}

// Player is one side of an invisible-chess game. Its callbacks come in the
// order of the game: HandleGameStart; then, each turn of its own, ChooseTry
// and HandleAnswer until a try is not illegal, and each turn of its
// opponent's, HandleOpponentTurn; HandleGameEnd last (not after an aborted
// game). An error from a callback loses the game (ReasonError).
type Player interface {
	HandleGameStart(ctx context.Context, s GameStart) error
	HandleOpponentTurn(ctx context.Context, s Seen) error
	// ChooseTry returns the next try of the player's turn, left being the
	// time on its clock; ctx ends when it runs out.
	ChooseTry(ctx context.Context, left time.Duration) (chess.Move, error)
	HandleAnswer(ctx context.Context, try chess.Move, a Answer) error
	HandleGameEnd(ctx context.Context, r Result) error
}

// The reasons a game ends, as Result.Reason names them; the first three are
// match's own names (match.ReasonTimeout, ...).
const (
	ReasonTimeout      = "TIMEOUT"
	ReasonIllegal      = "ILLEGAL_ACTION"
	ReasonError        = "ERROR"
	ReasonCheckmate    = "CHECKMATE"
	ReasonStalemate    = "STALEMATE"
	ReasonRepetition   = "REPETITION"
	ReasonFiftyMoves   = "FIFTY_MOVES"
	ReasonInsufficient = "INSUFFICIENT_MATERIAL"
	ReasonTurnLimit    = "TURN_LIMIT"
)

// Result is how a game ended.
type Result struct {
	Winner    chess.Color
	HasWinner bool
	Reason    string
	Detail    string
}

func (r Result) String() string {
	s := "draw"
	if r.HasWinner {
		s = r.Winner.String() + " wins"
	}
	if r.Reason != "" {
		s += " (" + r.Reason + ")"
	}
	return s
}

// Try is one try and its answer.
type Try struct {
	Move   chess.Move
	Answer Answer
}

// Turn is one turn of one side: its tries (the last one not illegal, unless
// the game ended inside the turn), what its opponent was told, and the clock
// time charged.
type Turn struct {
	Color chess.Color
	Tries []Try
	Seen  Seen
	Used  time.Duration
}

// Record is a whole game, enough to re-referee it (Replay).
type Record struct {
	White, Black string
	Configs      [2]Config
	Initial      time.Duration
	Increment    time.Duration
	TurnLimit    int
	Turns        []Turn
	Result       Result
}

// Options are a game's settings.
type Options struct {
	Configs              [2]Config
	InitialTime          time.Duration
	Increment            time.Duration
	TurnLimit            int // turns of both sides together; 0: DefaultTurnLimit
	WhiteName, BlackName string
	Logger               *slog.Logger

	// hook, set by tests, sees the referee's position before the game
	// starts.
	hook func(*Position)
}

// DefaultTurnLimit ends a game drawn after this many turns (both sides),
// when the options set none: forfeited turns do not move the pawns, so a
// game of two players that keep trying impossible moves would otherwise end
// only by the fifty-move rule, which it does first anyway (ruling R10).
const DefaultTurnLimit = 600

// maxTries bounds one turn's tries: every try is new (a repeated illegal try
// loses), and a side has fewer than 256 tries.
const maxTries = 256

// ErrAborted is returned (wrapped with the context's error) when the context
// ends during a game.
var ErrAborted = errors.New("invisible: game aborted")

// Played is a finished game: its record and each side's clock time used.
type Played struct {
	Record *Record
	Used   [2]time.Duration
}

// PlayGame referees a game between white and black.
func PlayGame(ctx context.Context, white, black Player, opts Options) (*Played, error) {
	players := [2]Player{safe{white}, safe{black}}
	names := [2]string{opts.WhiteName, opts.BlackName}
	limit := opts.TurnLimit
	if limit <= 0 {
		limit = DefaultTurnLimit
	}
	rec := &Record{White: opts.WhiteName, Black: opts.BlackName, Configs: opts.Configs,
		Initial: opts.InitialTime, Increment: opts.Increment, TurnLimit: opts.TurnLimit}
	pos := Start(opts.Configs)
	if opts.hook != nil {
		opts.hook(&pos)
	}
	left := [2]time.Duration{opts.InitialTime, opts.InitialTime}
	var used [2]time.Duration
	timed := opts.InitialTime > 0
	lose := func(c chess.Color, reason, detail string) Result {
		return Result{Winner: c.Other(), HasWinner: true, Reason: reason, Detail: detail}
	}
	finish := func(r Result) (*Played, error) {
		rec.Result = r
		for c := chess.White; c <= chess.Black; c++ {
			_ = players[c].HandleGameEnd(ctx, r)
		}
		return &Played{Record: rec, Used: used}, nil
	}
	for c := chess.White; c <= chess.Black; c++ {
		if err := players[c].HandleGameStart(ctx, GameStart{Color: c, Configs: opts.Configs, Opponent: names[c.Other()]}); err != nil {
			return finish(lose(c, ReasonError, fmt.Sprintf("game start: %v", err)))
		}
	}
	seen := map[uint64]int{pos.Board.Key(): 1}
	for {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrAborted, err)
		}
		if r, over := Ended(&pos, seen, len(rec.Turns), limit); over {
			return finish(r)
		}
		us := pos.Board.Turn()
		p := players[us]
		turn := Turn{Color: us, Seen: Seen{Moved: -1, Capture: chess.NoSquare}}
		start := time.Now()
		var r Result
		ended := false
		tried := map[chess.Move]bool{}
		view := pos.View(us)
		for {
			tctx, cancel := ctx, context.CancelFunc(func() {})
			if timed {
				tctx, cancel = context.WithTimeout(ctx, left[us]-time.Since(start))
			}
			m, err := p.ChooseTry(tctx, left[us]-time.Since(start))
			cancel()
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%w: %w", ErrAborted, ctx.Err())
			}
			if timed && time.Since(start) > left[us] {
				r, ended = lose(us, ReasonTimeout, ""), true
				break
			}
			if err != nil {
				r, ended = lose(us, ReasonError, fmt.Sprintf("choose try: %v", err)), true
				break
			}
			if !IsTry(&view, m) || tried[m] || len(turn.Tries) >= maxTries {
				r, ended = lose(us, ReasonIllegal, fmt.Sprintf("try %v is not a try of this turn", m)), true
				break
			}
			tried[m] = true
			a := Classify(&pos.Board, pos.Inv[us.Other()], m)
			turn.Tries = append(turn.Tries, Try{Move: m, Answer: a})
			if err := p.HandleAnswer(ctx, m, a); err != nil {
				r, ended = lose(us, ReasonError, fmt.Sprintf("answer: %v", err)), true
				break
			}
			if a.Outcome == Illegal {
				continue
			}
			if a.Outcome == Possible {
				turn.Seen = pos.Play(m)
			} else {
				turn.Seen = pos.Forfeit()
			}
			break
		}
		turn.Used = time.Since(start)
		used[us] += turn.Used
		if timed {
			left[us] += opts.Increment - turn.Used
		}
		rec.Turns = append(rec.Turns, turn)
		if ended {
			return finish(r)
		}
		seen[pos.Board.Key()]++
		if err := players[us.Other()].HandleOpponentTurn(ctx, turn.Seen); err != nil {
			return finish(lose(us.Other(), ReasonError, fmt.Sprintf("opponent turn: %v", err)))
		}
	}
}

// Ended reports whether the game at pos is over before the side to move's
// turn: checkmate, stalemate, threefold repetition of the true position
// (counted in seen), the fifty-move rule (a forfeited turn counts as a
// move: it moves no pawn and captures nothing), insufficient material, or
// the turn limit after turns turns (rulings R9, R10).
func Ended(pos *Position, seen map[uint64]int, turns, limit int) (Result, bool) {
	b := &pos.Board
	if !chess.HasLegalMove(b) {
		if chess.InCheck(b) {
			return Result{Winner: b.Turn().Other(), HasWinner: true, Reason: ReasonCheckmate}, true
		}
		return Result{Reason: ReasonStalemate}, true
	}
	switch {
	case seen[b.Key()] >= 3:
		return Result{Reason: ReasonRepetition}, true
	case b.HalfmoveClock() >= 100:
		return Result{Reason: ReasonFiftyMoves}, true
	case insufficient(b):
		return Result{Reason: ReasonInsufficient}, true
	case turns >= limit:
		return Result{Reason: ReasonTurnLimit}, true
	}
	return Result{}, false
}

// insufficient reports a board where neither side can mate: no pawn, rook or
// queen, and at most one minor piece a side.
func insufficient(b *chess.Board) bool {
	for c := chess.White; c <= chess.Black; c++ {
		if b.PiecesOf(c, chess.Pawn)|b.PiecesOf(c, chess.Rook)|b.PiecesOf(c, chess.Queen) != 0 {
			return false
		}
		if (b.PiecesOf(c, chess.Knight) | b.PiecesOf(c, chess.Bishop)).Count() > 1 {
			return false
		}
	}
	return true
}

// Replay re-referees the record from its tries: every answer, every
// announcement and the result must come out as recorded. A game that ended
// on time, by a failure or an illegal action ends where the record does, with
// the result as recorded.
func (r *Record) Replay() (*Position, error) {
	pos := Start(r.Configs)
	limit := r.TurnLimit
	if limit <= 0 {
		limit = DefaultTurnLimit
	}
	seen := map[uint64]int{pos.Board.Key(): 1}
	for i, t := range r.Turns {
		if res, over := Ended(&pos, seen, i, limit); over {
			return nil, fmt.Errorf("invisible: turn %d: the game was over (%v) but the record goes on", i, res)
		}
		if t.Color != pos.Board.Turn() {
			return nil, fmt.Errorf("invisible: turn %d: %v moves, the record says %v", i, pos.Board.Turn(), t.Color)
		}
		view := pos.View(t.Color)
		done := false
		for j, try := range t.Tries {
			if !IsTry(&view, try.Move) {
				if i == len(r.Turns)-1 && j == len(t.Tries)-1 && r.Result.Reason == ReasonIllegal {
					return &pos, nil
				}
				return nil, fmt.Errorf("invisible: turn %d try %d: %v is not a try", i, j, try.Move)
			}
			a := Classify(&pos.Board, pos.Inv[t.Color.Other()], try.Move)
			if a != try.Answer {
				return nil, fmt.Errorf("invisible: turn %d try %d (%v): the referee answers %+v, the record %+v", i, j, try.Move, a, try.Answer)
			}
			if a.Outcome == Illegal {
				continue
			}
			if j != len(t.Tries)-1 {
				return nil, fmt.Errorf("invisible: turn %d: tries after a %v one", i, a.Outcome)
			}
			var s Seen
			if a.Outcome == Possible {
				s = pos.Play(try.Move)
			} else {
				s = pos.Forfeit()
			}
			if s != t.Seen {
				return nil, fmt.Errorf("invisible: turn %d: the opponent is told %+v, the record says %+v", i, s, t.Seen)
			}
			done = true
		}
		if !done {
			if i == len(r.Turns)-1 && r.Result.HasWinner && r.Result.Winner != t.Color {
				return &pos, nil // lost inside the turn: time, failure, illegal action
			}
			return nil, fmt.Errorf("invisible: turn %d ends without a move", i)
		}
		seen[pos.Board.Key()]++
	}
	res, over := Ended(&pos, seen, len(r.Turns), limit)
	switch {
	case over && (res.Reason != r.Result.Reason || res.HasWinner != r.Result.HasWinner || res.Winner != r.Result.Winner):
		return nil, fmt.Errorf("invisible: the game ends %v, the record says %v", res, r.Result)
	case !over && r.Result.Reason != ReasonTimeout && r.Result.Reason != ReasonError && r.Result.Reason != ReasonIllegal:
		return nil, fmt.Errorf("invisible: the record ends %v where the game goes on", r.Result)
	}
	return &pos, nil
}

// safe turns a player's panic into its callback's error: the referee scores
// it as a failure (ReasonError) instead of losing the whole match.
type safe struct{ p Player }

func recovered(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("panic: %v", v)
	}
}

func (s safe) HandleGameStart(ctx context.Context, g GameStart) (err error) {
	defer recovered(&err)
	return s.p.HandleGameStart(ctx, g)
}

func (s safe) HandleOpponentTurn(ctx context.Context, seen Seen) (err error) {
	defer recovered(&err)
	return s.p.HandleOpponentTurn(ctx, seen)
}

func (s safe) ChooseTry(ctx context.Context, left time.Duration) (_ chess.Move, err error) {
	defer recovered(&err)
	return s.p.ChooseTry(ctx, left)
}

func (s safe) HandleAnswer(ctx context.Context, m chess.Move, a Answer) (err error) {
	defer recovered(&err)
	return s.p.HandleAnswer(ctx, m, a)
}

func (s safe) HandleGameEnd(ctx context.Context, r Result) (err error) {
	defer recovered(&err)
	return s.p.HandleGameEnd(ctx, r)
}
