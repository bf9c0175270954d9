package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/rbc"
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
		if v != "kriegspiel" {
			return "", nil, usageError{fmt.Sprintf("--game %q: only kriegspiel (RBC records take no --game)", v)}
		}
		return "kriegspiel", rest, nil
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
		if err := writeBeliefPage(rep, cfg); err != nil {
			return fmt.Errorf("belief: %w", err)
		}
	}
	if cfg.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("belief: %w", err)
		}
		return nil
	}
	return printBelief(stdout, rep, cfg.perTurn)
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
	if *samplers == "all" {
		cfg.Samplers = sampler.Names()
	} else {
		for _, n := range strings.Split(*samplers, ",") {
			n = strings.TrimSpace(n)
			if !slices.Contains(sampler.Names(), n) {
				return nil, usageError{fmt.Sprintf("unknown sampler %q (have %s)", n, strings.Join(sampler.Names(), ", "))}
			}
			cfg.Samplers = append(cfg.Samplers, n)
		}
	}
	var err error
	if cfg.Colors, err = parseColors(*color); err != nil {
		return nil, usageError{err.Error()}
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
		Logger: slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	}
	return cfg, nil
}

// parseColors reads --color: white, black or both.
func parseColors(s string) ([]rbc.Color, error) {
	switch s {
	case "both":
		return []rbc.Color{rbc.White, rbc.Black}, nil
	case "white", "black":
		c, _ := rbc.ParseColor(s)
		return []rbc.Color{c}, nil
	}
	return nil, fmt.Errorf("--color must be white, black or both, not %q", s)
}

func printBelief(w io.Writer, r *beliefbench.Report, perTurn bool) error {
	if perTurn && len(r.Games) > 0 {
		t := newTable([]string{"game", "side", "sampler", "turn", "before", "after", "reduce", "H bits", "deferred", "true", "ms", "rec"},
			3, 4, 5, 6, 7, 8, 10, 11)
		for _, g := range r.Games {
			for _, bt := range g.Turns {
				t.add(g.File, g.Color, g.Sampler, fmt.Sprint(bt.Turn), fmt.Sprint(bt.SizeBefore), fmt.Sprint(bt.SizeAfter),
					fmt.Sprintf("%.1f%%", 100*bt.Reduction), fmt.Sprintf("%.2f", bt.Entropy), fmt.Sprint(bt.Deferred),
					yesNo(bt.Present), fmt.Sprintf("%.1f", bt.UpdateMillis), fmt.Sprint(bt.Recoveries))
			}
		}
		if err := t.write(w); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	header, numeric, rows := beliefTotalsTable(r)
	t := newTable(header, numeric...)
	for _, row := range rows {
		t.add(row...)
	}
	if err := t.write(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "recall %.1f%% over %d turns\n", r.Recall, r.Turns)
	return err
}

// beliefTotalsTable is the table of the samplers' totals, as printed and on
// the page.
func beliefTotalsTable(r *beliefbench.Report) (header []string, numeric []int, rows [][]string) {
	header = []string{"sampler", "games", "turns", "recall", "mean before", "mean after", "mean reduce", "mean H",
		"mean ms", "max ms", "max size", "recoveries", "disk MiB", "dropped"}
	numeric = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	for _, tot := range r.Samplers {
		rows = append(rows, []string{tot.Sampler, fmt.Sprint(tot.Games), fmt.Sprint(tot.Turns), fmt.Sprintf("%.1f%%", tot.Recall),
			compact(tot.MeanBefore), compact(tot.MeanAfter), fmt.Sprintf("%.1f%%", 100*tot.MeanReduction),
			fmt.Sprintf("%.2f", tot.MeanEntropy), fmt.Sprintf("%.1f", tot.MeanMillis), fmt.Sprintf("%.1f", tot.MaxMillis),
			fmt.Sprint(tot.MaxBoards), fmt.Sprint(tot.Recoveries), fmt.Sprintf("%.0f", tot.PeakSpillMiB), fmt.Sprint(tot.Dropped)})
	}
	return header, numeric, rows
}

// writeBeliefPage writes the report's page (report.Belief) to cfg.html.
func writeBeliefPage(r *beliefbench.Report, cfg *beliefConfig) error {
	var runs []report.BeliefRun
	for _, g := range r.Games {
		run := report.BeliefRun{Sampler: g.Sampler, Color: g.Color, Record: report.RecordPlace{File: g.Record, Member: g.Member}}
		for _, t := range g.Turns {
			run.Turns = append(run.Turns, report.BeliefTurn{Size: t.SizeAfter, Entropy: t.Entropy, Present: t.Present, Millis: t.UpdateMillis})
		}
		runs = append(runs, run)
	}
	header, numeric, rows := beliefTotalsTable(r)
	colors := make([]string, len(cfg.Colors))
	for i, c := range cfg.Colors {
		colors[i] = c.String()
	}
	lines := []string{fmt.Sprintf("%d replays of recorded games (%s, sides: %s), recall %.1f%% over %d turns",
		len(r.Games), strings.Join(cfg.Paths, ", "), strings.Join(colors, ", "), r.Recall, r.Turns)}
	page, err := report.Belief(runs, report.BeliefOptions{Title: "Beliefs: " + strings.Join(cfg.Samplers, ", "), Lines: lines,
		Summary: report.TextTable(header, numeric, rows), Page: cfg.html})
	if err != nil {
		return err
	}
	return report.WriteFile(cfg.html, page)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// compact prints a mean size with few digits: 12.3, 4567, 1.2M.
func compact(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.1fM", x/1e6)
	case x >= 100 || x == math.Trunc(x):
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}
