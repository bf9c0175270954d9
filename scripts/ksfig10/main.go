// Command ksfig10 draws our version of Figure 10 of Ciancarini and Favini's
// "Monte Carlo tree search in Kriegspiel" (2010): each MCTS approach's Elo
// against darkboard by time a move, with 95% intervals, from the results
// logs of the matches (docs/kriegspiel.md, results/ks-programs/README.txt):
//
//	go run ./scripts/ksfig10 -o FIG.svg SERIES:SECONDS:DIR...
//
// Each argument is one match folder (its results.jsonl, the bot the --white
// spec), named by its series and the time a move its bots had. It prints
// each match's line (games, wins-draws-losses, score, Elo and interval, as
// the match table computes them) and writes the figure.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/report"
)

func main() {
	out := flag.String("o", "figure10.svg", "the SVG to write")
	title := flag.String("title", "Kriegspiel MCTS approaches against darkboard at equal time a move", "the figure's title")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: go run ./scripts/ksfig10 [-o FIG.svg] SERIES:SECONDS:DIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Args(), *out, *title); err != nil {
		fmt.Fprintln(os.Stderr, "ksfig10:", err)
		os.Exit(1)
	}
}

func run(args []string, out, title string) error {
	var series []report.EloSeries
	for _, a := range args {
		parts := strings.SplitN(a, ":", 3)
		if len(parts) != 3 {
			return fmt.Errorf("%q is not SERIES:SECONDS:DIR", a)
		}
		sec, err := strconv.ParseFloat(parts[1], 64)
		if err != nil || sec <= 0 {
			return fmt.Errorf("%q: the seconds are not a positive number", a)
		}
		w, d, l, err := tally(filepath.Join(parts[2], "results.jsonl"))
		if err != nil {
			return err
		}
		e := match.EstimateElo(w, d, l)
		n := w + d + l
		fmt.Printf("%-6s %6.3f s  %4d games  %3d-%3d-%3d  %5.1f%%  elo %5s  95%% %s\n", parts[0], sec, n, w, d, l,
			100*(float64(w)+float64(d)/2)/float64(max(n, 1)), match.FormatElo(e.Elo), e.Interval())
		i := slices.IndexFunc(series, func(s report.EloSeries) bool { return s.Name == parts[0] })
		if i < 0 {
			series = append(series, report.EloSeries{Name: parts[0]})
			i = len(series) - 1
		}
		series[i].Points = append(series[i].Points, report.EloPoint{Seconds: sec, Elo: e.Elo, Lo: e.Lo, Hi: e.Hi})
	}
	for i := range series {
		slices.SortFunc(series[i].Points, func(a, b report.EloPoint) int {
			return cmp.Compare(a.Seconds, b.Seconds)
		})
	}
	svg, err := report.EloByTimeSVG(title, "darkboard", series)
	if err != nil {
		return err
	}
	return os.WriteFile(out, svg, 0o644)
}

// tally counts the --white bot's wins, draws and losses in a results log
// (games voided by a failure count for neither side).
func tally(path string) (w, d, l int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line match.LogLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return 0, 0, 0, fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case line.Failed != "":
		case line.Winner == "":
			d++
		case line.Winner == line.BotColor:
			w++
		default:
			l++
		}
	}
	return w, d, l, sc.Err()
}
