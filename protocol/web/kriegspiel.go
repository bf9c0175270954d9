package web

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// ksPerson is a kriegspiel.Player that asks the person through a Desk: it
// keeps the person's own men and shows every answer the person hears, to
// its own questions and to the opponent's.
type ksPerson struct {
	desk   *Desk
	clocks *clocks
	color  chess.Color
	own    chess.Board
	turn   int
	asked  time.Time
	left   time.Duration
}

// HandleGameStart keeps our own men.
func (p *ksPerson) HandleGameStart(_ context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, opponent string) error {
	p.color, p.own = color, ownMen(start, color)
	p.desk.Update(func(s *State) { s.Board = boardView(&p.own) })
	p.desk.Logf("You play %s against %s under %s.", color, opponent, rules.Name)
	if pawnTries >= 0 {
		p.desk.Logf("The referee: %v's pawn tries: %d.", chess.White, pawnTries)
	}
	return nil
}

// HandleOpponentTurn shows what we heard of the opponent's turn.
func (p *ksPerson) HandleOpponentTurn(_ context.Context, heard []kriegspiel.Heard) error {
	p.turn++
	lost := ""
	for _, h := range heard {
		p.desk.Logf("The opponent's try: %s.", h.Answer.Words(p.color.Other()))
		if h.Answer.Verdict == kriegspiel.Captured && h.Answer.Capture.Valid() {
			p.own.SetPiece(h.Answer.Capture, chess.NoPiece)
			lost = h.Answer.Capture.String()
		}
	}
	p.desk.Update(func(s *State) { s.Board, s.Lost = boardView(&p.own), lost })
	return nil
}

// ChooseQuestion asks for a move to try (or "any?").
func (p *ksPerson) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, left time.Duration) (kriegspiel.Question, error) {
	p.clocks.ourTurn(p.desk, left)
	p.asked, p.left = time.Now(), left
	var moves []string
	anyAllowed := false
	for _, q := range questions {
		if q.AskAny {
			anyAllowed = true
			continue
		}
		moves = append(moves, q.Move.String())
	}
	a, err := p.desk.Ask(ctx, "try", func(s *State) { s.Moves, s.Any = moves, anyAllowed }, func(a Action) error {
		switch {
		case a.Kind == "any" && anyAllowed:
			return nil
		case a.Kind == "any":
			return fmt.Errorf("web: these rules have no \"any?\"")
		case a.Kind != "move":
			return fmt.Errorf("%w: a move to try is asked, not a %s", ErrNotAsked, a.Kind)
		case !slices.Contains(moves, a.Move):
			return fmt.Errorf("web: %q is not a move your men allow", a.Move)
		}
		return nil
	})
	if err != nil {
		return kriegspiel.Question{}, err
	}
	if a.Kind == "any" {
		return kriegspiel.Any(), nil
	}
	m, err := chess.ParseMove(a.Move)
	return kriegspiel.TryMove(m), err
}

// HandleAnswer shows the referee's answer, and plays a move made.
func (p *ksPerson) HandleAnswer(_ context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	p.desk.Logf("You tried %s: %s.", q, a.Words(p.color))
	if a.Verdict.Done() {
		moveOwn(&p.own, q.Move, p.color)
		p.desk.Update(func(s *State) { s.Board = boardView(&p.own) })
		p.clocks.theirTurn(p.desk, max(0, p.left-time.Since(p.asked)))
	}
	return nil
}

// HandleGameEnd shows the result.
func (p *ksPerson) HandleGameEnd(_ context.Context, r kriegspiel.Result, _ *kriegspiel.Record) error {
	p.clocks.stop(p.desk)
	switch {
	case !r.HasWinner:
		p.desk.End("A draw (" + r.ReasonName() + ").")
	case r.Winner == p.color:
		p.desk.End("You win (" + r.ReasonName() + ").")
	default:
		p.desk.End("You lose (" + r.ReasonName() + ").")
	}
	return nil
}
