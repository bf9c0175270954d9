package web

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// rbcPerson is an rbc.Player that asks the person through a Desk. It keeps
// the person's own men (the opponent's are never known) and shows the last
// sense window, the captures and what became of each move.
type rbcPerson struct {
	desk   *Desk
	clocks *clocks
	color  chess.Color
	own    chess.Board
	turn   int
	asked  time.Time     // when the last question opened
	left   time.Duration // our clock then
	sensed chess.Square  // the last sense's centre
}

// HandleGameStart keeps our own men.
func (p *rbcPerson) HandleGameStart(_ context.Context, color chess.Color, board chess.Board, opponent string) error {
	p.color, p.own = color, ownMen(board, color)
	p.desk.Update(func(s *State) { s.Board = boardView(&p.own) })
	p.desk.Logf("You play %s against %s.", color, opponent)
	return nil
}

// HandleOpponentMoveResult shows a capture of ours.
func (p *rbcPerson) HandleOpponentMoveResult(_ context.Context, captured bool, sq chess.Square) error {
	p.turn++
	lost := ""
	if captured && sq.Valid() {
		p.desk.Logf("Turn %d: the opponent took your %s on %s.", p.turn, pieceName(p.own.PieceAt(sq)), sq)
		p.own.SetPiece(sq, chess.NoPiece)
		lost = sq.String()
	} else if p.turn > 1 || p.color == chess.Black {
		p.desk.Logf("Turn %d: the opponent moved; none of your men was taken.", p.turn)
	}
	p.desk.Update(func(s *State) { s.Board, s.Lost, s.Window = boardView(&p.own), lost, nil })
	return nil
}

// ChooseSense asks for a square to sense (or a pass).
func (p *rbcPerson) ChooseSense(ctx context.Context, senses []chess.Square, _ []chess.Move, left time.Duration) (chess.Square, error) {
	p.clocks.ourTurn(p.desk, left)
	p.asked, p.left = time.Now(), left
	names := make([]string, len(senses))
	for i, s := range senses {
		names[i] = s.String()
	}
	a, err := p.desk.Ask(ctx, "sense", func(s *State) { s.Senses = names }, func(a Action) error {
		switch {
		case a.Kind == "pass":
			return nil
		case a.Kind != "sense":
			return fmt.Errorf("%w: a sense is asked, not a %s", ErrNotAsked, a.Kind)
		case !slices.Contains(names, a.Square):
			return fmt.Errorf("web: %q is not a square to sense", a.Square)
		}
		return nil
	})
	p.sensed = chess.NoSquare
	if err != nil || a.Kind == "pass" {
		return chess.NoSquare, err
	}
	p.sensed, err = chess.ParseSquare(a.Square)
	return p.sensed, err
}

// HandleSenseResult shows the window.
func (p *rbcPerson) HandleSenseResult(_ context.Context, result []rbc.SquarePiece) error {
	w := make([]SquareView, len(result))
	seen := 0
	for i, sp := range result {
		w[i] = SquareView{Square: sp.Square.String()}
		if sp.Piece != chess.NoPiece {
			w[i].Piece = sp.Piece.String()
			if sp.Piece.Color() != p.color {
				seen++
			}
		}
	}
	p.desk.Update(func(s *State) { s.Window = w })
	if len(result) > 0 {
		p.desk.Logf("You sensed around %s: %d of the opponent's men in the window.", p.sensed, seen)
	}
	return nil
}

// ChooseMove asks for a move (or a pass).
func (p *rbcPerson) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	p.clocks.ourTurn(p.desk, left)
	p.asked, p.left = time.Now(), left
	names := make([]string, len(moves))
	for i, m := range moves {
		names[i] = m.String()
	}
	a, err := p.desk.Ask(ctx, "move", func(s *State) { s.Moves = names }, func(a Action) error {
		switch {
		case a.Kind == "pass":
			return nil
		case a.Kind != "move":
			return fmt.Errorf("%w: a move is asked, not a %s", ErrNotAsked, a.Kind)
		case !slices.Contains(names, a.Move):
			return fmt.Errorf("web: %q is not one of your moves", a.Move)
		}
		return nil
	})
	if err != nil || a.Kind == "pass" {
		return chess.Move{}, err
	}
	return chess.ParseMove(a.Move)
}

// HandleMoveResult shows what became of the move.
func (p *rbcPerson) HandleMoveResult(_ context.Context, requested, taken chess.Move, captured bool, sq chess.Square) error {
	p.clocks.theirTurn(p.desk, max(0, p.left-time.Since(p.asked)))
	switch {
	case requested.IsNull():
		p.desk.Logf("You passed.")
	case taken.IsNull():
		p.desk.Logf("You asked %s: no move was made.", requested)
	case taken != requested:
		p.desk.Logf("You asked %s: it became %s.", requested, taken)
	default:
		p.desk.Logf("You moved %s.", taken)
	}
	if captured && sq.Valid() {
		p.desk.Logf("You took a man on %s.", sq)
	}
	if !taken.IsNull() {
		moveOwn(&p.own, taken, p.color)
	}
	p.desk.Update(func(s *State) { s.Board = boardView(&p.own) })
	return nil
}

// HandleGameEnd shows the result.
func (p *rbcPerson) HandleGameEnd(_ context.Context, o rbc.Outcome, _ *rbc.History) error {
	p.clocks.stop(p.desk)
	p.desk.End(outcomeText(o, p.color))
	return nil
}

// outcomeText is an outcome in words, from the person's side.
func outcomeText(o rbc.Outcome, person chess.Color) string {
	if !o.HasWinner {
		return fmt.Sprintf("A draw (%s).", o.Reason)
	}
	who := "You win"
	if o.Winner != person {
		who = "You lose"
	}
	return fmt.Sprintf("%s (%s).", who, o.Reason)
}

// pieceName names a piece type in words.
func pieceName(p chess.Piece) string {
	switch p.Type() {
	case chess.Pawn:
		return "pawn"
	case chess.Knight:
		return "knight"
	case chess.Bishop:
		return "bishop"
	case chess.Rook:
		return "rook"
	case chess.Queen:
		return "queen"
	case chess.King:
		return "king"
	}
	return "man"
}
