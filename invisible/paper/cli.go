package paper

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/match"
)

// command is `blindfish invisible`'s flags, parsed.
type command struct {
	what           string
	opts           Options
	opponent       string
	configs        string
	out            string
	quiet, merge   bool
	shard          string
	args, operands []string
	usage          func()
	// merged holds a merge's CSV, written once the shards are read (its
	// folder may be one of theirs).
	merged bytes.Buffer
}

// Run is `blindfish invisible WHAT [flags]`: WHAT is table1, table2, figure3
// or versus, or models RECORDS... (how well each opponent model predicts
// the recorded games: ScoreModels). It prints the table on stdout,
// progress on stderr, and with --out writes the table, the per-game lines
// (CSV) and the figure there. table1 and table2 take --shard K/N (one part
// of the schedule, its files named WHAT.shard-K-of-N.*) and --merge DIR...
// (the table of the shards' CSV lines).
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseCommand(args, stderr)
	if err != nil {
		return err
	}
	name := c.what
	if !c.opts.Shard.Whole() {
		name = fmt.Sprintf("%s.shard-%d-of-%d", c.what, c.opts.Shard.K, c.opts.Shard.N)
	}
	var csvFile *os.File
	if c.out != "" && c.merge {
		c.opts.CSV = &c.merged
	} else if c.out != "" && c.what != "models" {
		if err := os.MkdirAll(c.out, 0o755); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		f, err := os.Create(filepath.Join(c.out, name+".csv"))
		if err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		defer f.Close()
		csvFile, c.opts.CSV = f, f
	}
	start := time.Now()
	var text strings.Builder
	if err := c.run(ctx, &text); err != nil {
		return err
	}
	if !c.quiet && !c.merge && c.what != "models" {
		fmt.Fprintln(stderr)
	}
	fmt.Fprintf(&text, "\n(%s; %s, seed %d, %d jobs)\n", time.Since(start).Round(time.Second), strings.Join(append([]string{"blindfish invisible", c.what}, c.args...), " "), c.opts.Seed, c.opts.Jobs)
	fmt.Fprint(stdout, text.String())
	if c.merge && c.out != "" {
		if err := os.MkdirAll(c.out, 0o755); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		if err := os.WriteFile(filepath.Join(c.out, name+".csv"), c.merged.Bytes(), 0o644); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
	}
	if csvFile != nil || (c.merge && c.out != "") {
		if err := os.WriteFile(filepath.Join(c.out, name+".txt"), []byte(text.String()), 0o644); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
	}
	return nil
}

// parseCommand reads WHAT and the flags.
func parseCommand(args []string, stderr io.Writer) (*command, error) {
	fs := flag.NewFlagSet("invisible", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &command{}
	decisive := fs.Int("decisive", 100, "table1: decisive games a pairing")
	maxGames := fs.Int("max-games", 0, "table1: most games a pairing (default 3 × --decisive; with --shard, the games each pairing plays)")
	games := fs.Int("games", 200, "table2, figure3, versus: games a cell")
	jobs := fs.Int("jobs", 1, "games played at once")
	seed := fs.Int64("seed", 1, "the run's seed: a seed replays its games")
	bot := fs.String("bot", "advisor", "table1, table2, figure3: the strategic advisor's spec; versus: our bot")
	fs.StringVar(&c.opponent, "opponent", "advisor:hide=5", "versus: the opponent's spec")
	fs.StringVar(&c.configs, "configs", "1B,2B,1Q,2R", "versus: the configurations, comma-separated")
	fs.StringVar(&c.out, "out", "", "a folder for WHAT.txt, WHAT.csv (and figure3.svg); a shard's are WHAT.shard-K-of-N.txt and .csv")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress dots")
	fs.StringVar(&c.shard, "shard", "", "table1, table2: play only shard K of N of the schedule that the other flags fix, as match --shard does: the games i with i mod N = K, each with the seed it has in the whole run (table1: every pairing's --max-games games), to merge with --merge")
	fs.BoolVar(&c.merge, "merge", false, "table1, table2: play nothing; make the table of the CSV lines in the folders or files given (the shards' --out), with the run's --seed, --bot, --decisive, --max-games, --games")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: blindfish invisible table1|table2|figure3|versus [flags]\n       blindfish invisible table1|table2 --shard K/N --out DIR [flags]\n       blindfish invisible table1|table2 --merge [flags] DIR...\n       blindfish invisible models RECORDS...\n\nReproduce the invisible-chess paper's Table 1, Table 2 and Figure 3, play our bot against the advisor, or score the opponent models on recorded games.")
		fs.PrintDefaults()
	}
	c.usage = fs.Usage
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		c.what, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	c.args, c.operands = args, fs.Args()
	if c.what == "" && fs.NArg() > 0 {
		c.what, c.operands = fs.Arg(0), fs.Args()[1:]
	}
	c.opts = Options{Decisive: *decisive, MaxGames: *maxGames, Games: *games, Jobs: *jobs, Seed: *seed, Bot: *bot}
	if c.opts.MaxGames <= 0 {
		c.opts.MaxGames = 3 * c.opts.Decisive
	}
	if !c.quiet {
		c.opts.Progress = stderr
	}
	if c.shard != "" {
		s, err := match.ParseShard(c.shard)
		if err != nil {
			return nil, fmt.Errorf("paper: --shard: %w", err)
		}
		c.opts.Shard = s
	}
	sharded := c.shard != "" || c.merge
	switch {
	case sharded && c.what != "table1" && c.what != "table2":
		return nil, fmt.Errorf("paper: --shard and --merge are for table1 and table2, not %q", c.what)
	case c.shard != "" && c.merge:
		return nil, errors.New("paper: --shard plays a shard, --merge merges them: give one")
	case c.merge && len(c.operands) == 0:
		return nil, errors.New("paper: --merge needs the shards' folders or CSV files")
	}
	return c, nil
}

// run plays (or merges) what was asked and writes its table to text.
func (c *command) run(ctx context.Context, text io.Writer) error {
	opts := c.opts
	switch c.what {
	case "table1":
		return c.table1(ctx, text)
	case "table2":
		return c.table2(ctx, text)
	case "figure3":
		pts, n, err := Figure3(ctx, opts)
		if err != nil {
			return err
		}
		WriteFigure3(text, pts, n)
		if c.out != "" {
			f, err := os.Create(filepath.Join(c.out, "figure3.svg"))
			if err != nil {
				return fmt.Errorf("paper: %w", err)
			}
			if err := errors.Join(WriteFigure3SVG(f, pts), f.Close()); err != nil {
				return fmt.Errorf("paper: %w", err)
			}
		}
		return nil
	case "models":
		scores, err := ScoreModels(ctx, c.operands)
		if err != nil {
			return err
		}
		WriteModels(text, scores)
		return nil
	case "versus":
		var cfgs []invisible.Config
		for _, s := range strings.Split(c.configs, ",") {
			cf, err := invisible.ParseConfig(s)
			if err != nil {
				return fmt.Errorf("paper: --configs: %w", err)
			}
			cfgs = append(cfgs, cf)
		}
		vs, err := PlayVersus(ctx, opts.Bot, c.opponent, cfgs, opts)
		if err != nil {
			return err
		}
		WriteVersus(text, opts.Bot, c.opponent, vs)
		return nil
	}
	c.usage()
	return fmt.Errorf("paper: want table1, table2, figure3, versus or models, got %q", c.what)
}

// table1 plays, shards or merges Table 1.
func (c *command) table1(ctx context.Context, text io.Writer) error {
	var ps []Pairing
	var err error
	if c.merge {
		var lines []Line
		var outs []Outcome
		if lines, err = ReadShards("table1", c.operands); err == nil {
			ps, outs, err = MergeTable1(c.opts, lines)
		}
		if err == nil {
			err = c.writeMerged("table1", outs, func(o Outcome) string {
				return invisible.PairString(pairOf(o.Configs))
			})
		}
	} else {
		ps, err = Table1(ctx, c.opts)
	}
	if err != nil {
		return err
	}
	c.shardNote(text)
	WriteTable1(text, ps)
	return nil
}

// pairOf is the pairing of a game's configurations, in table1Pairs' order.
func pairOf(cfgs [2]invisible.Config) [2]invisible.Config {
	if index(cfgs[0]) > index(cfgs[1]) {
		return [2]invisible.Config{cfgs[1], cfgs[0]}
	}
	return cfgs
}

// table2 plays, shards or merges Table 2.
func (c *command) table2(ctx context.Context, text io.Writer) error {
	var cells []Cell2
	var err error
	if c.merge {
		var lines []Line
		var outs []Outcome
		if lines, err = ReadShards("table2", c.operands); err == nil {
			cells, outs, err = MergeTable2(c.opts, lines)
		}
		if err == nil {
			sched := table2Schedule(c.opts)
			cellOf := map[int64]string{}
			for _, s := range sched {
				cellOf[s.Seed] = s.cell
			}
			err = c.writeMerged("table2", outs, func(o Outcome) string { return cellOf[o.Seed] })
		}
	} else {
		cells, err = Table2(ctx, c.opts)
	}
	if err != nil {
		return err
	}
	c.shardNote(text)
	WriteTable2(text, cells)
	return nil
}

// shardNote heads a shard's table: its counts are a part of the run's.
func (c *command) shardNote(text io.Writer) {
	if !c.opts.Shard.Whole() {
		fmt.Fprintf(text, "Shard %s of the schedule: a part of the run's games (table1: every game of the pairings' schedules), for --merge.\n\n", c.opts.Shard)
	}
}

// writeMerged writes a merge's CSV (the lines its table counts) where the
// whole run would.
func (c *command) writeMerged(table string, outs []Outcome, cell func(Outcome) string) error {
	if c.opts.CSV == nil {
		return nil
	}
	cw := newCSVWriter(c.opts.CSV)
	for _, o := range outs {
		writeCSV(cw, table, cell(o), []Outcome{o})
	}
	return nil
}
