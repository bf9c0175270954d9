// Package game is the table of the games Blindfish plays, and the one
// interface through which the tools reach a game: `match` makes its bots
// and referee, the results reader and `replay --check` read and re-referee
// its records, `view` draws them. A game is a set of files: its rules
// package (rbc, kriegspiel, invisible), its record codec under record/, its
// page in view, and its entry here (one file, listed in Games). Nothing
// else in match, view, report or the command line names a game.
package game

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/view"
)

// Game is what the tools need of one game.
type Game interface {
	// Name is the game's name on the command line (--game) and the first
	// part of its results logs' variant ("kriegspiel/wild16").
	Name() string
	// DefaultBot is the bot a person plays unless told otherwise.
	DefaultBot() string
	// Bots says in a line which built-in bots the game has and what they
	// take, for --help.
	Bots() string
	// Option is the game's one setting on the command line (Kriegspiel's
	// --ruleset, invisible chess's --invisible): its flag's name, usage
	// and default; a name of "" when the game has none.
	Option() (name, usage, def string)
	// Owns reports whether data is one of the game's records, by content.
	Owns(data []byte) bool
	// SetUp makes p's bots and the game's referee into cfg (Config.SetBots
	// first, then Referee and Records).
	SetUp(ctx context.Context, cfg *match.Config, p Players) error
	// Result reads a record's players, result and turns (no clock times).
	Result(rec *record.Record) (*match.Result, error)
	// Check re-referees a record from its recorded choices and says how it
	// went in `blindfish replay --check`'s line: "NAME: ok, ...", the first
	// divergence, or why it could not be read. ok reports whether the game
	// reproduced; with quiet, a reproduced game's line is "". The error is
	// ctx's alone.
	Check(ctx context.Context, rec *record.Record, quiet bool) (line string, ok bool, err error)
	// Page writes the record's viewer page.
	Page(ctx context.Context, rec *record.Record, path string, opts view.Options) (turns int, err error)
	// PlayPerson plays the person at the page's desk against the bot spec
	// (with the game's Option), saves the record in dir (made if missing)
	// under the name a match gives its first game of seed, and returns the
	// record's path.
	PlayPerson(ctx context.Context, d *web.Desk, g web.Game, p Person) (string, error)
	// Analyze follows the record with the bot a.Bot on side a.Table.Color,
	// as `blindfish analyze` does, and writes its table to w: a row per
	// turn shown, the game's choices beside the bot's. A bot spec that
	// makes no bot is an error that wraps ErrBadBot.
	Analyze(ctx context.Context, w io.Writer, rec *record.Record, a Analysis) error
}

// Analysis is what `blindfish analyze` asks of a game's Analyze: the bot,
// its seed and logger (its decisions' logs, which -v turns on for the
// turns shown through Table.Shown), and the table's settings.
type Analysis struct {
	Bot    string
	Seed   int64
	Logger *slog.Logger
	Table  analysis.Table
}

// ErrBadBot is wrapped by Analyze's error when its bot spec names no bot
// of the game: a mistake on the command line, not in the record.
var ErrBadBot = errors.New("game: bad bot spec")

// Person is the rest of what a person's game needs: the bot, the game's
// option, the seed of the bot's choices, and where the record goes.
type Person struct {
	Bot, Option, Dir string
	Seed             int64
	// Resolver makes RBC bot specs.
	Resolver *botspec.Resolver
}

// recordPath makes the records folder and returns where the record of a
// person's game between white and black goes: under the name a match gives
// its first game of the seed, as RBC's (match.SaveRecord) does.
func (p Person) recordPath(white, black string) (string, error) {
	if err := os.MkdirAll(p.Dir, 0o755); err != nil {
		return "", fmt.Errorf("game: the records folder: %w", err)
	}
	return filepath.Join(p.Dir, match.RecordName(white, black, p.Seed, 0, 1)), nil
}

// Players is who plays a match of a game, as the command line gives them.
type Players struct {
	White, Black string // bot specs
	// Option is the value of the game's Option flag.
	Option string
	// DefaultAlternate sets Config.Alternate to its default: on between two
	// different bots.
	DefaultAlternate bool
	// Resolver makes RBC bot specs (and resolves pinned build:REV bots).
	Resolver *botspec.Resolver
	// BuildLog gets the progress of the builds of pinned (build:REV) bots.
	BuildLog *slog.Logger
}

// Games returns the table, RBC first: the game a match plays, and the one
// an untagged results-log line is of, when none is named.
func Games() []Game { return []Game{RBC{}, Kriegspiel{}, Invisible{}} }

// Named returns the game of the name --game gives.
func Named(name string) (Game, error) {
	var names []string
	for _, g := range Games() {
		if g.Name() == name {
			return g, nil
		}
		names = append(names, g.Name())
	}
	return nil, fmt.Errorf("--game %q: want %s", name, strings.Join(names, " or "))
}

// Names lists the games' names.
func Names() []string {
	var names []string
	for _, g := range Games() {
		names = append(names, g.Name())
	}
	return names
}

// Usage is --game's usage: each game with its bots.
func Usage() string {
	var parts []string
	for _, g := range Games() {
		parts = append(parts, g.Name()+" (bots: "+g.Bots()+")")
	}
	return "the game: " + strings.Join(parts, ", or ")
}

// OptionFlags defines each game's Option flag on fs and returns what was
// given for a game (its default when nothing was).
func OptionFlags(fs *flag.FlagSet) func(Game) string {
	values := map[string]*string{}
	for _, g := range Games() {
		if name, usage, def := g.Option(); name != "" {
			values[g.Name()] = fs.String(name, def, usage)
		}
	}
	return func(g Game) string {
		if v := values[g.Name()]; v != nil {
			return *v
		}
		return ""
	}
}

// Of returns the game whose record rec is, told by content.
func Of(rec *record.Record) (Game, error) {
	games := Games()
	for _, g := range games[1:] {
		if g.Owns(rec.Data) {
			return g, nil
		}
	}
	// The harness's GameHistory JSON has no format field of its own: a
	// record no other game owns is RBC's, and RBC's reader says why when
	// it is not one either.
	return games[0], nil
}

// OfVariant returns the game of a results log's variant ("" for the first
// game, "kriegspiel/wild16"), and false for a variant no game has.
func OfVariant(variant string) (Game, bool) {
	name, _, _ := strings.Cut(variant, "/")
	games := Games()
	if name == "" {
		return games[0], true
	}
	for _, g := range games {
		if g.Name() == name {
			return g, true
		}
	}
	return nil, false
}

// ReadResult reads the result of a record of any game (match.RecordReader).
func ReadResult(rec *record.Record) (*match.Result, error) {
	g, err := Of(rec)
	if err != nil {
		return nil, err
	}
	return g.Result(rec)
}

// Check re-referees a record of any game (Game.Check).
func Check(ctx context.Context, rec *record.Record, quiet bool) (line string, ok bool, err error) {
	g, err := Of(rec)
	if err != nil {
		return "", false, err
	}
	return g.Check(ctx, rec, quiet)
}

// PageOf gives a record's page writer (view.BuildFile's pageOf).
func PageOf(rec *record.Record) (view.PageWriter, error) {
	g, err := Of(rec)
	if err != nil {
		return nil, err
	}
	return g.Page, nil
}
