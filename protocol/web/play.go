package web

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Game is one game a person plays against a bot through the page, refereed
// as a match would referee it; the person is named "you" in its record.
type Game struct {
	Color              chess.Color // the person's
	Bot                string      // the bot's name in the record and on the page
	Initial, Increment time.Duration
	TurnLimit          int          // a draw after this many full turns (0: none)
	Logger             *slog.Logger // the referee's details (nil: discarded)
}

// names returns White's and Black's names.
func (g Game) names() (white, black string) {
	if g.Color == chess.White {
		return "you", g.Bot
	}
	return g.Bot, "you"
}

func (g Game) logger() *slog.Logger {
	if g.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return g.Logger
}

// PlayRBC referees an RBC game between the person at d and bot.
func (g Game) PlayRBC(ctx context.Context, d *Desk, bot rbc.Player) (*rbc.History, error) {
	person := &rbcPerson{desk: d, clocks: newClocks(g.Color, g.Initial, g.Increment), sensed: chess.NoSquare}
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment, opts.TurnLimit = g.Initial, g.Increment, g.TurnLimit
	opts.WhiteName, opts.BlackName = g.names()
	opts.Logger = g.logger()
	white, black := rbc.Player(person), bot
	if g.Color == chess.Black {
		white, black = bot, person
	}
	person.clocks.stop(d)
	res, err := rbc.PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		d.Update(func(s *State) { s.Phase, s.Failed = "over", err.Error() })
		return nil, fmt.Errorf("web: %w", err)
	}
	return res.History, nil
}

// PlayKriegspiel referees a Kriegspiel game under rules between the person
// at d and bot.
func (g Game) PlayKriegspiel(ctx context.Context, d *Desk, rules kriegspiel.Ruleset, bot kriegspiel.Player) (*kriegspiel.Record, error) {
	person := &ksPerson{desk: d, clocks: newClocks(g.Color, g.Initial, g.Increment)}
	opts := kriegspiel.DefaultOptions()
	opts.Rules = rules
	opts.InitialTime, opts.Increment, opts.TurnLimit = g.Initial, g.Increment, g.TurnLimit
	opts.WhiteName, opts.BlackName = g.names()
	opts.Logger = g.logger()
	white, black := kriegspiel.Player(person), bot
	if g.Color == chess.Black {
		white, black = bot, person
	}
	person.clocks.stop(d)
	res, err := kriegspiel.PlayGame(ctx, white, black, opts)
	if err != nil {
		d.Update(func(s *State) { s.Phase, s.Failed = "over", err.Error() })
		return nil, fmt.Errorf("web: %w", err)
	}
	return res.Record, nil
}
