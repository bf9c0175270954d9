// Package randbot is a seeded random player for the protocol tests: it senses
// and moves at random, as the harness's Random bot does, and checks that its
// callbacks arrive in the order of a game, so that every adapter in protocol/
// can be tested for whole games without depending on the real players.
package randbot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Player is the random player. Set the hooks before the game starts.
type Player struct {
	// OnChooseMove, if set, runs at the start of ChooseMove; an error fails
	// the callback. Tests use it to make an engine hang, die or misbehave.
	OnChooseMove func(ctx context.Context) error

	rng  *rand.Rand
	info func(string)

	mu   sync.Mutex
	next string // the callback expected next
	err  error  // the first ordering error
}

// New returns a player whose choices depend only on seed.
func New(seed uint64) *Player {
	return &Player{rng: rand.New(rand.NewPCG(seed, 7)), next: "start"}
}

// SetInfo sets a function that receives what the player would log (an
// engine serving the player sends it as protocol info lines).
func (p *Player) SetInfo(f func(string)) { p.info = f }

// OrderError returns the first callback that came out of order, if any.
func (p *Player) OrderError() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

func (p *Player) step(name, next string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next != name && !(name == "end" && p.next != "start") {
		err := fmt.Errorf("randbot: callback %s while expecting %s", name, p.next)
		if p.err == nil {
			p.err = err
		}
		return err
	}
	p.next = next
	return nil
}

// HandleGameStart starts the game.
func (p *Player) HandleGameStart(ctx context.Context, c chess.Color, b chess.Board, name string) error {
	return p.step("start", "opponent")
}

// HandleOpponentMoveResult checks the notice is consistent.
func (p *Player) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) error {
	if captured != sq.Valid() {
		return fmt.Errorf("randbot: capture flag %v with square %v", captured, sq)
	}
	return p.step("opponent", "sense")
}

// ChooseSense senses a random square (or passes one time in ten).
func (p *Player) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (chess.Square, error) {
	if err := p.step("sense", "senseresult"); err != nil {
		return chess.NoSquare, err
	}
	if p.info != nil {
		p.info("belief 1 board, entropy 0 bits")
	}
	if len(senses) == 0 || p.rng.IntN(10) == 0 {
		return chess.NoSquare, nil
	}
	return senses[p.rng.IntN(len(senses))], nil
}

// HandleSenseResult accepts the result.
func (p *Player) HandleSenseResult(ctx context.Context, r []rbc.SquarePiece) error {
	return p.step("senseresult", "move")
}

// ChooseMove requests a random move action (or passes one time in twenty).
func (p *Player) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	if err := p.step("move", "moveresult"); err != nil {
		return chess.Move{}, err
	}
	if p.OnChooseMove != nil {
		if err := p.OnChooseMove(ctx); err != nil {
			return chess.Move{}, err
		}
	}
	if len(moves) == 0 || p.rng.IntN(20) == 0 {
		return chess.Move{}, nil
	}
	return moves[p.rng.IntN(len(moves))], nil
}

// HandleMoveResult checks the result is consistent.
func (p *Player) HandleMoveResult(ctx context.Context, req, taken chess.Move, captured bool, sq chess.Square) error {
	if captured != sq.Valid() {
		return fmt.Errorf("randbot: capture flag %v with square %v", captured, sq)
	}
	return p.step("moveresult", "opponent")
}

// HandleGameEnd ends the game.
func (p *Player) HandleGameEnd(ctx context.Context, o rbc.Outcome, h *rbc.History) error {
	return p.step("end", "start")
}
