package paper

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/match"
)

// Table1Paper is the paper's Table 1: the row configuration's win
// percentage against the column's, draws discarded, in Configs order.
var Table1Paper = [8][8]float64{
	{0, 61.0, 65.0, 35.0, 17.2, 41.5, 43.6, 89.8},
	{39.0, 0, 53.4, 39.2, 13.2, 37.4, 27.6, 89.0},
	{35.0, 46.6, 0, 38.2, 25.4, 34.4, 27.4, 93.0},
	{65.0, 60.8, 61.8, 0, 43.8, 41.4, 47.6, 93.0},
	{82.8, 86.8, 74.6, 56.2, 0, 72.0, 57.6, 95.6},
	{58.5, 62.6, 65.6, 58.6, 28.0, 0, 45.8, 96.2},
	{56.4, 72.4, 72.6, 52.4, 42.4, 54.2, 0, 98.2},
	{10.2, 11.0, 7.0, 7.0, 4.4, 3.8, 1.8, 0},
}

// Pairing is the games of two configurations A and B, each White in half.
type Pairing struct {
	A, B                invisible.Config
	WinsA, WinsB, Draws int
}

// Decisive is the pairing's decisive games.
func (p Pairing) Decisive() int { return p.WinsA + p.WinsB }

// Options are a table's run.
type Options struct {
	// Decisive is the decisive games wanted a cell (Table 1), Games the
	// games a cell (Table 2, Figure 3, Versus).
	Decisive, Games int
	// MaxGames bounds a Table 1 cell's games when draws are many.
	MaxGames int
	Jobs     int
	Seed     int64
	// Bot is the strategic advisor's spec (Table 1) or the base of the
	// information advisors' (Table 2).
	Bot string
	// Progress gets a dot a game (nil: none).
	Progress io.Writer
	// CSV, when not nil, gets a line a game.
	CSV io.Writer
	// Shard, when not the whole, plays only that part of Table 1's or
	// Table 2's schedule, as match --shard does (shard.go).
	Shard match.Shard
}

// csvHeader is the columns of a run's per-game lines.
var csvHeader = []string{"table", "cell", "seed", "white_config", "black_config", "white_bot", "black_bot", "winner", "reason", "turns", "white_entropy", "black_entropy"}

// newCSVWriter returns a writer of a run's lines, its header written.
func newCSVWriter(w io.Writer) *csv.Writer {
	cw := csv.NewWriter(w)
	_ = cw.Write(csvHeader)
	return cw
}

func writeCSV(w *csv.Writer, table, cell string, outs []Outcome) {
	for _, o := range outs {
		winner := "draw"
		if o.Decisive {
			winner = o.Winner.String()
		}
		_ = w.Write([]string{table, cell, strconv.FormatInt(o.Seed, 10), string(o.Configs[0]), string(o.Configs[1]), o.Bots[0], o.Bots[1],
			winner, o.Reason, strconv.Itoa(o.Turns), strconv.FormatFloat(o.Entropy[0], 'f', 2, 64), strconv.FormatFloat(o.Entropy[1], 'f', 2, 64)})
	}
	w.Flush()
}

// Table1 plays the round robin: every pair of the eight configurations,
// the strategic advisor on both sides, configurations swapped between the
// colours game by game, until a pair has opts.Decisive decisive games (or
// opts.MaxGames games). A game's seed is fixed by its place in its
// pairing's schedule (table1Games), and a pairing counts its games in that
// order up to its wanted decisive ones, so the table is the same whatever
// --jobs. With opts.Shard, it plays that shard of every pairing's whole
// schedule (MaxGames games) and returns their counts: MergeTable1 makes
// the table of all the shards.
func Table1(ctx context.Context, opts Options) ([]Pairing, error) {
	if err := checkTable1(opts); err != nil {
		return nil, err
	}
	var cw *csv.Writer
	if opts.CSV != nil {
		cw = csv.NewWriter(opts.CSV)
		_ = cw.Write(csvHeader)
	}
	if !opts.Shard.Whole() {
		return table1Shard(ctx, opts, cw)
	}
	var out []Pairing
	for i, pc := range table1Pairs() {
		sched := table1Games(opts, i, pc)
		var outs []Outcome
		for len(outs) < len(sched) {
			p, _ := countTable1(pc, outs, opts.Decisive)
			if p.Decisive() >= opts.Decisive {
				break
			}
			n := max(opts.Decisive-p.Decisive(), 2*opts.Jobs)
			n = min(n+n%2, len(sched)-len(outs))
			batch, err := playAll(ctx, sched[len(outs):len(outs)+n], opts.Jobs, false, opts.Progress)
			if err != nil {
				return nil, err
			}
			outs = append(outs, batch...)
		}
		p, used := countTable1(pc, outs, opts.Decisive)
		if cw != nil {
			writeCSV(cw, "table1", invisible.PairString(pc), outs[:used])
		}
		out = append(out, p)
	}
	return out, nil
}

// table1Shard plays opts.Shard's games of every pairing's whole schedule
// and returns each pairing's counts over them.
func table1Shard(ctx context.Context, opts Options, cw *csv.Writer) ([]Pairing, error) {
	pairs := table1Pairs()
	var all []Game
	for i, pc := range pairs {
		all = append(all, table1Games(opts, i, pc)...)
	}
	mine := shardGames(opts.Shard, all)
	outs, err := playAll(ctx, mine, opts.Jobs, false, opts.Progress)
	if err != nil {
		return nil, err
	}
	var ps []Pairing
	for _, pc := range pairs {
		var of []Outcome
		for _, o := range outs {
			if o.Configs == pc || o.Configs == [2]invisible.Config{pc[1], pc[0]} {
				of = append(of, o)
			}
		}
		if cw != nil {
			writeCSV(cw, "table1", invisible.PairString(pc), of)
		}
		p, _ := countTable1(pc, of, len(of)+1)
		ps = append(ps, p)
	}
	return ps, nil
}

// cell returns the row's wins and the decisive games of row against col.
func cell(ps []Pairing, row, col invisible.Config) (wins, decisive, draws int, ok bool) {
	for _, p := range ps {
		switch {
		case p.A == row && p.B == col:
			return p.WinsA, p.Decisive(), p.Draws, true
		case p.B == row && p.A == col:
			return p.WinsB, p.Decisive(), p.Draws, true
		}
	}
	return 0, 0, 0, false
}

// WriteTable1 prints Table 1 in the paper's layout: a cell is our win
// percentage of the row against the column with its 95 % interval, and the
// paper's figure in parentheses; then the games a pairing took and, cell
// by cell, whether our result is on the paper's side of 50 %.
func WriteTable1(w io.Writer, ps []Pairing) {
	cfgs := invisible.Configs()
	fmt.Fprintln(w, "Table 1: win % of the row's configuration against the column's (draws apart), strategic advisor on both sides.")
	fmt.Fprintln(w, "Each cell: ours [95 % Wilson interval] (the paper's).")
	fmt.Fprintln(w)
	header := []string{"row \\ col"}
	for _, c := range cfgs {
		header = append(header, c.Label())
	}
	fmt.Fprintln(w, "| "+strings.Join(header, " | ")+" |")
	fmt.Fprintln(w, "|"+strings.Repeat("---|", len(header)))
	for i, r := range cfgs {
		row := []string{r.Label()}
		for j, c := range cfgs {
			wins, n, _, ok := cell(ps, r, c)
			if !ok || i == j {
				row = append(row, "–")
				continue
			}
			lo, hi := Wilson(wins, n)
			row = append(row, fmt.Sprintf("%.1f [%.0f–%.0f] (%.1f)", 100*float64(wins)/float64(max(n, 1)), lo, hi, Table1Paper[i][j]))
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Pairings (A vs B: A's wins, B's wins, draws; decisive games; ours vs the paper for A: agree in sign about 50 %?)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| A | B | A wins | B wins | draws | decisive | A % ours | A % paper | same side of 50 % |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	agree := 0
	for _, p := range ps {
		i, j := index(p.A), index(p.B)
		ours := 100 * float64(p.WinsA) / float64(max(p.Decisive(), 1))
		paper := Table1Paper[i][j]
		same := (ours-50)*(paper-50) > 0
		word := "no"
		if same {
			word = "yes"
			agree++
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %d | %.1f | %.1f | %s |\n", p.A.Label(), p.B.Label(), p.WinsA, p.WinsB, p.Draws, p.Decisive(), ours, paper, word)
	}
	fmt.Fprintf(w, "\n%d of %d pairings on the paper's side of 50 %%.\n", agree, len(ps))
}

func index(c invisible.Config) int {
	for i, d := range invisible.Configs() {
		if d == c {
			return i
		}
	}
	return -1
}

// Table2Paper is the paper's Table 2: win % of the side with the
// information advisor, by weight (0.5, 5, 50) and column (hide Q-Q, hide
// B-B, seek Q-Q, seek B-B).
var Table2Paper = [3][4]float64{{57.2, 78.4, 50.1, 51.2}, {61.3, 82.7, 55.0, 51.2}, {13.6, 18.5, 47.6, 55.2}}

// Table2Weights are the paper's weights.
var Table2Weights = []float64{0.5, 5, 50}

// Cell2 is one cell of Table 2: the advisor side's wins, losses, draws.
type Cell2 struct {
	Advisor         string // "hide" or "seek"
	Config          invisible.Config
	Weight          float64
	Wins, Losses, D int
}

// Table2 plays each cell: the strategic advisor alone (opts.Bot) against
// it with one information advisor at a weight, in 1Q:1Q and 1B:1B,
// colours alternating, opts.Games games a cell; with opts.Shard, only that
// shard's games of the schedule (MergeTable2 makes the table of all the
// shards).
func Table2(ctx context.Context, opts Options) ([]Cell2, error) {
	var mine []scheduled2
	var games []Game
	for i, s := range table2Schedule(opts) {
		if opts.Shard.Has(i) {
			mine, games = append(mine, s), append(games, s.Game)
		}
	}
	outs, err := playAll(ctx, games, opts.Jobs, false, opts.Progress)
	if err != nil {
		return nil, err
	}
	if opts.CSV != nil {
		cw := csv.NewWriter(opts.CSV)
		_ = cw.Write(csvHeader)
		for i, s := range mine {
			writeCSV(cw, "table2", s.cell, outs[i:i+1])
		}
	}
	return countTable2(mine, outs), nil
}

// scheduled2 is one game of Table 2's schedule: its cell, and the spec of
// the side with the information advisor.
type scheduled2 struct {
	Game
	cell string
	with string
	c    Cell2
}

// table2Schedule is Table 2's games, cell by cell, with their seeds.
func table2Schedule(opts Options) []scheduled2 {
	var out []scheduled2
	seed := opts.Seed*1_000_003 + 500_000
	for _, wgt := range Table2Weights {
		for _, adv := range []string{"hide", "seek"} {
			for _, cfg := range []invisible.Config{invisible.Q1, invisible.B1} {
				with := withSetting(opts.Bot, adv, wgt)
				for k := range opts.Games {
					seed++
					g := Game{Configs: [2]invisible.Config{cfg, cfg}, Bots: [2]string{with, opts.Bot}, Seed: seed}
					if k%2 == 1 {
						g.Bots = [2]string{opts.Bot, with}
					}
					out = append(out, scheduled2{Game: g, cell: fmt.Sprintf("%s=%g %s", adv, wgt, cfg), with: with, c: Cell2{Advisor: adv, Config: cfg, Weight: wgt}})
				}
			}
		}
	}
	return out
}

// countTable2 counts the outcomes of the scheduled games into their cells,
// in the schedule's order.
func countTable2(sched []scheduled2, outs []Outcome) []Cell2 {
	var cells []Cell2
	at := map[string]int{}
	for i, s := range sched {
		j, ok := at[s.cell]
		if !ok {
			j = len(cells)
			at[s.cell] = j
			cells = append(cells, s.c)
		}
		switch o := outs[i]; {
		case !o.Decisive:
			cells[j].D++
		case o.Bots[o.Winner] == s.with:
			cells[j].Wins++
		default:
			cells[j].Losses++
		}
	}
	return cells
}

// withSetting adds key=value to a spec.
func withSetting(spec, key string, v float64) string {
	sep := ":"
	if strings.Contains(spec, ":") {
		sep = ","
	}
	return spec + sep + key + "=" + strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteTable2 prints Table 2 in the paper's layout.
func WriteTable2(w io.Writer, cells []Cell2) {
	fmt.Fprintln(w, "Table 2: win % of the side with the information advisor (draws apart) against the strategic advisor alone.")
	fmt.Fprintln(w, "Each cell: ours [95 % Wilson interval] (the paper's); W-L-D below.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| weight | hide, Q vs Q | hide, B vs B | seek, Q vs Q | seek, B vs B |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	cols := []struct {
		adv string
		cfg invisible.Config
	}{{"hide", invisible.Q1}, {"hide", invisible.B1}, {"seek", invisible.Q1}, {"seek", invisible.B1}}
	var wld []string
	for i, wgt := range Table2Weights {
		row := []string{strconv.FormatFloat(wgt, 'g', -1, 64)}
		counts := []string{""}
		for j, col := range cols {
			for _, c := range cells {
				if c.Weight == wgt && c.Advisor == col.adv && c.Config == col.cfg {
					n := c.Wins + c.Losses
					lo, hi := Wilson(c.Wins, n)
					row = append(row, fmt.Sprintf("%.1f [%.0f–%.0f] (%.1f)", 100*float64(c.Wins)/float64(max(n, 1)), lo, hi, Table2Paper[i][j]))
					counts = append(counts, fmt.Sprintf("%d-%d-%d", c.Wins, c.Losses, c.D))
				}
			}
		}
		fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
		wld = append(wld, "| "+strings.Join(counts, " | ")+" |")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| W-L-D | hide, Q vs Q | hide, B vs B | seek, Q vs Q | seek, B vs B |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i, l := range wld {
		fmt.Fprintln(w, strings.Replace(l, "|  |", "| "+strconv.FormatFloat(Table2Weights[i], 'g', -1, 64)+" |", 1))
	}
}
