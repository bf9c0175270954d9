package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/protocol/line"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// runEngine serves a bot over the rbcp line protocol (docs/protocol.md) on
// standard input and output, so that harnesses in any language, and the
// reconchess bridge, can play Blindfish as a separate process.
func runEngine(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("engine", "[--bot SPEC] [--seed N] [-v]\n\nSpeaks the rbcp line protocol (docs/protocol.md) on stdin and stdout.", stderr)
	bot := fs.String("bot", botspec.DefaultBot, "the bot to serve, a bot spec (the harness can change it with the bot option)")
	seed := fs.Int64("seed", 0, "seed of the bot's random choices (0: a new seed each game)")
	verbose := fs.Bool("v", false, "log the session's diagnostics to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	eng, err := newEngineServer(*bot, *seed, log)
	if err != nil {
		return usageError{err.Error()}
	}
	return line.Serve(ctx, os.Stdin, stdout, eng)
}

// engineServer builds the players `blindfish engine` serves from its options.
type engineServer struct {
	defaults map[string]string // the announced default of every option
	keys     []string          // the blindfish bot's setting names
	log      *slog.Logger
}

// newEngineServer describes the engine: the options are the bot spec, the
// seed, the info level and every setting of the blindfish bot, so a harness
// can tune the player without knowing our spec syntax.
func newEngineServer(bot string, seed int64, log *slog.Logger) (line.Engine, error) {
	if botspec.IsExternal(bot) {
		return line.Engine{}, fmt.Errorf("--bot %q: an engine cannot serve an external engine", bot)
	}
	name, params, err := engine.ParseSpec(bot)
	if err != nil {
		return line.Engine{}, err
	}
	s := &engineServer{defaults: map[string]string{}, log: log}
	opts := []line.Option{
		{Name: "bot", Type: "string", Default: bot, HasDefault: true},
		{Name: "seed", Type: "spin", Default: strconv.FormatInt(seed, 10), HasDefault: true, Min: 0, Max: 1<<31 - 1},
		{Name: "info", Type: "combo", Default: "debug", HasDefault: true, Vars: []string{"off", "info", "debug"}},
	}
	if seed < 0 || seed > 1<<31-1 {
		return line.Engine{}, fmt.Errorf("--seed %d: want 0 to %d", seed, 1<<31-1)
	}
	for _, k := range engine.ConfigKeys() {
		def := k.Default
		if name == botspec.DefaultBot {
			if v, ok := params[k.Name]; ok {
				def = v
			}
		}
		s.keys = append(s.keys, k.Name)
		opts = append(opts, line.Option{Name: k.Name, Type: "string", Default: def, HasDefault: true})
	}
	for _, o := range opts {
		s.defaults[o.Name] = o.Default
	}
	eng := line.Engine{
		Name:      "Blindfish",
		Author:    "the Blindfish authors",
		Options:   opts,
		NewPlayer: s.newPlayer,
		Check:     s.check,
		Logger:    log,
	}
	if err := s.check(s.defaults); err != nil {
		return line.Engine{}, err
	}
	return eng, nil
}

// spec returns the bot name and settings the options ask for: the bot
// option's own settings, overridden by every setting option changed from its
// announced default.
func (s *engineServer) spec(opts map[string]string) (string, engine.Params, error) {
	if botspec.IsExternal(opts["bot"]) {
		return "", nil, fmt.Errorf("bot %q: an engine cannot serve an external engine", opts["bot"])
	}
	name, params, err := engine.ParseSpec(opts["bot"])
	if err != nil {
		return "", nil, err
	}
	for _, k := range s.keys {
		if v := opts[k]; v != s.defaults[k] {
			params[k] = v
		}
	}
	return name, params, nil
}

// check vets options without building a player (which may start Stockfish).
func (s *engineServer) check(opts map[string]string) error {
	name, params, err := s.spec(opts)
	if err != nil {
		return err
	}
	if name == botspec.DefaultBot {
		_, err := engine.ParseConfig(params)
		return err
	}
	for _, b := range engine.Bots() {
		if b.Name == name {
			if len(params) > 0 {
				// Let the registry word the complaint about settings.
				_, err := engine.NewPlayer(botspec.Format(name, params), 0)
				return err
			}
			return nil
		}
	}
	_, err = engine.NewPlayer(name, 0) // an unknown bot: the registry lists the known ones
	return err
}

func (s *engineServer) newPlayer(ctx context.Context, opts map[string]string, info func(string)) (rbc.Player, error) {
	name, params, err := s.spec(opts)
	if err != nil {
		return nil, err
	}
	seed, err := strconv.ParseInt(opts["seed"], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	if seed == 0 {
		seed = rand.Int64()
	}
	// The clock comes with the game's first request: size the process for
	// the longest (one game at a time; the bot may change between games).
	botspec.LimitMemory([]string{botspec.Format(name, params)}, 1, botspec.LongestClock)
	if name != botspec.DefaultBot {
		return engine.NewPlayer(botspec.Format(name, params), seed)
	}
	cfg, err := engine.ParseConfig(params)
	if err != nil {
		return nil, err
	}
	logger := s.log
	if lvl, ok := infoLevels[opts["info"]]; ok {
		logger = slog.New(slog.NewTextHandler(infoWriter(info), &slog.HandlerOptions{
			Level:       lvl,
			ReplaceAttr: dropTime,
		}))
	}
	return engine.NewBlindfish(cfg, engine.Options{Seed: seed, Logger: logger})
}

// infoLevels maps the info option to the lowest level sent as info lines
// ("off" is absent: the player then logs to the session's stderr logger).
var infoLevels = map[string]slog.Level{"info": slog.LevelInfo, "debug": slog.LevelDebug}

// infoWriter sends each record a text handler writes as one info line.
type infoWriter func(string)

func (w infoWriter) Write(p []byte) (int, error) {
	w(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
