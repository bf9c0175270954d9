package paper

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/match"
)

// The tables are spread over machines as matches are (match.Shard): a
// table's schedule is fixed by its options alone, every game with its
// seed, so shard K of N plays the schedule's games i with i mod N = K, each
// as the whole run would play it, and writes them as the run's CSV lines;
// MergeTable1 and MergeTable2 make the table of the shards' lines, the
// table the unsharded run prints (TestShardsMergeToTheWholeRun).

// table1Stride spaces the pairings' seeds: pairing i's game k has seed
// base + i·table1Stride + k + 1, so that a game's seed depends on its place
// in the schedule alone, never on how many games the pairings before it
// took. It bounds --max-games.
const table1Stride = 10_007

// table1Pairs returns Table 1's pairings in the order they are played.
func table1Pairs() [][2]invisible.Config {
	cfgs := invisible.Configs()
	var out [][2]invisible.Config
	for i := range cfgs {
		for j := i + 1; j < len(cfgs); j++ {
			out = append(out, [2]invisible.Config{cfgs[i], cfgs[j]})
		}
	}
	return out
}

// table1Games returns pairing i's schedule: opts.MaxGames games of the
// strategic advisor on both sides, the configurations swapped between the
// colours game by game.
func table1Games(opts Options, i int, p [2]invisible.Config) []Game {
	games := make([]Game, opts.MaxGames)
	for k := range games {
		games[k] = Game{Configs: p, Bots: [2]string{opts.Bot, opts.Bot}, Seed: opts.Seed*1_000_003 + int64(i)*table1Stride + int64(k) + 1}
		if k%2 == 1 {
			games[k].Configs = [2]invisible.Config{p[1], p[0]}
		}
	}
	return games
}

// countTable1 counts a pairing's outcomes in the schedule's order up to the
// one that makes the wanted decisive games, and returns the pairing and how
// many outcomes it used: the games past it, played in the last batch of the
// whole run or by a shard, do not count, so that the table does not depend
// on --jobs or on the shards.
func countTable1(pc [2]invisible.Config, outs []Outcome, decisive int) (Pairing, int) {
	p := Pairing{A: pc[0], B: pc[1]}
	used := 0
	for _, o := range outs {
		if p.Decisive() >= decisive {
			break
		}
		used++
		switch {
		case !o.Decisive:
			p.Draws++
		case o.Configs[o.Winner] == p.A:
			p.WinsA++
		default:
			p.WinsB++
		}
	}
	return p, used
}

// shardGames returns the games of a schedule that shard s plays, by their
// place in it.
func shardGames(s match.Shard, games []Game) []Game {
	var out []Game
	for i, g := range games {
		if s.Has(i) {
			out = append(out, g)
		}
	}
	return out
}

// Line is one line of a run's CSV: the table, the cell and the game's
// outcome.
type Line struct {
	Table, Cell string
	Outcome
}

// ReadCSV reads the lines a run wrote (writeCSV), its header first.
func ReadCSV(r io.Reader) ([]Line, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvHeader)
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("paper: the CSV's header: %w", err)
	}
	if !slices.Equal(head, csvHeader) {
		return nil, fmt.Errorf("paper: the CSV's header is %v, want %v", head, csvHeader)
	}
	var out []Line
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("paper: %w", err)
		}
		l, err := parseLine(rec)
		if err != nil {
			line, _ := cr.FieldPos(0)
			return nil, fmt.Errorf("paper: CSV line %d: %w", line, err)
		}
		out = append(out, l)
	}
}

// parseLine reads one line's fields, in csvHeader's order.
func parseLine(f []string) (Line, error) {
	l := Line{Table: f[0], Cell: f[1]}
	var err error
	if l.Seed, err = strconv.ParseInt(f[2], 10, 64); err != nil {
		return Line{}, fmt.Errorf("paper: the seed: %w", err)
	}
	for c := range 2 {
		if l.Configs[c], err = invisible.ParseConfig(f[3+c]); err != nil {
			return Line{}, err
		}
		if f[5+c] == "" {
			return Line{}, errors.New("a bot without a name")
		}
		l.Bots[c] = f[5+c]
	}
	switch f[7] {
	case "draw":
	case "white", "black":
		l.Decisive = true
		if l.Winner, err = chess.ParseColor(f[7]); err != nil {
			return Line{}, err
		}
	default:
		return Line{}, fmt.Errorf("winner %q: want white, black or draw", f[7])
	}
	l.Reason = f[8]
	if l.Turns, err = strconv.Atoi(f[9]); err != nil || l.Turns < 0 {
		return Line{}, fmt.Errorf("turns %q: want a whole number ≥ 0", f[9])
	}
	for c := range 2 {
		if l.Entropy[c], err = strconv.ParseFloat(f[10+c], 64); err != nil {
			return Line{}, fmt.Errorf("paper: the entropy: %w", err)
		}
	}
	return l, nil
}

// ReadShards reads the CSV lines of table from paths: a file, or a folder
// whose TABLE.shard-*.csv files are read (its TABLE.csv when it has none:
// a whole run's, or a merge's).
func ReadShards(table string, paths []string) ([]Line, error) {
	var out []Line
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			files, _ = filepath.Glob(filepath.Join(p, table+".shard-*.csv"))
			if whole := filepath.Join(p, table+".csv"); len(files) == 0 && fileExists(whole) {
				files = []string{whole}
			}
			if len(files) == 0 {
				return nil, fmt.Errorf("paper: %s holds no %s.csv or %s.shard-*.csv", p, table, table)
			}
		}
		for _, name := range files {
			f, err := os.Open(name)
			if err != nil {
				return nil, fmt.Errorf("paper: %w", err)
			}
			lines, err := ReadCSV(f)
			f.Close()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			for _, l := range lines {
				if l.Table == table {
					out = append(out, l)
				}
			}
		}
	}
	return out, nil
}

func fileExists(name string) bool {
	st, err := os.Stat(name)
	return err == nil && !st.IsDir()
}

// bySeed indexes lines by seed, refusing two that disagree on one game.
func bySeed(lines []Line) (map[int64]Line, error) {
	m := map[int64]Line{}
	for _, l := range lines {
		if old, ok := m[l.Seed]; ok && old != l {
			return nil, fmt.Errorf("paper: two lines of seed %d disagree: %+v and %+v", l.Seed, old.Outcome, l.Outcome)
		}
		m[l.Seed] = l
	}
	return m, nil
}

// lookup returns the outcome of the schedule's game g among the lines,
// checking that the line is that game.
func lookup(m map[int64]Line, g Game) (Outcome, bool, error) {
	l, ok := m[g.Seed]
	if !ok {
		return Outcome{}, false, nil
	}
	if l.Configs != g.Configs || l.Bots != g.Bots {
		return Outcome{}, false, fmt.Errorf("paper: the line of seed %d is %v %v, the schedule's game %v %v: merge with the run's --seed, --bot, --decisive, --max-games and --games",
			g.Seed, l.Configs, l.Bots, g.Configs, g.Bots)
	}
	return l.Outcome, true, nil
}

// MergeTable1 makes Table 1 of the shards' lines, as Table1 would have
// played it with opts (the run's --seed, --bot, --decisive, --max-games):
// each pairing's games in the schedule's order up to its wanted decisive
// ones. It also returns the outcomes the table counts, in order. A game
// the table needs that no shard played is an error.
func MergeTable1(opts Options, lines []Line) ([]Pairing, []Outcome, error) {
	if err := checkTable1(opts); err != nil {
		return nil, nil, err
	}
	m, err := bySeed(lines)
	if err != nil {
		return nil, nil, err
	}
	var ps []Pairing
	var used []Outcome
	for i, pc := range table1Pairs() {
		var outs []Outcome
		for k, g := range table1Games(opts, i, pc) {
			if p, _ := countTable1(pc, outs, opts.Decisive); p.Decisive() >= opts.Decisive {
				break
			}
			o, ok, err := lookup(m, g)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				return nil, nil, fmt.Errorf("paper: table1 %s: game %d (seed %d) is in none of the shards given", invisible.PairString(pc), k, g.Seed)
			}
			outs = append(outs, o)
		}
		p, n := countTable1(pc, outs, opts.Decisive)
		ps, used = append(ps, p), append(used, outs[:n]...)
	}
	return ps, used, nil
}

// MergeTable2 makes Table 2 of the shards' lines, as Table2 would have
// played it with opts (the run's --seed, --bot, --games); every game of
// the schedule must be in one of them.
func MergeTable2(opts Options, lines []Line) ([]Cell2, []Outcome, error) {
	m, err := bySeed(lines)
	if err != nil {
		return nil, nil, err
	}
	sched := table2Schedule(opts)
	outs := make([]Outcome, len(sched))
	for i, s := range sched {
		o, ok, err := lookup(m, s.Game)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return nil, nil, fmt.Errorf("paper: table2 %s: the game of seed %d is in none of the shards given", s.cell, s.Seed)
		}
		outs[i] = o
	}
	return countTable2(sched, outs), outs, nil
}

// checkTable1 refuses options whose schedule the seeds cannot space.
func checkTable1(opts Options) error {
	if opts.MaxGames > table1Stride || opts.MaxGames < 1 {
		return fmt.Errorf("paper: --max-games %d: want 1 to %d", opts.MaxGames, table1Stride)
	}
	return nil
}
