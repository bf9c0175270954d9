package paper

import (
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
)

// Run is `blindfish invisible WHAT [flags]`: WHAT is table1, table2, figure3
// or versus, or models RECORDS... (how well each opponent model predicts
// the recorded games: ScoreModels). It prints the table on stdout, progress on stderr, and with
// --out writes the table, the per-game lines (CSV) and the figure there.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("invisible", flag.ContinueOnError)
	fs.SetOutput(stderr)
	decisive := fs.Int("decisive", 100, "table1: decisive games a pairing")
	maxGames := fs.Int("max-games", 0, "table1: most games a pairing (default 3 × --decisive)")
	games := fs.Int("games", 200, "table2, figure3, versus: games a cell")
	jobs := fs.Int("jobs", 1, "games played at once")
	seed := fs.Int64("seed", 1, "the run's seed: a seed replays its games")
	bot := fs.String("bot", "advisor", "table1, table2, figure3: the strategic advisor's spec; versus: our bot")
	opponent := fs.String("opponent", "advisor:hide=5", "versus: the opponent's spec")
	configs := fs.String("configs", "1B,2B,1Q,2R", "versus: the configurations, comma-separated")
	out := fs.String("out", "", "a folder for WHAT.txt, WHAT.csv (and figure3.svg)")
	quiet := fs.Bool("quiet", false, "no progress dots")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: blindfish invisible table1|table2|figure3|versus [flags]\n       blindfish invisible models RECORDS...\n\nReproduce the invisible-chess paper's Table 1, Table 2 and Figure 3, play our bot against the advisor, or score the opponent models on recorded games.")
		fs.PrintDefaults()
	}
	var what string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		what, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if what == "" && fs.NArg() > 0 {
		what = fs.Arg(0)
	}
	opts := Options{Decisive: *decisive, MaxGames: *maxGames, Games: *games, Jobs: *jobs, Seed: *seed, Bot: *bot}
	if opts.MaxGames <= 0 {
		opts.MaxGames = 3 * opts.Decisive
	}
	if !*quiet {
		opts.Progress = stderr
	}
	var csvFile *os.File
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		f, err := os.Create(filepath.Join(*out, what+".csv"))
		if err != nil {
			return fmt.Errorf("paper: %w", err)
		}
		defer f.Close()
		csvFile, opts.CSV = f, f
	}
	start := time.Now()
	var text strings.Builder
	switch what {
	case "table1":
		ps, err := Table1(ctx, opts)
		if err != nil {
			return err
		}
		WriteTable1(&text, ps)
	case "table2":
		cells, err := Table2(ctx, opts)
		if err != nil {
			return err
		}
		WriteTable2(&text, cells)
	case "figure3":
		pts, n, err := Figure3(ctx, opts)
		if err != nil {
			return err
		}
		WriteFigure3(&text, pts, n)
		if *out != "" {
			f, err := os.Create(filepath.Join(*out, "figure3.svg"))
			if err != nil {
				return fmt.Errorf("paper: %w", err)
			}
			if err := errors.Join(WriteFigure3SVG(f, pts), f.Close()); err != nil {
				return fmt.Errorf("paper: %w", err)
			}
		}
	case "models":
		scores, err := ScoreModels(ctx, fs.Args())
		if err != nil {
			return err
		}
		WriteModels(&text, scores)
	case "versus":
		var cfgs []invisible.Config
		for _, s := range strings.Split(*configs, ",") {
			c, err := invisible.ParseConfig(s)
			if err != nil {
				return fmt.Errorf("paper: --configs: %w", err)
			}
			cfgs = append(cfgs, c)
		}
		vs, err := PlayVersus(ctx, *bot, *opponent, cfgs, opts)
		if err != nil {
			return err
		}
		WriteVersus(&text, *bot, *opponent, vs)
	default:
		fs.Usage()
		return fmt.Errorf("paper: want table1, table2, figure3, versus or models, got %q", what)
	}
	if !*quiet {
		fmt.Fprintln(stderr)
	}
	fmt.Fprintf(&text, "\n(%s; %s, seed %d, %d jobs)\n", time.Since(start).Round(time.Second), strings.Join(append([]string{"blindfish invisible", what}, args...), " "), *seed, *jobs)
	fmt.Fprint(stdout, text.String())
	if csvFile != nil {
		if err := os.WriteFile(filepath.Join(*out, what+".txt"), []byte(text.String()), 0o644); err != nil {
			return fmt.Errorf("paper: %w", err)
		}
	}
	return nil
}
