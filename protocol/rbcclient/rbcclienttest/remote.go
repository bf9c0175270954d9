package rbcclienttest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// errResigned is what the remote player's waiting callback returns when the
// user resigns (or error-resigns): the referee scores it as a resignation.
var errResigned = errors.New("rbcclienttest: the player resigned")

// turnPhase is where the remote player's turn stands.
type turnPhase uint8

const (
	idle        turnPhase = iota // not our turn
	wantSense                    // ChooseSense waits for POST sense
	sensing                      // the sense was handed over; waiting for its result
	wantMove                     // ChooseMove waits for POST move
	moving                       // the move was handed over; waiting for its result
	wantEndTurn                  // HandleMoveResult waits for POST end_turn
)

type moveResult struct {
	requested, taken chess.Move
	capture          chess.Square
}

// remotePlayer is the user's side of a game as the referee sees it: each
// callback that needs a decision waits for the HTTP call that brings it, so
// the referee, its clocks and its rules run the game exactly as in a local
// match.
type remotePlayer struct {
	mu           sync.Mutex
	phase        turnPhase
	myTurn       bool
	deadline     time.Time     // of the current turn
	left         time.Duration // the clock at the end of the last turn
	senseActions []chess.Square
	moveActions  []chess.Move
	oppCapture   chess.Square

	senseCh    chan chess.Square
	senseResCh chan []rbc.SquarePiece
	moveCh     chan chess.Move
	moveResCh  chan moveResult
	endTurnCh  chan struct{}

	resignOnce sync.Once
	resigned   chan struct{}
}

func newRemotePlayer(initial time.Duration) *remotePlayer {
	return &remotePlayer{
		left:       initial,
		oppCapture: chess.NoSquare,
		senseCh:    make(chan chess.Square, 1),
		senseResCh: make(chan []rbc.SquarePiece, 1),
		moveCh:     make(chan chess.Move, 1),
		moveResCh:  make(chan moveResult, 1),
		endTurnCh:  make(chan struct{}, 1),
		resigned:   make(chan struct{}),
	}
}

func (p *remotePlayer) resign() { p.resignOnce.Do(func() { close(p.resigned) }) }

func (p *remotePlayer) isResigned() bool {
	select {
	case <-p.resigned:
		return true
	default:
		return false
	}
}

// HandleGameStart has nothing to do: the user reads colour, board and
// opponent from their own endpoints.
func (p *remotePlayer) HandleGameStart(context.Context, chess.Color, chess.Board, string) error {
	return nil
}

// HandleOpponentMoveResult keeps the capture for GET opponent_move_results.
func (p *remotePlayer) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) error {
	if p.isResigned() {
		return errResigned
	}
	p.mu.Lock()
	p.oppCapture = sq
	p.mu.Unlock()
	return nil
}

// ChooseSense opens our turn (is_my_turn becomes true) and waits for POST sense.
func (p *remotePlayer) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (chess.Square, error) {
	// Results nobody collected (a request that gave up) must not answer
	// this turn's calls.
	drain(p.senseResCh)
	drain(p.moveResCh)
	p.mu.Lock()
	p.senseActions, p.moveActions = slices.Clone(senses), slices.Clone(moves)
	p.deadline = time.Now().Add(left)
	if d, ok := ctx.Deadline(); ok {
		p.deadline = d
	}
	p.phase, p.myTurn = wantSense, true
	p.mu.Unlock()
	select {
	case sq := <-p.senseCh:
		return sq, nil
	case <-ctx.Done():
		return chess.NoSquare, ctx.Err()
	case <-p.resigned:
		return chess.NoSquare, errResigned
	}
}

// HandleSenseResult answers the waiting POST sense.
func (p *remotePlayer) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	p.mu.Lock()
	p.phase = wantMove
	p.mu.Unlock()
	p.senseResCh <- result
	return nil
}

// ChooseMove waits for POST move.
func (p *remotePlayer) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	select {
	case m := <-p.moveCh:
		return m, nil
	case <-ctx.Done():
		return chess.Move{}, ctx.Err()
	case <-p.resigned:
		return chess.Move{}, errResigned
	}
}

// HandleMoveResult answers the waiting POST move, then waits for POST
// end_turn: as on the real server, our clock runs until we end the turn.
func (p *remotePlayer) HandleMoveResult(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	p.mu.Lock()
	p.phase = wantEndTurn
	p.mu.Unlock()
	p.moveResCh <- moveResult{req, taken, sq}
	select {
	case <-p.endTurnCh:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-p.resigned:
		return errResigned
	}
}

// HandleGameEnd has nothing to do: the user reads the outcome from the endpoints.
func (p *remotePlayer) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }

// endTurn closes our turn for the end_turn call; false if it is not time to.
func (p *remotePlayer) endTurn() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.myTurn || p.phase != wantEndTurn {
		return false
	}
	p.phase, p.myTurn = idle, false
	p.left = time.Until(p.deadline)
	p.endTurnCh <- struct{}{}
	return true
}

// secondsLeft is the clock as GET seconds_left reports it.
func (p *remotePlayer) secondsLeft() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.myTurn {
		return time.Until(p.deadline)
	}
	return p.left
}

func drain[T any](ch chan T) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}
