// Package botspec turns bot specs into players for every tool that takes
// them (match, play, connect, analyze): a built-in bot of the engine
// registry ("trout", "blindfish:depth=6"), an external engine that speaks
// the rbcp line protocol ("cmd:PROGRAM ARGS"), a reconchess bot in Python
// ("py:BOT.py" or "py:module.name", pyhost.go), or Blindfish as it was at a
// commit ("build:REV[:BOTSPEC]", pinned builds, build.go).
//
// It is the one place that depends on both the engine and the line protocol,
// so that the engine never imports protocol and the match runner stays
// ignorant of how bots are made: a Resolver's NewPlayer is the
// match.BotFactory the command line passes.
package botspec

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/internal/spec"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// CmdPrefix marks a bot spec that runs an external engine: "cmd:PROGRAM ARGS".
const CmdPrefix = "cmd:"

// BuildPrefix marks a pinned-build bot spec: "build:REV[:BOTSPEC]".
const BuildPrefix = "build:"

// DefaultBot is the bot a pinned build serves unless the spec names one,
// and the one `blindfish engine` serves: the strongest we have.
const DefaultBot = "blindfish"

// IsExternal reports whether spec runs another process (cmd:, py: or
// build:), which an engine serving the line protocol cannot do itself.
func IsExternal(spec string) bool {
	return strings.HasPrefix(spec, CmdPrefix) || strings.HasPrefix(spec, PyPrefix) || strings.HasPrefix(spec, BuildPrefix)
}

// Resolver builds players from bot specs. It keeps the pinned builds it has
// resolved, so that a match resolves and builds a commit once and its games
// only look the binary up; make one per command with NewResolver.
type Resolver struct {
	builds   buildCache
	host     hostFile
	stderr   io.Writer
	cacheDir string
}

// NewResolver returns a resolver whose external engines write their stderr
// to stderr (nil: discarded) and whose pinned builds live in cacheDir (""
// means $BLINDFISH_BUILD_CACHE, else blindfish/builds in the user's cache
// folder).
func NewResolver(stderr io.Writer, cacheDir string) *Resolver {
	if stderr == nil {
		stderr = io.Discard
	}
	return &Resolver{stderr: stderr, cacheDir: cacheDir}
}

// NewPlayer builds the player a bot spec names, with seed for its random
// choices; an external engine gets the seed through its "seed" option if it
// announces one. The player of a cmd:, py: or build: spec is an io.Closer:
// close it when done. A build: spec is built here if Canonical did not
// already resolve it.
func (r *Resolver) NewPlayer(spec string, seed int64) (rbc.Player, error) {
	if strings.HasPrefix(spec, BuildPrefix) {
		argv, err := r.buildCommand(context.Background(), spec)
		if err != nil {
			return nil, err
		}
		return r.external(spec, argv, seed, 0)
	}
	if strings.HasPrefix(spec, PyPrefix) {
		argv, err := r.pyCommand(spec)
		if err != nil {
			return nil, err
		}
		return r.external(spec, argv, seed, pyStartTimeout)
	}
	cmdline, ok := strings.CutPrefix(spec, CmdPrefix)
	if !ok {
		return engine.NewPlayer(spec, seed)
	}
	argv, err := rbcp.SplitCommand(cmdline)
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", spec, err)
	}
	return r.external(spec, argv, seed, 0)
}

// external returns a client for the rbcp engine argv runs; startTimeout
// bounds its start and handshake (0: the client's default).
func (r *Resolver) external(spec string, argv []string, seed int64, startTimeout time.Duration) (rbc.Player, error) {
	c, err := rbcp.NewClient(rbcp.ClientConfig{
		Command:      argv,
		Announced:    []rbcp.SetOption{{Name: "seed", Value: strconv.FormatInt(seed&(1<<31-1), 10)}},
		Stderr:       r.stderr,
		StartTimeout: startTimeout,
	})
	if err != nil {
		return nil, fmt.Errorf("bot %q: %w", spec, err)
	}
	return c, nil
}

// Probe builds the bot a spec names and, for an external engine, starts it
// once and stops it again, so that a command can refuse a bad spec (a missing
// program, an option the engine rejects, a BOTSPEC the pinned build does not
// know, a Python bot that does not load) before it plays a game with it.
func (r *Resolver) Probe(ctx context.Context, spec string) error {
	p, err := r.NewPlayer(spec, 0)
	if err != nil {
		return err
	}
	defer func() {
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}()
	if c, ok := p.(*rbcp.Client); ok {
		if err := c.Start(ctx); err != nil {
			return fmt.Errorf("bot %q: %w", spec, err)
		}
	}
	return nil
}

// Canonical resolves a pinned-build spec, building the commit if it is not
// cached, and returns it as "build:<12-digit hash>[:BOTSPEC]": a record
// written today under build:HEAD~1 must not merge with tomorrow's HEAD~1.
// Other specs come back unchanged. log (nil: none) hears what is resolved
// and built.
func (r *Resolver) Canonical(ctx context.Context, spec string, log *slog.Logger) (string, error) {
	rev, bot, ok, err := splitBuildSpec(spec)
	if !ok || err != nil {
		return spec, err
	}
	b, err := r.resolveBuild(ctx, rev, log)
	if err != nil {
		return "", fmt.Errorf("bot %q: %w", spec, err)
	}
	out := BuildPrefix + b.commit[:12]
	if bot != DefaultBot {
		out += ":" + bot
	}
	return out, nil
}

// Format writes a bot spec back from its parts: "name" or "name:k=v,..."
// with the settings sorted, so that equal specs are equal strings.
func Format(name string, params engine.Params) string { return spec.Format(name, params) }

// MemoryBound returns the most memory the bot a spec names holds in this
// process in a game whose clock starts at initial (engine.MemoryBound): none
// for an external engine, which has a process of its own.
func MemoryBound(spec string, initial time.Duration) (int64, error) {
	if IsExternal(spec) {
		return 0, nil
	}
	return engine.MemoryBound(spec, initial)
}

// CanonicalAll is Canonical for each spec, in order: what a match does once
// with its bots' specs, so that its records name pinned builds by commit.
func (r *Resolver) CanonicalAll(ctx context.Context, log *slog.Logger, specs ...string) ([]string, error) {
	out := make([]string, len(specs))
	for i, spec := range specs {
		c, err := r.Canonical(ctx, spec, log)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Check refuses a spec before a match plays a game with it: a pinned
// build's engine or a Python bot is started once (Probe), since a BOTSPEC
// the build does not know or a bot that does not load would otherwise fail
// every game; any other spec is only built, and closed again (an rbcp
// engine starts with its first game).
func (r *Resolver) Check(ctx context.Context, spec string) error {
	if strings.HasPrefix(spec, BuildPrefix) || strings.HasPrefix(spec, PyPrefix) {
		return r.Probe(ctx, spec)
	}
	p, err := r.NewPlayer(spec, 0)
	if err != nil {
		return err
	}
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
	return nil
}
