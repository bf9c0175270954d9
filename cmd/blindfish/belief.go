package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/report"
	"github.com/blindfish-rbc/blindfish/sampler"
	"github.com/blindfish-rbc/blindfish/sampler/beliefbench"
)

// beliefSubcommands are the modes of `blindfish belief` other than the
// plain replay through samplers.
func beliefSubcommands() []command {
	return []command{
		{"sense", "the offline sense benchmark: compare sense strategies on the games", runSenseBench},
		{"calibrate", "measure the player's opponent model against the games", runCalibrate},
		{"kriegspiel", "follow Kriegspiel records with Kriegspiel's beliefs", runKriegspielBelief},
	}
}

// beliefDispatch picks the subcommand of a belief command line and the
// arguments it parses: the first argument names it, or, in the flag forms
// from before the subcommands (kept for users' scripts), --sense STRATEGIES
// (sense --strategies STRATEGIES), --calibrate or --game kriegspiel. Any
// other command line is the plain replay (name "").
func beliefDispatch(args []string) (name string, rest []string, err error) {
	for _, c := range beliefSubcommands() {
		if len(args) > 0 && args[0] == c.name {
			return c.name, args[1:], nil
		}
	}
	if v, rest, ok := takeFlag(args, "sense", true); ok {
		return "sense", append([]string{"--strategies=" + v}, rest...), nil
	}
	if v, rest, ok := takeFlag(args, "game", true); ok {
		// --game NAME is the older spelling of the subcommand NAME.
		for _, c := range beliefSubcommands() {
			if c.name == v {
				return c.name, rest, nil
			}
		}
		return "", nil, usageError{fmt.Sprintf("--game %q: only kriegspiel (RBC records take no --game)", v)}
	}
	if v, rest, ok := takeFlag(args, "calibrate", false); ok && v != "false" {
		return "calibrate", rest, nil
	}
	return "", args, nil
}

// takeFlag finds the flag name among args (before any "--"), in any of the
// forms the flag package reads, and returns its value and args without it.
// A flag that takes a value and lacks it has the value "".
func takeFlag(args []string, name string, takesValue bool) (value string, rest []string, ok bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		f, v, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || f != name {
			continue
		}
		rest = slices.Delete(slices.Clone(args), i, i+1)
		switch {
		case hasValue:
			return v, rest, true
		case !takesValue:
			return "true", rest, true
		case i+1 < len(args):
			return args[i+1], slices.Delete(rest, i, i+1), true
		}
		return "", rest, true
	}
	return "", args, false
}

// runBelief replays recorded games through belief samplers from one side's
// point of view and reports, turn by turn and in total, how well each
// sampler tracked the true board; its subcommands run the other
// benchmarks on recorded games.
func runBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name, args, err := beliefDispatch(args)
	if err != nil {
		return err
	}
	for _, c := range beliefSubcommands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	cfg, err := parseBeliefFlags(args, stderr)
	if err != nil {
		return err
	}
	rep, err := beliefbench.Run(ctx, cfg.Config)
	if err != nil {
		return fmt.Errorf("belief: %w", err)
	}
	if cfg.html != "" {
		if err := report.WriteBeliefBench(rep, cfg.Config, cfg.html); err != nil {
			return fmt.Errorf("belief: %w", err)
		}
	}
	if cfg.json {
		return rep.WriteJSON(stdout)
	}
	return rep.WriteText(stdout, cfg.perTurn)
}

// beliefConfig is the parsed command line of the plain `blindfish belief`.
type beliefConfig struct {
	beliefbench.Config
	json    bool
	html    string // the page to write, "" for none
	perTurn bool
}

// beliefUsage is the plain belief's synopsis, with its subcommands.
func beliefUsage() string {
	var b strings.Builder
	b.WriteString("[flags] FILE...\n" +
		"       blindfish belief sense --strategies STRATEGY[,STRATEGY...] [flags] FILE...\n" +
		"       blindfish belief calibrate [flags] FILE...\n" +
		"       blindfish belief kriegspiel [flags] FILE...\n\nSubcommands (each lists its flags with --help):\n")
	for _, c := range beliefSubcommands() {
		fmt.Fprintf(&b, "  %-11s %s\n", c.name, c.summary)
	}
	b.WriteString("\nThe flag forms --sense STRATEGIES, --calibrate and --game kriegspiel still select them.")
	return b.String()
}

func parseBeliefFlags(args []string, stderr io.Writer) (*beliefConfig, error) {
	fs := newFlagSet("belief", beliefUsage(), stderr)
	samplers := fs.String("sampler", "exact", "sampler `name`s, comma-separated, or all ("+strings.Join(sampler.Names(), ", ")+")")
	color := fs.String("color", "both", "replay from the point of view of white, black or both")
	asJSON := fs.Bool("json", false, "write the report as JSON")
	htmlOut := fs.String("html", "", "also write a page of plots to `FILE`: size, entropy, recall and time at each turn, one line per sampler, and the games with links to their records")
	perTurn := fs.Bool("turns", true, "list every turn (the totals are always printed)")
	budget := fs.Int64("budget", sampler.DefaultMemoryBudget>>20, "exact's memory budget in `MiB`")
	pool := fs.Int("pool", sampler.DefaultPoolSize, "pool size of the sampling beliefs (and particles)")
	seed := fs.Uint64("seed", 1, "seed of the samplers' randomness")
	workers := fs.Int("workers", 0, "goroutines for parallel work (0: all cores)")
	replay := fs.Int("replay", 0, "exact's backlog replay work per observation, in `boards` (0: the default, 8M; raise it for exactness whatever the time)")
	disk := fs.Int64("disk", sampler.DefaultSpillBudget>>20, "disk space exact's backlog may spill to, in `MiB` (0: never spill)")
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	cfg := &beliefConfig{json: *asJSON, html: *htmlOut, perTurn: *perTurn}
	if fs.NArg() == 0 {
		return nil, usageError{"no game records given (history files, archives or folders of them)"}
	}
	cfg.Paths = fs.Args()
	var err error
	if cfg.Samplers, err = sampler.ParseNames(*samplers); err != nil {
		return nil, usageError{err.Error()}
	}
	if cfg.Colors, err = chess.ParseSides(*color); err != nil {
		return nil, usageError{"--color " + err.Error()}
	}
	if *budget <= 0 || *pool <= 0 || *workers < 0 || *replay < 0 || *disk < 0 {
		return nil, usageError{"--budget and --pool must be positive; --workers, --replay and --disk not negative"}
	}
	spill := *disk << 20
	if spill == 0 {
		spill = -1 // Options: negative means never
	}
	cfg.Options = sampler.Options{
		MemoryBudget: *budget << 20, PoolSize: *pool, Seed: *seed, Workers: *workers,
		MaxReplay: *replay, SpillBudget: spill,
		Logger: newLogger(stderr, slog.LevelWarn, false),
	}
	return cfg, nil
}
