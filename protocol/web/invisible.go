package web

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// invPerson is an invisible.Player that asks the person through a Desk. It
// follows the game with the person's own invisible.Tracker, so the page
// shows exactly what the rules let the person know: its own men, the
// opponent's visible ones, and the exact belief of the opponent's invisible
// pieces as a heat map.
type invPerson struct {
	desk   *Desk
	clocks *clocks
	color  chess.Color
	tr     *invisible.Tracker
	starts [2][]chess.Square // each side's invisible pieces' starting squares, their names
	tried  map[chess.Move]bool
	asked  time.Time
	left   time.Duration
}

// HandleGameStart starts the person's tracker.
func (p *invPerson) HandleGameStart(_ context.Context, s invisible.GameStart) error {
	p.color, p.tr, p.tried = s.Color, invisible.NewTracker(s.Color, s.Configs), map[chess.Move]bool{}
	for c := chess.White; c <= chess.Black; c++ {
		p.starts[c] = s.Configs[c].Starts(c)
	}
	p.show("")
	p.desk.Logf("You play %s (invisible %s) against %s (invisible %s).", s.Color, s.Configs[s.Color].Label(), s.Opponent, s.Configs[s.Color.Other()].Label())
	return nil
}

// HandleOpponentTurn takes what the person is told of the opponent's turn.
func (p *invPerson) HandleOpponentTurn(_ context.Context, s invisible.Seen) error {
	before := p.tr.View.Pieces(p.color)
	if err := p.tr.OnSeen(s); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	lost := ""
	if gone := before &^ p.tr.View.Pieces(p.color); gone != 0 {
		lost = gone.PopFirst().String()
	}
	p.desk.Logf("The opponent: %s.", p.seenWords(s))
	p.show(lost)
	return nil
}

// seenWords is an announcement in words, the opponent's pieces named.
func (p *invPerson) seenWords(s invisible.Seen) string {
	var out string
	switch {
	case s.Forfeit:
		out = "an impossible try, the turn forfeited"
	case s.Moved >= 0:
		out = "its invisible " + p.pieceName(p.color.Other(), int(s.Moved)) + " moved"
		if s.Capture != chess.NoSquare {
			out += ", taking your man on " + s.Capture.String()
		}
	default:
		out = s.Move.String()
	}
	if s.Checkers != 0 {
		out += ", check by " + p.checkers(s.Checkers)
	}
	return out
}

// pieceName names side c's invisible piece id as the rules do ("Bc8").
func (p *invPerson) pieceName(c chess.Color, id int) string {
	kinds := p.tr.TheirKinds
	if c == p.color {
		kinds = p.tr.OwnKinds
	}
	if id < 0 || id >= len(p.starts[c]) {
		return fmt.Sprintf("#%d", id)
	}
	return invisible.PieceName(p.starts[c][id], kinds[id])
}

// checkers names the opponent's invisible pieces of a checkers set.
func (p *invPerson) checkers(set uint8) string {
	var names []string
	for id := range invisible.MaxPieces {
		if set&(1<<id) != 0 {
			names = append(names, p.pieceName(p.color.Other(), id))
		}
	}
	return "the invisible " + strings.Join(names, " and ")
}

// ChooseTry asks for a try among those the person's view allows and not
// yet tried this turn (a repeated illegal try would lose the game).
func (p *invPerson) ChooseTry(ctx context.Context, left time.Duration) (chess.Move, error) {
	p.clocks.ourTurn(p.desk, left)
	p.asked, p.left = time.Now(), left
	var moves []string
	for _, m := range invisible.AppendTries(&p.tr.View, nil) {
		if !p.tried[m] {
			moves = append(moves, m.String())
		}
	}
	a, err := p.desk.Ask(ctx, "try", func(s *State) { s.Moves = moves }, func(a Action) error {
		switch {
		case a.Kind != "move":
			return fmt.Errorf("%w: a move to try is asked, not a %s", ErrNotAsked, a.Kind)
		case !slices.Contains(moves, a.Move):
			return fmt.Errorf("web: %q is not a try of this turn", a.Move)
		}
		return nil
	})
	if err != nil {
		return chess.Move{}, err
	}
	return chess.ParseMove(a.Move)
}

// HandleAnswer takes the referee's answer into the tracker and shows it.
func (p *invPerson) HandleAnswer(_ context.Context, m chess.Move, a invisible.Answer) error {
	if err := p.tr.OnAnswer(m, a); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	words := a.Outcome.String()
	switch {
	case a.Outcome == invisible.Illegal && a.Reason == invisible.Check && a.Checkers != 0:
		words += ": your king would be in check, by " + p.checkers(a.Checkers) + "; try again"
	case a.Outcome == invisible.Illegal && a.Reason == invisible.Check:
		words += ": your king would be in check; try again"
	case a.Outcome == invisible.Illegal:
		words += ": an invisible piece is in the way, and you are in check; try again"
	case a.Outcome == invisible.Impossible:
		words += ": an invisible piece is in the way; your turn is forfeited"
	case a.Captured >= 0:
		words += ", taking the invisible " + p.pieceName(p.color.Other(), int(a.Captured))
	}
	p.desk.Logf("You tried %s: %s.", m, words)
	if a.Outcome == invisible.Illegal {
		p.tried[m] = true
	} else {
		clear(p.tried)
		p.clocks.theirTurn(p.desk, max(0, p.left-time.Since(p.asked)))
	}
	p.show("")
	return nil
}

// HandleGameEnd shows the result.
func (p *invPerson) HandleGameEnd(_ context.Context, r invisible.Result) error {
	p.clocks.stop(p.desk)
	switch {
	case !r.HasWinner:
		p.desk.End("A draw (" + r.Reason + ").")
	case r.Winner == p.color:
		p.desk.End("You win (" + r.Reason + ").")
	default:
		p.desk.End("You lose (" + r.Reason + ").")
	}
	return nil
}

// show puts what the person knows on the page: the board it sees, its own
// invisible pieces, and the belief of the opponent's as the probability
// that one of them stands on each square (the sum of the pieces'
// marginals: two pieces never share a square).
func (p *invPerson) show(lost string) {
	heat := make([]float64, 64)
	for _, row := range p.tr.Belief.Marginals() {
		for s, q := range row {
			heat[s] += q
		}
	}
	var hidden []string
	for _, s := range p.tr.Own {
		if s != chess.NoSquare {
			hidden = append(hidden, s.String())
		}
	}
	board := boardView(&p.tr.View)
	entropy, places := p.tr.Belief.Entropy(), len(p.tr.Belief.Places)
	p.desk.Update(func(s *State) {
		s.Board, s.Lost, s.Heat, s.Hidden = board, lost, heat, hidden
		s.Entropy, s.Placements = entropy, places
	})
}

// PlayInvisible referees an invisible-chess game between configs (White's
// and Black's invisible pieces) between the person at d and bot.
func (g Game) PlayInvisible(ctx context.Context, d *Desk, configs [2]invisible.Config, bot invisible.Player) (*invisible.Record, error) {
	person := &invPerson{desk: d, clocks: newClocks(g.Color, g.Initial, g.Increment)}
	white, black := g.names()
	opts := invisible.Options{Configs: configs, InitialTime: g.Initial, Increment: g.Increment, TurnLimit: g.TurnLimit,
		WhiteName: white, BlackName: black, Logger: g.logger()}
	wp, bp := invisible.Player(person), bot
	if g.Color == chess.Black {
		wp, bp = bot, person
	}
	person.clocks.stop(d)
	res, err := invisible.PlayGame(ctx, wp, bp, opts)
	if err != nil {
		d.Update(func(s *State) { s.Phase, s.Failed = "over", err.Error() })
		return nil, fmt.Errorf("web: %w", err)
	}
	return res.Record, nil
}
