package rbc_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"

	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// fakePlayer is a Player built from functions; a nil function passes (no
// sense, null move) or does nothing. Every call is logged as "color:callback".
type fakePlayer struct {
	color      string
	log        *callLog
	start      func(ctx context.Context, c chess.Color, b chess.Board, opponent string) error
	opp        func(ctx context.Context, captured bool, sq chess.Square) error
	sense      func(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Square, error)
	result     func(ctx context.Context, r []rbc.SquarePiece) error
	move       func(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error)
	moveResult func(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error
	end        func(ctx context.Context, o rbc.Outcome, h *rbc.History) error
}

type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.calls = append(l.calls, s)
	l.mu.Unlock()
}

func (p *fakePlayer) HandleGameStart(ctx context.Context, c chess.Color, b chess.Board, opponent string) error {
	p.log.add(p.color + ":start")
	if p.start != nil {
		return p.start(ctx, c, b, opponent)
	}
	return nil
}

func (p *fakePlayer) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) error {
	p.log.add(p.color + ":opp")
	if p.opp != nil {
		return p.opp(ctx, captured, sq)
	}
	return nil
}

func (p *fakePlayer) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (chess.Square, error) {
	p.log.add(p.color + ":sense")
	if p.sense != nil {
		return p.sense(ctx, moves, left)
	}
	return chess.NoSquare, nil
}

func (p *fakePlayer) HandleSenseResult(ctx context.Context, r []rbc.SquarePiece) error {
	p.log.add(p.color + ":result")
	if p.result != nil {
		return p.result(ctx, r)
	}
	return nil
}

func (p *fakePlayer) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	p.log.add(p.color + ":move")
	if p.move != nil {
		return p.move(ctx, moves, left)
	}
	return chess.Move{}, nil
}

func (p *fakePlayer) HandleMoveResult(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	p.log.add(p.color + ":moveResult")
	if p.moveResult != nil {
		return p.moveResult(ctx, req, taken, captured, sq)
	}
	return nil
}

func (p *fakePlayer) HandleGameEnd(ctx context.Context, o rbc.Outcome, h *rbc.History) error {
	p.log.add(p.color + ":end")
	if p.end != nil {
		return p.end(ctx, o, h)
	}
	return nil
}

// script returns a ScriptedPlayer that senses nothing and requests moves
// (UCI, "0000" for a pass).
func script(t *testing.T, moves ...string) *rbc.ScriptedPlayer {
	t.Helper()
	turns := make([]rbc.TurnRecord, len(moves))
	for i, s := range moves {
		m, err := chess.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		turns[i] = rbc.TurnRecord{Sense: chess.NoSquare, HasMove: true, Requested: m}
	}
	return rbc.NewScriptedPlayer(turns)
}

func passes(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = "0000"
	}
	return s
}

// testOptions are the harness's defaults under a manual clock (no real time).
func testOptions() rbc.Options {
	o := rbc.DefaultOptions()
	o.WhiteName, o.BlackName = "W", "B"
	o.Clock = chessclock.NewManual(time.Unix(1000, 0))
	o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	return o
}

func play(t *testing.T, white, black rbc.Player, opts rbc.Options) *rbc.GameResult {
	t.Helper()
	res, err := rbc.PlayLocalGame(context.Background(), white, black, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func wantOutcome(t *testing.T, got rbc.Outcome, want rbc.Outcome) {
	t.Helper()
	got.Detail, want.Detail = "", ""
	if got != want {
		t.Errorf("outcome %v, want %v", got, want)
	}
}

// TestRefereeKingCaptureWins: capturing the king ends the game at once.
func TestRefereeKingCaptureWins(t *testing.T) {
	res := play(t, script(t, "e2e4", "d1h5", "h5f7", "f7e8"), script(t, passes(10)...), testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.KingCapture})
	if len(h.Turns[chess.White]) != 4 || len(h.Turns[chess.Black]) != 3 {
		t.Errorf("turns %d/%d, want 4/3", len(h.Turns[chess.White]), len(h.Turns[chess.Black]))
	}
	last := h.Turns[chess.White][3]
	if last.Taken.String() != "f7e8" || last.Capture != chess.E8 || last.FENAfter != "rnbqQbnr/ppppp1pp/8/8/4P3/8/PPPP1PPP/RNB1KBNR b KQ - 0 4" {
		t.Errorf("last turn %+v", last)
	}
}

// TestRefereeKingCaptureBeforeTurnLimit: king capture precedes the turn limit.
func TestRefereeKingCaptureBeforeTurnLimit(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 4
	res := play(t, script(t, passes(10)...), script(t, "e7e5", "d8h4", "h4f2", "f2e1"), opts)
	wantOutcome(t, res.History.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.KingCapture})
}

// TestRefereeMoveLimitDrawsAt100HalfMoves: passes count toward the
// half-move clock; at 100 the game is drawn with MOVE_LIMIT.
func TestRefereeMoveLimitDrawsAt100HalfMoves(t *testing.T) {
	res := play(t, &fakePlayer{}, &fakePlayer{}, testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Reason: rbc.MoveLimit})
	if len(h.Turns[chess.White]) != 50 || len(h.Turns[chess.Black]) != 50 {
		t.Errorf("turns %d/%d, want 50/50", len(h.Turns[chess.White]), len(h.Turns[chess.Black]))
	}
	if got := h.Turns[chess.Black][49].FENAfter; got != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 100 51" {
		t.Errorf("last FEN %s", got)
	}
}

// TestRefereeMoveLimitCountsFromLastPawnMove: a pawn move resets the clock.
func TestRefereeMoveLimitCountsFromLastPawnMove(t *testing.T) {
	opts := testOptions()
	opts.MoveLimit = 10
	res := play(t, script(t, append([]string{"0000", "e2e4"}, passes(20)...)...), &fakePlayer{}, opts)
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Reason: rbc.MoveLimit})
	// Half-moves 1-2 (a pass each), then e2e4 at half-move 3 resets, then 10 more.
	if n := len(h.Turns[chess.White]) + len(h.Turns[chess.Black]); n != 13 {
		t.Errorf("%d turns, want 13", n)
	}
}

// TestRefereeTurnLimitDrawsWhenFullmoveExceedsLimit: the turn limit counts
// full moves; it is checked before the move limit.
func TestRefereeTurnLimitDrawsWhenFullmoveExceedsLimit(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 3
	opts.MoveLimit = 6 // reached at the same moment: the turn limit wins
	res := play(t, &fakePlayer{}, &fakePlayer{}, opts)
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Reason: rbc.TurnLimit})
	if len(h.Turns[chess.White]) != 3 || len(h.Turns[chess.Black]) != 3 {
		t.Errorf("turns %d/%d, want 3/3", len(h.Turns[chess.White]), len(h.Turns[chess.Black]))
	}
}

// TestRefereeTimeoutWhenClockRunsOut: a player whose callback takes longer
// than its clock loses on time; the turn is recorded up to its sense.
func TestRefereeTimeoutWhenClockRunsOut(t *testing.T) {
	opts := testOptions()
	clk := opts.Clock.(*chessclock.Manual)
	white := &fakePlayer{move: func(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
		clk.Advance(left + time.Second)
		return moves[0], nil
	}}
	res := play(t, white, &fakePlayer{}, opts)
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Timeout})
	if !strings.Contains(h.Outcome.Detail, "white's ChooseMove") {
		t.Errorf("detail %q", h.Outcome.Detail)
	}
	if len(h.Turns[chess.White]) != 1 || h.Turns[chess.White][0].HasMove || len(h.Turns[chess.Black]) != 0 {
		t.Errorf("turns %+v", h.Turns)
	}
	if res.Left[chess.White] > 0 || res.Used[chess.White] != 901*time.Second || res.Left[chess.Black] != 900*time.Second {
		t.Errorf("clocks left %v used %v", res.Left, res.Used)
	}
}

// TestRefereeTimeoutBeforeKingCapture: time precedes king capture, so a
// king captured by a move whose result handling overran the clock is a
// loss on time.
func TestRefereeTimeoutBeforeKingCapture(t *testing.T) {
	opts := testOptions()
	clk := opts.Clock.(*chessclock.Manual)
	white := script(t, "e2e4", "d1h5", "h5f7", "f7e8")
	slow := &slowResult{ScriptedPlayer: white, clk: clk, turn: 4}
	res := play(t, slow, script(t, passes(10)...), opts)
	wantOutcome(t, res.History.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Timeout})
	if got := res.History.Turns[chess.White][3]; !got.HasMove || got.Capture != chess.E8 {
		t.Errorf("the capturing move is not recorded: %+v", got)
	}
}

// slowResult overruns its clock in HandleMoveResult of a given turn.
type slowResult struct {
	*rbc.ScriptedPlayer
	clk   *chessclock.Manual
	turn  int
	moves int
}

func (p *slowResult) HandleMoveResult(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	p.moves++
	if p.moves == p.turn {
		p.clk.Advance(time.Hour)
	}
	return nil
}

// TestRefereeChargesWholeTurnAndAddsIncrement: notice, sense, move and move
// result are all charged to the mover; the increment follows each turn;
// seconds left are what remains at the time of asking.
func TestRefereeChargesWholeTurnAndAddsIncrement(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 2
	clk := opts.Clock.(*chessclock.Manual)
	spend := func() { clk.Advance(time.Second) }
	var lefts []time.Duration
	white := &fakePlayer{
		opp: func(context.Context, bool, chess.Square) error { spend(); return nil },
		sense: func(_ context.Context, _ []chess.Move, left time.Duration) (chess.Square, error) {
			lefts = append(lefts, left)
			spend()
			return chess.E4, nil
		},
		move: func(_ context.Context, _ []chess.Move, left time.Duration) (chess.Move, error) {
			lefts = append(lefts, left)
			spend()
			return chess.Move{}, nil
		},
		moveResult: func(context.Context, chess.Move, chess.Move, bool, chess.Square) error { spend(); return nil },
	}
	res := play(t, white, &fakePlayer{}, opts)
	// Two turns of 4 s each, plus 5 s after each.
	if res.Left[chess.White] != 902*time.Second || res.Used[chess.White] != 8*time.Second || res.Left[chess.Black] != 910*time.Second {
		t.Errorf("left %v used %v", res.Left, res.Used)
	}
	want := []time.Duration{899 * time.Second, 898 * time.Second, 900 * time.Second, 899 * time.Second}
	if !slices.Equal(lefts, want) {
		t.Errorf("seconds left %v, want %v", lefts, want)
	}
	if want := []time.Duration{4 * time.Second, 4 * time.Second}; !slices.Equal(res.TurnTimes[chess.White], want) {
		t.Errorf("white's turn times %v, want %v", res.TurnTimes[chess.White], want)
	}
	if n := len(res.TurnTimes[chess.Black]); n != 2 {
		t.Errorf("black's turn times %v, want two turns", res.TurnTimes[chess.Black])
	}
}

// TestRefereeHungBotLosesOnTime: a bot that ignores its context and never
// returns loses on time when its (short) clock runs out, and the referee
// returns promptly without calling it again.
func TestRefereeHungBotLosesOnTime(t *testing.T) {
	opts := rbc.DefaultOptions()
	opts.InitialTime = 100 * time.Millisecond
	opts.GameEndTimeout = 50 * time.Millisecond
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	release := make(chan struct{})
	defer close(release)
	log := &callLog{}
	black := &fakePlayer{color: "b", log: log, sense: func(context.Context, []chess.Move, time.Duration) (chess.Square, error) {
		<-release // ignores ctx
		return chess.NoSquare, nil
	}}
	start, probe := time.Now(), stall.Start()
	res := play(t, &fakePlayer{color: "w", log: log}, black, opts)
	if d, stalled := time.Since(start), probe.Stop(); d > 2*time.Second+stall.Allowance(stalled) {
		t.Errorf("referee took %v (%v of it waiting for a CPU)", d, stalled)
	}
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.Timeout})
	if !strings.Contains(h.Outcome.Detail, "black's ChooseSense was still running") {
		t.Errorf("detail %q", h.Outcome.Detail)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if slices.Contains(log.calls, "b:end") || !slices.Contains(log.calls, "w:end") {
		t.Errorf("calls %v: want HandleGameEnd on white only", log.calls)
	}
}

// TestRefereeContextDeadlineIsTheClock: a bot that waits on its context
// learns the deadline, and HandleGameEnd is called once it has returned.
func TestRefereeContextDeadlineIsTheClock(t *testing.T) {
	opts := testOptions()
	clk := opts.Clock.(*chessclock.Manual)
	var deadline time.Time
	var ended bool
	white := &fakePlayer{
		move: func(ctx context.Context, _ []chess.Move, left time.Duration) (chess.Move, error) {
			deadline, _ = ctx.Deadline()
			clk.Advance(left)
			<-ctx.Done()
			if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
				t.Errorf("ctx.Err() = %v", ctx.Err())
			}
			return chess.Move{}, ctx.Err()
		},
		end: func(context.Context, rbc.Outcome, *rbc.History) error { ended = true; return nil },
	}
	res := play(t, white, &fakePlayer{}, opts)
	wantOutcome(t, res.History.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Timeout})
	if want := time.Unix(1000, 0).Add(900 * time.Second); !deadline.Equal(want) {
		t.Errorf("deadline %v, want %v", deadline, want)
	}
	if !ended {
		t.Errorf("HandleGameEnd not called on a bot that returned after its deadline")
	}
}

// TestRefereeCallbackErrorResigns: an error from any callback is a resignation.
func TestRefereeCallbackErrorResigns(t *testing.T) {
	boom := errors.New("engine died")
	res := play(t, &fakePlayer{}, &fakePlayer{move: func(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
		return chess.Move{}, boom
	}}, testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.Resign})
	if h.Outcome.Detail != "black's ChooseMove failed: engine died" {
		t.Errorf("detail %q", h.Outcome.Detail)
	}
	if len(h.Turns[chess.Black]) != 1 || h.Turns[chess.Black][0].HasMove {
		t.Errorf("black's turn %+v", h.Turns[chess.Black])
	}
}

// TestRefereeGameStartErrorResigns: failing before the first turn resigns too.
func TestRefereeGameStartErrorResigns(t *testing.T) {
	res := play(t, &fakePlayer{start: func(context.Context, chess.Color, chess.Board, string) error { return errors.New("no engine") }},
		&fakePlayer{}, testOptions())
	wantOutcome(t, res.History.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Resign})
	if len(res.History.Turns[chess.White]) != 0 {
		t.Errorf("turns played after a failed start")
	}
}

// TestRefereePanicResigns: a panic inside a callback is recovered and treated
// as an error.
func TestRefereePanicResigns(t *testing.T) {
	res := play(t, &fakePlayer{result: func(context.Context, []rbc.SquarePiece) error { panic("index out of range") }},
		&fakePlayer{}, testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Resign})
	if h.Outcome.Detail != "white's HandleSenseResult failed: panic: index out of range" {
		t.Errorf("detail %q", h.Outcome.Detail)
	}
}

// TestRefereeIllegalMoveLoses: a request outside the move actions loses by
// IllegalAction (the harness stops with an error there).
func TestRefereeIllegalMoveLoses(t *testing.T) {
	res := play(t, script(t, "e2e5"), &fakePlayer{}, testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.IllegalAction})
	if h.Outcome.Detail != "white requested e2e5, which is not one of its 34 move actions" {
		t.Errorf("detail %q", h.Outcome.Detail)
	}
	if len(h.Turns[chess.White]) != 1 || h.Turns[chess.White][0].HasMove {
		t.Errorf("the illegal request was recorded: %+v", h.Turns[chess.White])
	}
	// Squares off the board are illegal too, and do not crash anything.
	res = play(t, &fakePlayer{move: func(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
		return chess.Move{From: 70, To: -3}, nil
	}}, &fakePlayer{}, testOptions())
	wantOutcome(t, res.History.Outcome, rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.IllegalAction})
}

// TestRefereeIllegalSenseLoses: a sense off the board loses; NoSquare is a pass.
func TestRefereeIllegalSenseLoses(t *testing.T) {
	res := play(t, &fakePlayer{}, &fakePlayer{sense: func(context.Context, []chess.Move, time.Duration) (chess.Square, error) {
		return 64, nil
	}}, testOptions())
	h := res.History
	wantOutcome(t, h.Outcome, rbc.Outcome{Winner: chess.White, HasWinner: true, Reason: rbc.IllegalAction})
	if h.Outcome.Detail != "black sensed square 64, which is not on the board" || len(h.Turns[chess.Black]) != 0 {
		t.Errorf("detail %q, black turns %d", h.Outcome.Detail, len(h.Turns[chess.Black]))
	}
	if w := h.Turns[chess.White][0]; w.Sense != chess.NoSquare || w.SenseResult == nil || len(w.SenseResult) != 0 {
		t.Errorf("a passed sense: %+v", w)
	}
}

// TestRefereeSenseResultAndCaptureNotices: the sense result is the window in
// the harness's order, the victim of a capture hears of its square, the bare
// promotion is queened but recorded as requested.
func TestRefereeSenseResultAndCaptureNotices(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 5
	var notices []string
	var results [][]rbc.SquarePiece
	var moveResults []string
	white := &fakePlayer{
		opp: func(_ context.Context, captured bool, sq chess.Square) error {
			notices = append(notices, fmt.Sprintf("w %v %v", captured, sq))
			return nil
		},
		move: func() func(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
			moves := []string{"a2a4", "a4a5", "a5a6", "a6b7", "b7a8"}
			return func(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
				m, _ := chess.ParseMove(moves[0])
				moves = moves[1:]
				return m, nil
			}
		}(),
		moveResult: func(_ context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
			moveResults = append(moveResults, fmt.Sprintf("%v %v %v %v", req, taken, captured, sq))
			return nil
		},
	}
	black := &fakePlayer{
		opp: func(_ context.Context, captured bool, sq chess.Square) error {
			notices = append(notices, fmt.Sprintf("b %v %v", captured, sq))
			return nil
		},
		sense:  func(context.Context, []chess.Move, time.Duration) (chess.Square, error) { return chess.A8, nil },
		result: func(_ context.Context, r []rbc.SquarePiece) error { results = append(results, r); return nil },
	}
	res := play(t, white, black, opts)
	wantNotices := []string{"w false -", "b false -", "w false -", "b false -", "w false -", "b false -", "w false -", "b true b7", "w false -", "b true a8"}
	if !slices.Equal(notices, wantNotices) {
		t.Errorf("notices %v, want %v", notices, wantNotices)
	}
	wantWindow := []rbc.SquarePiece{{chess.A8, chess.MakePiece(chess.Black, chess.Rook)}, {chess.B8, chess.MakePiece(chess.Black, chess.Knight)}, {chess.A7, chess.MakePiece(chess.Black, chess.Pawn)}, {chess.B7, chess.MakePiece(chess.Black, chess.Pawn)}}
	if !slices.Equal(results[0], wantWindow) {
		t.Errorf("sense result %v, want %v", results[0], wantWindow)
	}
	if got := moveResults[4]; got != "b7a8 b7a8q true a8" {
		t.Errorf("promotion result %q", got)
	}
	if rec := res.History.Turns[chess.White][4]; rec.Requested.String() != "b7a8" || rec.Taken.String() != "b7a8q" {
		t.Errorf("record %+v", rec)
	}
}

// TestRefereeCallbackOrder: the callbacks come in the harness's order.
func TestRefereeCallbackOrder(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 1
	log := &callLog{}
	var endOutcome rbc.Outcome
	var endHistory *rbc.History
	black := &fakePlayer{color: "b", log: log, end: func(_ context.Context, o rbc.Outcome, h *rbc.History) error {
		endOutcome, endHistory = o, h
		return nil
	}}
	res := play(t, &fakePlayer{color: "w", log: log}, black, opts)
	want := []string{"w:start", "b:start",
		"w:opp", "w:sense", "w:result", "w:move", "w:moveResult",
		"b:opp", "b:sense", "b:result", "b:move", "b:moveResult",
		"w:end", "b:end"}
	if !slices.Equal(log.calls, want) {
		t.Errorf("calls %v\nwant %v", log.calls, want)
	}
	if endOutcome != res.History.Outcome || endHistory == res.History || len(endHistory.Turns[chess.Black]) != 1 {
		t.Errorf("HandleGameEnd got %v %p (referee's %p)", endOutcome, endHistory, res.History)
	}
}

// TestRefereeAbortsOnContextCancel: a cancelled context stops the game with
// ErrAborted and no result.
func TestRefereeAbortsOnContextCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	turns := 0
	white := &fakePlayer{move: func(ctx context.Context, _ []chess.Move, _ time.Duration) (chess.Move, error) {
		if turns++; turns == 3 {
			cancel()
		}
		return chess.Move{}, nil
	}}
	res, err := rbc.PlayLocalGame(ctx, white, &fakePlayer{}, testOptions())
	if !errors.Is(err, rbc.ErrAborted) || !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("got %v, %v", res, err)
	}
}

// TestRefereeRejectsBadOptions: no time on the clock is an error, not a game.
func TestRefereeRejectsBadOptions(t *testing.T) {
	if _, err := rbc.PlayLocalGame(context.Background(), &fakePlayer{}, &fakePlayer{}, rbc.Options{}); err == nil {
		t.Error("zero options accepted")
	}
	if _, err := rbc.PlayLocalGame(context.Background(), nil, &fakePlayer{}, rbc.DefaultOptions()); err == nil {
		t.Error("nil player accepted")
	}
}

// TestRefereeReplaysRecordedGamesExactly feeds every recorded harness game to
// the referee through scripted players: the new record must be the same file.
func TestRefereeReplaysRecordedGamesExactly(t *testing.T) {
	for _, f := range testfs.Files(t, filepath.Join("..", "testdata", "histories", "*.json")) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := record.ParseHistory(data)
		if err != nil {
			t.Fatal(err)
		}
		rp, err := rbc.ReplayHistory(context.Background(), rec)
		if err != nil {
			t.Fatal(err)
		}
		if rp.Divergence != nil || rp.Unchecked != "" {
			t.Errorf("%s: %v %s", f, rp.Divergence, rp.Unchecked)
			continue
		}
		var out bytes.Buffer
		record.WriteHistory(rp.Replayed, &out)
		if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("%s: the replayed record differs from the file", f)
		}
	}
}

func loadRecord(t *testing.T, name string) *rbc.History {
	t.Helper()
	h, err := record.LoadHistoryFile(filepath.Join("..", "testdata", "histories", name))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestReplayFindsFirstDivergence: a tampered record is caught at the first
// changed value, with turn, colour and both values.
func TestReplayFindsFirstDivergence(t *testing.T) {
	ctx := context.Background()
	rec := loadRecord(t, "attacker_bot-random_bot-3-000.json")
	rec.Turns[chess.Black][1].Taken = chess.Move{From: chess.F7, To: chess.G6}
	rec.Turns[chess.White][2].FENAfter = chess.StartFEN
	rp, err := rbc.ReplayHistory(ctx, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := "turn 2 (black): taken move: recorded f7g6, replayed 0000"
	if rp.Divergence == nil || rp.Divergence.String() != want {
		t.Errorf("divergence %v, want %s", rp.Divergence, want)
	}

	rec = loadRecord(t, "attacker_bot-random_bot-3-000.json")
	rec.Turns[chess.White][1].SenseResult[0].Piece = chess.MakePiece(chess.Black, chess.Queen)
	rp, _ = rbc.ReplayHistory(ctx, rec)
	want = "turn 2 (white): sense result: recorded [a3=q b3=- a2=P b2=P a1=R b1=-], replayed [a3=- b3=- a2=P b2=P a1=R b1=-]"
	if rp.Divergence == nil || rp.Divergence.String() != want {
		t.Errorf("divergence %v, want %s", rp.Divergence, want)
	}

	rec = loadRecord(t, "attacker_bot-random_bot-3-000.json")
	rec.Outcome.Winner = chess.Black
	rp, _ = rbc.ReplayHistory(ctx, rec)
	want = "result: recorded black wins by KING_CAPTURE, replayed white wins by KING_CAPTURE"
	if rp.Divergence == nil || rp.Divergence.String() != want {
		t.Errorf("divergence %v, want %s", rp.Divergence, want)
	}

	// A record cut short claims a king capture that never happened.
	rec = loadRecord(t, "attacker_bot-random_bot-3-000.json")
	rec.Turns[chess.White] = rec.Turns[chess.White][:3]
	rp, _ = rbc.ReplayHistory(ctx, rec)
	want = "result: recorded white wins by KING_CAPTURE, replayed a game not over after the recorded turns"
	if rp.Divergence == nil || rp.Divergence.String() != want {
		t.Errorf("divergence %v, want %s", rp.Divergence, want)
	}

	// An illegal request in the record.
	rec = loadRecord(t, "attacker_bot-random_bot-3-000.json")
	rec.Turns[chess.White][1].Requested = chess.Move{From: chess.E2, To: chess.E5}
	rp, _ = rbc.ReplayHistory(ctx, rec)
	want = "turn 2 (white): move: recorded e2e5, replayed none (black wins by ILLEGAL_ACTION (white requested e2e5, which is not one of its 34 move actions))"
	if rp.Divergence == nil || rp.Divergence.String() != want {
		t.Errorf("divergence %v, want %s", rp.Divergence, want)
	}
}

// TestReplayAcceptsLossOnTimeUnchecked: a game lost on time in the middle of
// a turn (a sense, no move) reproduces when its turns do; the result is noted
// as unchecked.
func TestReplayAcceptsLossOnTimeUnchecked(t *testing.T) {
	rec := loadRecord(t, "attacker_bot-random_bot-3-000.json")
	last := &rec.Turns[chess.White][3]
	*last = rbc.TurnRecord{Sense: last.Sense, SenseResult: last.SenseResult, Capture: chess.NoSquare}
	rec.Outcome = rbc.Outcome{Winner: chess.Black, HasWinner: true, Reason: rbc.Timeout}
	rp, err := rbc.ReplayHistory(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Divergence != nil || !strings.Contains(rp.Unchecked, "TIMEOUT") {
		t.Errorf("got %v %q", rp.Divergence, rp.Unchecked)
	}
}

// TestReplayTurnLimitUsesRecordedLimit: a TURN_LIMIT draw replays with the
// limit its last board shows.
func TestReplayTurnLimitUsesRecordedLimit(t *testing.T) {
	opts := testOptions()
	opts.TurnLimit = 7
	res := play(t, &fakePlayer{sense: func(context.Context, []chess.Move, time.Duration) (chess.Square, error) { return chess.D4, nil }}, &fakePlayer{}, opts)
	rp, err := rbc.ReplayHistory(context.Background(), res.History)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Divergence != nil || rp.Unchecked != "" {
		t.Errorf("got %v %q", rp.Divergence, rp.Unchecked)
	}
}
