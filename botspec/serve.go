package botspec

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strconv"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Engine describes the rbcp engine that `blindfish engine` serves
// (docs/protocol.md) for rbcp.Serve: it plays bot, a built-in bot spec,
// with seed (0: a new one each game). Its options are the bot spec, the
// seed, the info level and every setting of the blindfish bot, so that a
// harness can tune the player without knowing our spec syntax; a setting
// option changed from its announced default overrides the bot spec's own.
// Options are checked when set, without building a player (which may start
// Stockfish). log gets the session's diagnostics, and the blindfish bot's
// decisions when the info option is "off".
func Engine(bot string, seed int64, log *slog.Logger) (rbcp.Engine, error) {
	if IsExternal(bot) {
		return rbcp.Engine{}, fmt.Errorf("--bot %q: an engine cannot serve an external engine", bot)
	}
	name, params, err := engine.ParseSpec(bot)
	if err != nil {
		return rbcp.Engine{}, err
	}
	if seed < 0 || seed > 1<<31-1 {
		return rbcp.Engine{}, fmt.Errorf("--seed %d: want 0 to %d", seed, 1<<31-1)
	}
	s := &engineServer{defaults: map[string]string{}, log: log}
	opts := []rbcp.Option{
		{Name: "bot", Type: "string", Default: bot, HasDefault: true},
		{Name: "seed", Type: "spin", Default: strconv.FormatInt(seed, 10), HasDefault: true, Min: 0, Max: 1<<31 - 1},
		{Name: "info", Type: "combo", Default: "debug", HasDefault: true, Vars: []string{"off", "info", "debug"}},
	}
	for _, k := range engine.ConfigKeys() {
		def := k.Default
		if name == DefaultBot {
			if v, ok := params[k.Name]; ok {
				def = v
			}
		}
		s.keys = append(s.keys, k.Name)
		opts = append(opts, rbcp.Option{Name: k.Name, Type: "string", Default: def, HasDefault: true})
	}
	for _, o := range opts {
		s.defaults[o.Name] = o.Default
	}
	if err := s.check(s.defaults); err != nil {
		return rbcp.Engine{}, err
	}
	return rbcp.Engine{
		Name:      "Blindfish",
		Author:    "the Blindfish authors",
		Options:   opts,
		NewPlayer: s.newPlayer,
		Check:     s.check,
		Logger:    log,
	}, nil
}

// engineServer builds the players Engine serves from its options.
type engineServer struct {
	defaults map[string]string // the announced default of every option
	keys     []string          // the blindfish bot's setting names
	log      *slog.Logger
}

// spec returns the bot name and settings the options ask for: the bot
// option's own settings, overridden by every setting option changed from its
// announced default.
func (s *engineServer) spec(opts map[string]string) (string, engine.Params, error) {
	if IsExternal(opts["bot"]) {
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
	if name == DefaultBot {
		_, err := engine.ParseConfig(params)
		return err
	}
	for _, b := range engine.Bots() {
		if b.Name == name {
			if len(params) > 0 {
				// Let the registry word the complaint about settings.
				_, err := engine.NewPlayer(Format(name, params), 0)
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
		return nil, fmt.Errorf("botspec: seed: %w", err)
	}
	if seed == 0 {
		seed = rand.Int64()
	}
	// The clock comes with the game's first request: size the process for
	// the longest (one game at a time; the bot may change between games).
	LimitMemory([]string{Format(name, params)}, 1, LongestClock)
	if name != DefaultBot {
		return engine.NewPlayer(Format(name, params), seed)
	}
	cfg, err := engine.ParseConfig(params)
	if err != nil {
		return nil, err
	}
	logger := s.log
	switch opts["info"] { // "off": the player logs to the session's logger
	case "info":
		logger = rbcp.InfoLogger(info, slog.LevelInfo)
	case "debug":
		logger = rbcp.InfoLogger(info, slog.LevelDebug)
	}
	return engine.NewBlindfish(cfg, engine.Options{Seed: seed, Logger: logger})
}
