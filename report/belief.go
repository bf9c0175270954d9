package report

import (
	"fmt"
	"math"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// BeliefRun is one recorded game replayed from one side through one belief
// sampler, turn by turn (what `blindfish belief` measures).
type BeliefRun struct {
	Sampler string
	Color   string
	// Record is where the game's record is, for the page's link to it.
	Record RecordPlace
	Turns  []BeliefTurn
}

// BeliefTurn is one replayed turn.
type BeliefTurn struct {
	// Size is the number of boards in the belief after the turn's sense.
	Size int
	// Entropy is the sampler's estimate of its uncertainty then, in bits.
	Entropy float64
	// Present says whether the true board was in the belief at every check
	// of the turn.
	Present bool
	// Millis is the time the sampler took over the turn's updates.
	Millis float64
}

// BeliefOptions say what a belief page shows and where it goes.
type BeliefOptions struct {
	Title string
	Lines []string
	// Summary is the totals table the command prints, shown as it is.
	Summary *Table
	// Page is the file the page will be written to (links are relative to
	// its folder).
	Page string
}

// Belief builds the page of a belief benchmark: the summary table, and
// size, entropy, recall and time at each turn, one line per sampler in each
// figure, so that samplers replayed over the same games compare side by
// side; then the games with links to their records.
func Belief(runs []BeliefRun, opts BeliefOptions) (*Page, error) {
	page := &Page{Title: opts.Title, Lines: opts.Lines}
	sum := Section{Heading: "Summary", ID: "summary", Table: opts.Summary}
	if len(runs) == 0 {
		sum.Notes = append(sum.Notes, "No games replayed.")
		page.Sections = append(page.Sections, sum)
		return page, nil
	}
	perTurn, err := beliefPerTurn(runs)
	if err != nil {
		return nil, err
	}
	page.Sections = append(page.Sections, sum, perTurn, beliefGames(runs, filepath.Dir(opts.Page)))
	return page, nil
}

// beliefMeasure is one figure of a belief page: a value of each turn,
// averaged over the runs at each turn.
type beliefMeasure struct {
	title, yLabel, caption string
	log                    bool
	value                  func(t BeliefTurn) float64
	// geometric averages the values at one turn geometrically, for sizes
	// and times that span orders of magnitude (else arithmetically).
	geometric bool
	percent   bool
}

// beliefMeasures are the figures of a belief page, in order.
func beliefMeasures() []beliefMeasure {
	return []beliefMeasure{
		{title: "Belief size after the sense", yLabel: "boards (geometric mean)", log: true, geometric: true,
			value:   func(t BeliefTurn) float64 { return math.Max(1, float64(t.Size)) },
			caption: "Boards in the belief after each turn's sense, the geometric mean over the games and sides replayed (log scale)."},
		{title: "Entropy after the sense", yLabel: "bits (mean)",
			value:   func(t BeliefTurn) float64 { return t.Entropy },
			caption: "The sampler's entropy estimate after each turn's sense, the mean over the games and sides replayed."},
		{title: "Recall", yLabel: "true board kept (%)", percent: true,
			value: func(t BeliefTurn) float64 {
				if t.Present {
					return 1
				}
				return 0
			},
			caption: "The share of games and sides whose belief held the true board all through the turn."},
		{title: "Time per turn", yLabel: "ms (geometric mean)", log: true, geometric: true,
			value:   func(t BeliefTurn) float64 { return math.Max(1e-3, t.Millis) },
			caption: "The time the sampler took over each turn's updates (notice, sense, move), the geometric mean (log scale)."},
	}
}

// beliefPerTurn is the section of figures, one line per sampler in each.
func beliefPerTurn(runs []BeliefRun) (Section, error) {
	var samplers []string
	bySampler := map[string][]BeliefRun{}
	for _, r := range runs {
		if _, ok := bySampler[r.Sampler]; !ok {
			samplers = append(samplers, r.Sampler)
		}
		bySampler[r.Sampler] = append(bySampler[r.Sampler], r)
	}
	sec := Section{Heading: "Per turn", ID: "per-turn",
		Notes: []string{"Each line is a sampler; each point is the turn (of the side replayed) over the games that lasted that long, so later turns rest on fewer games."}}
	for _, m := range beliefMeasures() {
		pl := newPlot(m.title, "turn", m.yLabel)
		if m.log {
			pl.Y.Scale = plot.LogScale{}
			pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		}
		drawn := 0
		for i, name := range samplers {
			xys := m.means(bySampler[name])
			if len(xys) == 0 {
				continue
			}
			l, err := line(xys, i, false)
			if err != nil {
				return sec, fmt.Errorf("report: %w", err)
			}
			pl.Add(l)
			pl.Legend.Add(name, l)
			drawn++
		}
		if drawn == 0 {
			continue
		}
		if m.percent {
			percentAxis(pl)
		} else {
			legendRoom(pl, m.log)
		}
		svg, err := renderSVG(pl, figWidth, figHeight)
		if err != nil {
			return sec, err
		}
		sec.Figures = append(sec.Figures, Figure{Caption: m.caption, SVG: svg})
	}
	return sec, nil
}

// means is the measure's mean over runs at each turn (the turns whose mean
// is finite).
func (m beliefMeasure) means(runs []BeliefRun) plotter.XYs {
	var sums []float64
	var counts []int
	for _, r := range runs {
		for k, t := range r.Turns {
			for len(sums) <= k {
				sums, counts = append(sums, 0), append(counts, 0)
			}
			v := m.value(t)
			if m.geometric {
				v = math.Log(v)
			}
			sums[k] += v
			counts[k]++
		}
	}
	var xys plotter.XYs
	for k, s := range sums {
		v := s / float64(counts[k])
		switch {
		case m.geometric:
			v = math.Exp(v)
		case m.percent:
			v *= 100
		}
		if finite(v) {
			xys = append(xys, plotter.XY{X: float64(k + 1), Y: v})
		}
	}
	return xys
}

// beliefGames is the section of the games, once each, with links to their
// records relative to pageDir.
func beliefGames(runs []BeliefRun, pageDir string) Section {
	games := &Table{Header: []string{"record", "viewer", "sides", "turns of a side"}, Numeric: []int{3}}
	type game struct {
		sides map[string]bool
		turns int
	}
	seen := map[string]*game{}
	var order []RecordPlace
	for _, r := range runs {
		key := r.Record.Spec()
		g := seen[key]
		if g == nil {
			g = &game{sides: map[string]bool{}}
			seen[key] = g
			order = append(order, r.Record)
		}
		g.sides[r.Color] = true
		g.turns = max(g.turns, len(r.Turns))
	}
	for _, place := range order {
		g := seen[place.Spec()]
		rec, view := gameLinks(pageDir, place, place.File != "")
		sides := ""
		for _, c := range []string{"white", "black"} {
			if g.sides[c] {
				if sides != "" {
					sides += ", "
				}
				sides += c
			}
		}
		games.Rows = append(games.Rows, []Cell{rec, view, {Text: sides}, {Text: fmt.Sprint(g.turns)}})
	}
	return Section{Heading: "Games", ID: "games", Table: games,
		Notes: []string{"The games replayed, with their records and viewer pages (or the command that makes one, run in this page's folder)."}}
}
