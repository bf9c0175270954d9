package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// BotFactory builds the player a bot spec names, with a seed for its random
// choices. The match builds two players per game (and closes them after it,
// when they are io.Closers), so a bot's state never leaks from one game into
// the next. The command line passes its spec parser (built-in bots,
// "cmd:PROGRAM", "build:REV"); a program may pass anything.
type BotFactory func(spec string, seed int64) (rbc.Player, error)

// Config is a match: who plays, how many games, at what clock, with which
// seed, and where the games go.
type Config struct {
	Bot, Opponent        string // specs; the table is about Bot, which has White in game 0
	Games                int    // games in the schedule (with an SPRT, the most)
	Initial, Increment   time.Duration
	Seed                 int64  // base of every game's seeds: the same seed replays the same games
	Out                  string // the folder for the records and the results log, which must exist ("" saves nothing)
	Concurrency          int    // games played at once (at least 1)
	Alternate            bool   // swap colours every other game
	MoveLimit, TurnLimit int    // the referee's draw rules (0: none)
	// SPRT, when set, stops the match as soon as the test decides (see Play).
	SPRT   *SPRT
	NewBot BotFactory
	// Logger gets the referee's warnings and a line per finished game at
	// debug level; nil discards them.
	Logger *slog.Logger
	// OnProgress, when set, is called once before the first game and after
	// every finished game, one call at a time: a progress bar's feed.
	OnProgress func(Progress)
}

// Progress is the state of a match as OnProgress sees it.
type Progress struct {
	Done, Total         int     // games finished, games to play
	Wins, Draws, Losses int     // of the bot, over the finished games
	HasLLR              bool    // an SPRT is running
	LLR                 float64 // its log-likelihood ratio
}

// Clock returns the clock as results logs write it: INITIAL+INCREMENT in
// seconds ("60+1", "0.5+0").
func (c *Config) Clock() string { return Seconds(c.Initial) + "+" + Seconds(c.Increment) }

// Seconds shows d in seconds as --clock takes it ("900", "0.5").
func Seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) }

// Game is one game of a match's schedule: everything about it that does not
// depend on how or where the schedule is played.
type Game struct {
	Number               int
	White, Black         string // specs
	BotColor             rbc.Color
	WhiteSeed, BlackSeed int64
	Record               string // the history's file name
}

// Game returns game i of the schedule. Its seeds derive from the match seed
// and i alone, and its colours from i alone (with Alternate, odd games have
// the colours swapped), so that a seed replays its games whatever the
// concurrency and a game is the same whichever process plays it.
func (c *Config) Game(i int) Game {
	g := Game{Number: i, White: c.Bot, Black: c.Opponent, BotColor: rbc.White}
	botSeed, oppSeed := DeriveSeed(c.Seed, i, 0), DeriveSeed(c.Seed, i, 1)
	g.WhiteSeed, g.BlackSeed = botSeed, oppSeed
	if c.Alternate && i%2 == 1 {
		g.White, g.Black, g.BotColor = c.Opponent, c.Bot, rbc.Black
		g.WhiteSeed, g.BlackSeed = oppSeed, botSeed
	}
	g.Record = RecordName(g.White, g.Black, c.Seed, i, c.Games)
	return g
}

// Report is what Play did.
type Report struct {
	// Results holds the finished games by game number (len Games); nil for a
	// game not finished (the match was stopped or interrupted).
	Results []*Result
	// Stopped is set when the SPRT decided and ended the match early.
	Stopped bool
}

// Finished counts the finished games.
func (r *Report) Finished() int {
	n := 0
	for _, g := range r.Results {
		if g != nil {
			n++
		}
	}
	return n
}

// Play plays the match's games on cfg.Concurrency workers, saving each
// game's record and results-log line in cfg.Out as it ends. It returns when
// every game is over, or ctx is done (the games in play are abandoned: not
// saved, not counted), or a record could not be saved (the error; that stops
// the match too).
//
// With an SPRT, every game that completes a pair updates the LLR, and once
// it crosses a bound the match stops: no game starts, and the games in play
// are abandoned, so that the verdict is not held up by a game that cannot
// change it much. Report.Stopped says so.
func Play(ctx context.Context, cfg Config) (Report, error) {
	switch {
	case cfg.Games < 1 || cfg.Concurrency < 1:
		return Report{}, fmt.Errorf("match: games (%d) and concurrency (%d) must be at least 1", cfg.Games, cfg.Concurrency)
	case cfg.NewBot == nil:
		return Report{}, errors.New("match: no bot factory")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	var log *Log
	if cfg.Out != "" {
		log = NewLog(cfg.Out)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rep := Report{Results: make([]*Result, cfg.Games)}

	var (
		mu       sync.Mutex
		prog     = Progress{Total: cfg.Games}
		pairs    Penta
		firstErr error
		wg       sync.WaitGroup
	)
	prog.HasLLR = cfg.SPRT != nil
	if cfg.OnProgress != nil {
		cfg.OnProgress(prog)
	}
	jobs := make(chan int)
	for range cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := playGame(ctx, &cfg, log, i)
				mu.Lock()
				switch {
				case errors.Is(err, rbc.ErrAborted):
				case err != nil:
					if firstErr == nil {
						firstErr = err
					}
					cancel()
				default:
					rep.Results[i] = r
					prog.Done++
					switch r.score() {
					case 0:
						prog.Wins++
					case 1:
						prog.Draws++
					default:
						prog.Losses++
					}
					if cfg.SPRT != nil {
						if j := i ^ 1; j < len(rep.Results) && rep.Results[j] != nil {
							pairs[pairPoints(r, rep.Results[j])]++
						}
						prog.LLR = cfg.SPRT.LLR(pairs)
						if cfg.SPRT.Decide(prog.LLR) != Continue && !rep.Stopped {
							rep.Stopped = true
							cfg.Logger.Debug("SPRT verdict", "pairs", pairs.Pairs(), "llr", prog.LLR, "verdict", cfg.SPRT.Decide(prog.LLR).String())
							cancel()
						}
					}
					if cfg.OnProgress != nil {
						cfg.OnProgress(prog)
					}
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range cfg.Games {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return rep, firstErr
}

// playGame plays game i and saves its record and log line.
func playGame(ctx context.Context, cfg *Config, log *Log, i int) (*Result, error) {
	g := cfg.Game(i)
	r := &Result{White: g.White, Black: g.Black, BotColor: g.BotColor, Clock: cfg.Clock(), Timed: true,
		Dir: cfg.Out, Seed: cfg.Seed, Game: i, Numbered: true}
	wp, err := cfg.NewBot(g.White, g.WhiteSeed)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", i, err)
	}
	defer closePlayer(wp, cfg.Logger)
	bp, err := cfg.NewBot(g.Black, g.BlackSeed)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", i, err)
	}
	defer closePlayer(bp, cfg.Logger)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = cfg.Initial, cfg.Increment
	opts.MoveLimit, opts.TurnLimit = cfg.MoveLimit, cfg.TurnLimit
	opts.WhiteName, opts.BlackName = g.White, g.Black
	opts.Logger = cfg.Logger
	res, err := rbc.PlayLocalGame(ctx, wp, bp, opts)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", i, err)
	}
	h := res.History
	r.Outcome, r.Used = h.Outcome, res.Used
	r.Turns = [2]int{len(h.Turns[rbc.White]), len(h.Turns[rbc.Black])}
	cfg.Logger.Debug("game over", "game", i, "white", g.White, "black", g.Black, "outcome", h.Outcome.String())
	if log != nil {
		if err := rbc.SaveHistoryFile(filepath.Join(cfg.Out, g.Record), h); err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
		r.Record = g.Record
		if err := log.Append(r.Line(time.Now())); err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
	}
	return r, nil
}

// RecordName is "<white>-<black>-<seed>-<NNN>.json", with characters that
// do not belong in file names replaced by '_'; NNN has as many digits as the
// schedule's last game number needs, at least three.
func RecordName(white, black string, seed int64, i, games int) string {
	digits := max(3, len(strconv.Itoa(games-1)))
	return fmt.Sprintf("%s-%s-%d-%0*d.json", fileSafe(white), fileSafe(black), seed, digits, i)
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '.', r == '=', r == '+':
			return r
		}
		return '_'
	}, s)
}

// DeriveSeed gives game i's seed for a role (0 the match's bot, 1 its
// opponent) from the match seed, so games differ yet each replays alone.
func DeriveSeed(seed int64, i, role int) int64 {
	x := uint64(seed) ^ splitmix64(uint64(i)<<1|uint64(role))
	return int64(splitmix64(x))
}

func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// closePlayer releases what a player holds once its game is over (Trout's
// Stockfish, an external bot's process) if it has a Close method.
func closePlayer(p rbc.Player, log *slog.Logger) {
	c, ok := p.(io.Closer)
	if !ok {
		return
	}
	if err := c.Close(); err != nil {
		log.Warn("closing a player", "err", err)
	}
}
