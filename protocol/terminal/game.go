package terminal

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Game is one game between a person at a terminal and a bot.
type Game struct {
	// Color is the person's colour.
	Color chess.Color
	// Opponent is the bot, named OpponentName in the record and to the
	// person.
	Opponent     rbc.Player
	OpponentName string
	// Initial and Increment set both chess clocks.
	Initial, Increment time.Duration
	// In and Out are the person's terminal.
	In  io.Reader
	Out io.Writer
	// Logger receives the referee's details (nil: slog.Default()).
	Logger *slog.Logger
}

// Play referees g under its clocks, exactly as a match would, and returns
// its record; the person is named "you" in it.
func Play(ctx context.Context, g Game) (*rbc.History, error) {
	human := NewPlayer(g.In, g.Out)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = g.Initial, g.Increment
	opts.Logger = g.Logger
	white, black := rbc.Player(human), g.Opponent
	opts.WhiteName, opts.BlackName = "you", g.OpponentName
	if g.Color == chess.Black {
		white, black = g.Opponent, human
		opts.WhiteName, opts.BlackName = g.OpponentName, "you"
	}
	fmt.Fprintf(g.Out, "You play %s against %s, clock %s+%s s.\n", g.Color, g.OpponentName, seconds(g.Initial), seconds(g.Increment))
	fmt.Fprintln(g.Out, "Type 'help' at any prompt for what you can enter; end of input resigns.")
	res, err := rbc.PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		return nil, fmt.Errorf("terminal: %w", err)
	}
	return res.History, nil
}

// seconds shows d in seconds as blindfish's --clock flag takes it ("900",
// "0.5").
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }
