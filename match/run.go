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

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// BotFactory builds the player a bot spec names, with a seed for its random
// choices. The match builds two players per game (and closes them after it,
// when they are io.Closers), so a bot's state never leaks from one game into
// the next. The command line passes botspec's resolver (built-in bots,
// "cmd:PROGRAM", "build:REV"); a program may pass anything.
type BotFactory func(spec string, seed int64) (rbc.Player, error)

// Config is a match: who plays, how many games, at what clock, with which
// seed, and where the games go; which game (RBC unless Referee says
// otherwise).
type Config struct {
	Bot, Opponent        string // specs; the table is about Bot, which has White in game 0
	Games                int    // games in the schedule (with an SPRT, the most)
	Initial, Increment   time.Duration
	Seed                 int64  // base of every game's seeds: the same seed replays the same games
	Out                  string // the folder for the records and the results log, which must exist ("" saves nothing)
	Concurrency          int    // games played at once (at least 1)
	Alternate            bool   // swap colours every other game
	MoveLimit, TurnLimit int    // the referee's draw rules (0: none)
	// Shard, when not the zero Shard, plays only that shard's games of the
	// schedule (see Shard), logging them to its own results log.
	Shard Shard
	// Resume skips the games the folder's results logs already hold (see
	// Play).
	Resume bool
	// SPRT, when set, stops the match as soon as the test decides (see
	// Play). A shard does not stop: it plays its games, and the verdict
	// comes from merging the shards.
	SPRT   *SPRT
	NewBot BotFactory
	// Referee plays each game; nil plays RBC with NewBot's players.
	Referee Referee
	// Records reads the records of the match's game (Report.Archive checks
	// each before packing it); nil reads RBC's (ReadRBCRecord).
	Records RecordReader
	// About says, a line each, what a person should know of the bots
	// before the games: which evaluator each scores with. Run prints it.
	About []string
	// Logger gets the referee's warnings and a line per finished game at
	// debug level; nil discards them.
	Logger *slog.Logger
	// OnProgress, when set, is called once before the first game and after
	// every finished game, one call at a time: a progress bar's feed.
	OnProgress func(Progress)
	// Notice, when set, gets what the user must hear whatever Logger's
	// level, one call at a time: a results-log line set aside or skipped,
	// and each distinct failure of a bot that voided a game (once, not
	// once per game). nil sends them to Logger at warn level.
	Notice func(msg string)
}

// Progress is the state of a match as OnProgress sees it.
type Progress struct {
	Done, Total         int     // games finished (void ones too), games to play
	Void                int     // of Done, games a bot's failure voided
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
	BotColor             chess.Color
	WhiteSeed, BlackSeed int64
	Record               string // the history's file name
}

// Game returns game i of the schedule. Its seeds derive from the match seed
// and i alone, and its colours from i alone (with Alternate, odd games have
// the colours swapped), so that a seed replays its games whatever the
// concurrency and a game is the same whichever process plays it.
func (c *Config) Game(i int) Game {
	g := Game{Number: i, White: c.Bot, Black: c.Opponent, BotColor: chess.White}
	botSeed, oppSeed := DeriveSeed(c.Seed, i, 0), DeriveSeed(c.Seed, i, 1)
	g.WhiteSeed, g.BlackSeed = botSeed, oppSeed
	if c.Alternate && i%2 == 1 {
		g.White, g.Black, g.BotColor = c.Opponent, c.Bot, chess.Black
		g.WhiteSeed, g.BlackSeed = oppSeed, botSeed
	}
	g.Record = RecordName(g.White, g.Black, c.Seed, i, c.Games)
	return g
}

// Report is what Play did.
type Report struct {
	// Results holds the finished games by game number (len Games), resumed
	// ones included; nil for a game of another shard or not finished (the
	// match was stopped or interrupted).
	Results []*Result
	// Void holds the games a bot's failure voided (Outcome.Void), in the
	// order they ended: played, but counted for neither side (their
	// Results entry stays nil, and a resumed match plays them again).
	Void []*Result
	// Scheduled counts the games of the shard (all games of a whole match),
	// Resumed those of them taken from the folder's logs.
	Scheduled, Resumed int
	// Stopped is set when the SPRT decided and ended the match early.
	Stopped bool
}

// Finished counts the finished games that count (not the void ones).
func (r *Report) Finished() int {
	n := 0
	for _, g := range r.Results {
		if g != nil {
			n++
		}
	}
	return n
}

// Play plays the match's games (those of cfg.Shard) on cfg.Concurrency
// workers, saving each game's record and results-log line in cfg.Out as it
// ends. It returns when every game is over, or ctx is done (the games in
// play are abandoned: not saved, not counted), or a record could not be
// saved (the error; that stops the match too).
//
// With cfg.Resume, a game some results log of cfg.Out already holds (same
// seed and game number, same bots on the same colours, same clock) is not
// played again but taken from the log: an interrupted match, or a cluster
// task that was killed and restarted, plays only what is missing.
//
// With an SPRT (and the whole schedule), every game that completes a pair
// updates the LLR, and once it crosses a bound the match stops: no game
// starts, and the games in play are abandoned, so that the verdict is not
// held up by a game that cannot change it much. Report.Stopped says so.
//
// A game that ends because a bot failed (its engine did not start, a
// callback returned an error or panicked) is void (ReasonError): logged,
// put in Report.Void, told once per distinct error through cfg.Notice, and
// counted for neither side. When every game a bot played in this call was
// voided by its own failure, Play returns an error wrapping ErrBotFailed
// that names the bot and its first error. A last line of the results log
// cut short (a full disk) is set aside first (Log.Repair), and log lines
// that cannot be read are skipped; both are told through cfg.Notice.
func Play(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.check(); err != nil {
		return Report{}, err
	}
	m := newMatchRun(cfg)
	if err := m.open(); err != nil {
		return Report{}, err
	}
	ctx, m.cancel = context.WithCancel(ctx)
	defer m.cancel()
	todo := m.schedule()
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range m.cfg.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r, err := playGame(ctx, &m.cfg, m.log, m.dir, i)
				m.finished(i, r, err)
			}
		}()
	}
feed:
	for _, i := range todo {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if m.firstErr == nil {
		m.firstErr = m.failures.err()
	}
	return m.rep, m.firstErr
}

// check vets cfg and fills in its defaults (a discarding Logger, Notice to
// the Logger).
func (cfg *Config) check() error {
	switch {
	case cfg.Games < 1 || cfg.Concurrency < 1:
		return fmt.Errorf("match: games (%d) and concurrency (%d) must be at least 1", cfg.Games, cfg.Concurrency)
	case cfg.NewBot == nil && cfg.Referee == nil:
		return errors.New("match: no bot factory")
	}
	if err := cfg.Shard.Check(); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Notice == nil {
		logger := cfg.Logger
		cfg.Notice = func(msg string) { logger.Warn(msg) }
	}
	return nil
}

// matchRun is the state of one Play: the report being filled, the progress
// and the SPRT's pairs, guarded by mu once the workers run.
type matchRun struct {
	cfg      Config
	sprt     *SPRT // nil on a shard: its games do not form pairs
	log      *Log  // nil when nothing is saved
	dir      string
	cancel   context.CancelFunc
	failures *failures

	mu       sync.Mutex
	rep      Report
	prog     Progress
	pairs    Penta
	firstErr error
}

func newMatchRun(cfg Config) *matchRun {
	m := &matchRun{cfg: cfg, sprt: cfg.SPRT, failures: newFailures(cfg.Bot, cfg.Opponent)}
	if !cfg.Shard.Whole() {
		m.sprt = nil
	}
	m.rep = Report{Results: make([]*Result, cfg.Games), Scheduled: cfg.Shard.Count(cfg.Games)}
	m.prog = Progress{Total: m.rep.Scheduled, HasLLR: m.sprt != nil}
	return m
}

// open readies cfg.Out, when set: its results log repaired, and with
// Resume the games it already holds taken into the report.
func (m *matchRun) open() error {
	cfg := &m.cfg
	if cfg.Out == "" {
		return nil
	}
	var err error
	if m.dir, err = filepath.Abs(cfg.Out); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	m.log = NewLog(cfg.Out, cfg.Shard)
	torn, err := m.log.Repair()
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	if torn != nil {
		cfg.Notice(torn.Error() + "; the game it held is played again")
	}
	if cfg.Resume {
		n, err := resume(cfg, m.dir, m.rep.Results)
		if err != nil {
			return fmt.Errorf("match: resume: %w", err)
		}
		m.rep.Resumed = n
	}
	return nil
}

// schedule counts the resumed games and returns the numbers of the games
// left to play (none when the resumed games decided the SPRT already).
func (m *matchRun) schedule() []int {
	var todo []int
	for i := range m.cfg.Games {
		switch {
		case !m.cfg.Shard.Has(i):
		case m.rep.Results[i] != nil:
			if m.count(i, m.rep.Results[i], true) {
				m.rep.Stopped = true
			}
		default:
			todo = append(todo, i)
		}
	}
	if m.rep.Stopped {
		todo = nil
	}
	m.progress()
	return todo
}

// count adds game i, finished, to the progress and the SPRT's pairs, and
// reports whether the SPRT decided. A pair counts once its second game is
// in: resumed games are counted in order, so of a resumed pair the odd game
// counts it.
func (m *matchRun) count(i int, r *Result, resumed bool) bool {
	m.prog.Done++
	switch r.score() {
	case 0:
		m.prog.Wins++
	case 1:
		m.prog.Draws++
	default:
		m.prog.Losses++
	}
	if m.sprt == nil {
		return false
	}
	results := m.rep.Results
	if j := i ^ 1; j < len(results) && results[j] != nil && (!resumed || j < i) {
		m.pairs[pairPoints(r, results[j])]++
	}
	m.prog.LLR = m.sprt.LLR(m.pairs)
	return m.sprt.Decide(m.prog.LLR) != Continue
}

// finished takes in what playing game i gave: an abandoned game is
// dropped, an error stops the match, a void game is set apart, and a
// finished one counts (and may stop the match by the SPRT's verdict).
func (m *matchRun) finished(i int, r *Result, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case errors.Is(err, rbc.ErrAborted):
		return
	case err != nil:
		if m.firstErr == nil {
			m.firstErr = err
		}
		m.cancel()
		return
	case r.Outcome.Void():
		m.rep.Void = append(m.rep.Void, r)
		m.prog.Done++
		m.prog.Void++
		if msg := m.failures.add(r); msg != "" {
			m.cfg.Notice(msg)
		}
	default:
		m.failures.add(r)
		m.rep.Results[i] = r
		if m.count(i, r, false) && !m.rep.Stopped {
			m.rep.Stopped = true
			m.cfg.Logger.Debug("SPRT verdict", "pairs", m.pairs.Pairs(), "llr", m.prog.LLR, "verdict", m.sprt.Decide(m.prog.LLR).String())
			m.cancel()
		}
	}
	m.progress()
}

func (m *matchRun) progress() {
	if m.cfg.OnProgress != nil {
		m.cfg.OnProgress(m.prog)
	}
}

// ErrBotFailed is wrapped by Play's error when every game a bot played
// was voided by its own failure: the match measured nothing.
var ErrBotFailed = errors.New("failed in every game it played")

// failures tracks, per bot spec, the games it played and those voided by
// its failure, and the distinct failures already told.
type failures struct {
	specs  []string
	played map[string]int
	failed map[string]int
	first  map[string]string // the first failure of each spec
	told   map[string]bool   // spec + "\x00" + failure
}

func newFailures(bot, opponent string) *failures {
	f := &failures{played: map[string]int{}, failed: map[string]int{}, first: map[string]string{}, told: map[string]bool{}}
	f.specs = []string{bot}
	if opponent != bot {
		f.specs = append(f.specs, opponent)
	}
	return f
}

// add counts a game played to its end and returns the message that tells
// its failure, if it is void by one not told before ("" otherwise).
func (f *failures) add(r *Result) string {
	f.played[r.White]++
	if r.Black != r.White {
		f.played[r.Black]++
	}
	if !r.Outcome.Void() {
		return ""
	}
	spec := [2]string{r.White, r.Black}[r.Outcome.Failed]
	f.failed[spec]++
	why := failureText(r.Outcome)
	if _, ok := f.first[spec]; !ok {
		f.first[spec] = why
	}
	key := spec + "\x00" + why
	if f.told[key] {
		return ""
	}
	f.told[key] = true
	return fmt.Sprintf("bot %q failed in game %d, which is void (not counted; this failure is told once): %s", spec, r.Game, why)
}

// err is the error of a bot all of whose games failed, or nil.
func (f *failures) err() error {
	for _, spec := range f.specs {
		if n := f.played[spec]; n > 0 && f.failed[spec] == n {
			return fmt.Errorf("match: bot %q %w (%d): %s", spec, ErrBotFailed, n, f.first[spec])
		}
	}
	return nil
}

// failureText is a void game's failure without the colour the referee puts
// first ("black's HandleGameStart failed: …" is "HandleGameStart failed:
// …"), so that one failure in both colours is told once.
func failureText(o Outcome) string {
	text := strings.TrimPrefix(o.Detail, o.Failed.String()+"'s ")
	if text == "" {
		text = "no detail"
	}
	return text
}

// resume fills results with the games of cfg's shard that the results logs
// of its folder (dir, absolute) hold, and returns how many. A logged game
// counts only if it is the game the schedule has under its number: same
// seed, same bots on the same colours, same clock (a folder may hold other
// sessions). A game logged twice counts once; a void game is played again.
// A line that cannot be read is told through cfg.Notice and skipped. A line
// of a bot against itself written before the log said the bot's colour
// matches on the specs alone (the colours were not logged).
func resume(cfg *Config, dir string, results []*Result) (int, error) {
	logged, bad, err := readFolderLogs(cfg.Out, dir)
	if err != nil {
		return 0, err
	}
	for _, e := range bad {
		cfg.Notice(e.Error() + ": skipped")
	}
	n := 0
	for _, r := range logged {
		i := r.Game
		if r.Outcome.Void() {
			continue // played again
		}
		if r.Seed != cfg.Seed || i < 0 || i >= cfg.Games || !cfg.Shard.Has(i) || results[i] != nil {
			continue
		}
		g := cfg.Game(i)
		if r.White != g.White || r.Black != g.Black || r.Clock != cfg.Clock() || r.Variant != cfg.variant() {
			continue
		}
		if r.BotColor != g.BotColor {
			if !r.colorGuessed {
				continue
			}
			// A bot against itself in a log written before bot_color,
			// which reads as the bot's White in every game: the specs
			// are all there is to go by.
			r.BotColor = g.BotColor
		}
		r.Record = filepath.Base(r.Record)
		results[i] = r
		n++
	}
	return n, nil
}

// playGame plays game i and saves its record and log line.
func playGame(ctx context.Context, cfg *Config, log *Log, dir string, i int) (*Result, error) {
	g := cfg.Game(i)
	r := &Result{White: g.White, Black: g.Black, BotColor: g.BotColor, Clock: cfg.Clock(), Timed: true,
		Dir: dir, Seed: cfg.Seed, Game: i, Numbered: true, Variant: cfg.variant()}
	ref := cfg.Referee
	if ref == nil {
		ref = rbcReferee{}
	}
	played, err := ref.Play(ctx, cfg, g)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", i, err)
	}
	r.Outcome, r.Used, r.TurnTimes, r.Turns, r.Degraded = played.Outcome, played.Used, played.TurnTimes, played.Turns, played.Degraded
	cfg.Logger.Debug("game over", "game", i, "white", g.White, "black", g.Black, "outcome", r.Outcome.String())
	if log != nil {
		if err := played.Save(filepath.Join(cfg.Out, g.Record)); err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
		r.Record = g.Record
		if err := log.Append(r.Line(time.Now())); err != nil {
			return nil, fmt.Errorf("game %d: %w", i, err)
		}
	}
	return r, nil
}

// Referee plays one game of a match's schedule. RBC's (the default, whose
// bots come from Config.NewBot) is below; another game is one more Referee
// with its own bot factory (KriegspielReferee).
type Referee interface {
	// Play plays g under cfg's clock and draw rules. An abandoned game
	// (ctx done) returns an error wrapping rbc.ErrAborted.
	Play(ctx context.Context, cfg *Config, g Game) (Played, error)
	// Variant names the game for results logs and tables ("" for RBC), so
	// that games of different variants never count as one pairing.
	Variant() string
}

// Played is what a Referee reports of one game.
type Played struct {
	Outcome   Outcome
	Turns     [2]int             // turns played by White, Black
	Used      [2]time.Duration   // clock time charged to White, Black
	TurnTimes [2][]time.Duration // charged at each turn of White, of Black
	// Degraded holds White's and Black's degradation counts of the game
	// (DegradationReporter), nil for a side that reports none.
	Degraded [2]map[string]int
	// Save writes the game's record to path.
	Save func(path string) error
}

// rbcReferee plays Reconnaissance Blind Chess with rbc's referee.
type rbcReferee struct{}

func (rbcReferee) Variant() string { return "" }

func (rbcReferee) Play(ctx context.Context, cfg *Config, g Game) (Played, error) {
	if cfg.NewBot == nil {
		return Played{}, errors.New("no bot factory")
	}
	wp, err := cfg.NewBot(g.White, g.WhiteSeed)
	if err != nil {
		return Played{}, err
	}
	defer ClosePlayer(wp, cfg.Logger)
	bp, err := cfg.NewBot(g.Black, g.BlackSeed)
	if err != nil {
		return Played{}, err
	}
	defer ClosePlayer(bp, cfg.Logger)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = cfg.Initial, cfg.Increment
	opts.MoveLimit, opts.TurnLimit = cfg.MoveLimit, cfg.TurnLimit
	opts.WhiteName, opts.BlackName = g.White, g.Black
	opts.Logger = cfg.Logger
	w, b := &watchedPlayer{p: wp}, &watchedPlayer{p: bp}
	res, err := rbc.PlayLocalGame(ctx, w, b, opts)
	if err != nil {
		return Played{}, err
	}
	h := res.History
	return Played{
		Outcome: VoidIfFailed(RBCOutcome(h.Outcome), [2]bool{w.failed.Load(), b.failed.Load()}),
		Used:    res.Used, TurnTimes: res.TurnTimes,
		Degraded: [2]map[string]int{w.degraded(), b.degraded()},
		Turns:    [2]int{len(h.Turns[chess.White]), len(h.Turns[chess.Black])},
		Save:     func(path string) error { return record.SaveHistoryFile(path, h) },
	}, nil
}

// records is the RecordReader of the match's game.
func (c *Config) records() RecordReader {
	if c.Records == nil {
		return ReadRBCRecord
	}
	return c.Records
}

// variant is the name of the match's game ("" for RBC).
func (c *Config) variant() string {
	if c.Referee == nil {
		return ""
	}
	return c.Referee.Variant()
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

// ClosePlayer releases what a player of any game holds once its game is
// over (Trout's Stockfish, an external bot's process) if it has a Close
// method, logging a failure to log (when not nil).
func ClosePlayer(p any, log *slog.Logger) {
	c, ok := p.(io.Closer)
	if !ok {
		return
	}
	if err := c.Close(); err != nil && log != nil {
		log.Warn("closing a player", "err", err)
	}
}
