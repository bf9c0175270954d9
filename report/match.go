package report

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/game"
	"github.com/blindfish-rbc/blindfish/match"
)

// MatchOptions say what a match page shows and where it goes.
type MatchOptions struct {
	Title string
	// Lines say what the page is about (who played, the clock, the folders).
	Lines []string
	// WithClock adds the clock column to the table; it is added anyway when
	// the games were played at different clocks (merged folders).
	WithClock bool
	// SPRT, when set, adds each pairing's SPRT line and its LLR over the
	// games played. Singles tests a pairing without colour-swapped pairs
	// game by game, as match --merge does.
	SPRT    *match.SPRT
	Singles bool
	// Page is the file the page will be written to: links to records and
	// viewer pages are relative to its folder.
	Page string
	// Ratings, when set, adds the rating list of the games after the
	// results table.
	Ratings *match.RatingList
}

// maxPoints bounds the points of a curve over the games played: past it the
// curve is drawn at evenly spaced games (a 4,000-game run would otherwise
// make a figure of hundreds of kilobytes that looks the same).
const maxPoints = 400

// Match builds the page of a match, or of merged match folders: the results
// table (match.ResultsTable) with the SPRT lines, the score of each row with
// its 95 % interval, and for each pairing its score (and LLR) over the
// games played and the time used per turn; then every game with a link to
// its record and to its viewer page (or the command that makes it).
//
// results are the games, nil entries skipped, in the order they were played
// (a results log's order, or game numbers); records finds their records.
func Match(results []*match.Result, records *Records, opts MatchOptions) (*Page, error) {
	var games []*match.Result
	for _, r := range results {
		if r != nil {
			games = append(games, r)
		}
	}
	page := &Page{Title: opts.Title, Lines: opts.Lines}
	for _, r := range games {
		opts.WithClock = opts.WithClock || r.Clock != games[0].Clock
	}
	pairings := match.GroupPairings(games)
	t := match.ResultsTable(pairings, opts.WithClock)
	results1 := Section{Heading: "Results", ID: "results", Table: TextTable(t.Header, t.Numeric, t.Rows)}
	if len(games) == 0 {
		results1.Notes = append(results1.Notes, "No finished games.")
		results1.Table = nil
		page.Sections = append(page.Sections, results1)
		return page, nil
	}
	results1.Notes = append(results1.Notes, "Seen from the bot (the first column): a draw counts half; elo 95% is the Wilson interval of the score mapped to Elo; times are clock time charged per turn.")
	if opts.SPRT != nil {
		for _, p := range pairings {
			if p.Key.Bot == p.Key.Opponent {
				continue
			}
			line := match.SPRTLine(*opts.SPRT, p.Games, opts.Singles)
			if len(pairings) > 1 {
				head, rest, _ := strings.Cut(line, ": ")
				line = fmt.Sprintf("%s: %s: %s", head, pairingName(p.Key, opts.WithClock), rest)
			}
			results1.Notes = append(results1.Notes, line)
		}
	}
	fig, err := scoreFigure(pairings, opts.WithClock)
	if err != nil {
		return nil, err
	}
	results1.Figures = append(results1.Figures, fig)
	page.Sections = append(page.Sections, results1)
	if opts.Ratings != nil {
		sec, err := ratingsSection(opts.Ratings)
		if err != nil {
			return nil, err
		}
		page.Sections = append(page.Sections, sec)
	}

	for i, p := range pairings {
		sec := Section{Heading: pairingName(p.Key, true), ID: fmt.Sprintf("pairing-%d", i+1)}
		fig, err := scoreOverGames(p)
		if err != nil {
			return nil, err
		}
		sec.Figures = append(sec.Figures, fig)
		if opts.SPRT != nil && p.Key.Bot != p.Key.Opponent {
			fig, err := llrOverGames(p, *opts.SPRT, opts.Singles)
			if err != nil {
				return nil, err
			}
			sec.Figures = append(sec.Figures, fig)
		}
		fig, ok, err := timeFigure(p)
		if err != nil {
			return nil, err
		}
		if ok {
			sec.Figures = append(sec.Figures, fig)
		} else {
			sec.Notes = append(sec.Notes, "No clock times: these games come from records without a results log.")
		}
		page.Sections = append(page.Sections, sec)
	}
	sec, err := gamesSection(games, records, opts.Page)
	if err != nil {
		return nil, err
	}
	page.Sections = append(page.Sections, sec)
	return page, nil
}

// pairingName names a pairing: "a vs b" and, when asked, "at 60+1".
func pairingName(k match.PairingKey, withClock bool) string {
	s := k.Bot + " vs " + k.Opponent
	if withClock {
		s += " at " + k.Clock
	}
	return s
}

// scoreOf returns the bot's score fraction over s's games and its 95 %
// Wilson interval.
func scoreOf(s *match.Stats) (p, lo, hi float64) {
	p = (float64(s.Wins) + float64(s.Draws)/2) / float64(s.Games)
	lo, hi = match.Wilson(p, s.Games, match.Z95)
	return p, lo, hi
}

// scoreRows are the points of the score figure: the value, its interval.
type scoreRows struct{ p, lo, hi []float64 }

func (s scoreRows) Len() int                    { return len(s.p) }
func (s scoreRows) XY(i int) (float64, float64) { return 100 * s.p[i], float64(i) }
func (s scoreRows) XError(i int) (float64, float64) {
	return 100 * (s.p[i] - s.lo[i]), 100 * (s.hi[i] - s.p[i])
}

// scoreFigure plots the bot's score with its 95 % interval for every row of
// the table: each colour it played, and both.
func scoreFigure(pairings []*match.Pairing, withClock bool) (Figure, error) {
	type row struct {
		label string
		s     *match.Stats
	}
	var rows []row
	for _, p := range pairings {
		name := pairingName(p.Key, withClock)
		if len(pairings) == 1 {
			name = ""
		}
		add := func(as string, s *match.Stats) {
			if s.Games > 0 {
				rows = append(rows, row{strings.TrimPrefix(shorten(name, 44)+", "+as, ", "), s})
			}
		}
		add("as white", &p.ByColor[chess.White])
		add("as black", &p.ByColor[chess.Black])
		if p.ByColor[chess.White].Games > 0 && p.ByColor[chess.Black].Games > 0 {
			add("both", &p.Both)
		}
	}
	// The first row at the top: nominal y counts upwards.
	var data scoreRows
	labels := make([]string, len(rows))
	for i := range rows {
		r := rows[len(rows)-1-i]
		p, lo, hi := scoreOf(r.s)
		data.p, data.lo, data.hi = append(data.p, p), append(data.lo, lo), append(data.hi, hi)
		labels[i] = fmt.Sprintf("%s (%d games)", r.label, r.s.Games)
	}
	pl := newPlot("Score with 95% interval", "score of the bot (%)", "")
	pl.NominalY(labels...)
	pl.X.Min, pl.X.Max = 0, 100
	half, err := rule(50, -0.5, 50, float64(len(rows))-0.5, true)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	bars, dots, err := intervalMarks(data)
	if err != nil {
		return Figure{}, err
	}
	pl.Add(half, bars, dots)
	svg, err := renderSVG(pl, figWidth, vg.Length(math.Max(2.2, 0.9+0.38*float64(len(rows))))*vg.Inch)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Caption: "The bot's score (a win 1, a draw ½) over its games, per colour and both, with the 95% Wilson interval; the dashed line is an even score.", SVG: svg}, nil
}

// curve returns the games at which a curve over n games is drawn: every
// game up to maxPoints, else evenly spaced games and the last.
func curve(n int) []int {
	if n <= maxPoints {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	}
	out := make([]int, 0, maxPoints+1)
	for i := range maxPoints {
		out = append(out, 1+i*(n-1)/maxPoints)
	}
	return append(out, n)
}

// scoreOverGames plots the bot's running score over the games played, with
// the 95 % interval of the games so far.
func scoreOverGames(p *match.Pairing) (Figure, error) {
	cum := make([]float64, len(p.Games)+1) // half-points after k games
	for i, r := range p.Games {
		cum[i+1] = cum[i] + float64(r.Points())
	}
	var mid, lo, hi plotter.XYs
	for _, k := range curve(len(p.Games)) {
		s := cum[k] / 2 / float64(k)
		l, h := match.Wilson(s, k, match.Z95)
		x := float64(k)
		mid = append(mid, plotter.XY{X: x, Y: 100 * s})
		lo = append(lo, plotter.XY{X: x, Y: 100 * l})
		hi = append(hi, plotter.XY{X: x, Y: 100 * h})
	}
	pl := newPlot("Score over the games played", "games played", "score of the bot (%)")
	percentAxis(pl)
	n := float64(len(p.Games))
	ref, err := rule(1, 50, math.Max(n, 2), 50, true)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	area, err := band(lo, hi, 0)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	l, err := line(mid, 0, false)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	pl.Add(area, ref, l)
	pl.Legend.Add("score", l)
	pl.Legend.Add("95% interval", area)
	percentAxis(pl) // Add widened it to the data
	svg, err := renderSVG(pl, figWidth, figHeight)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Caption: fmt.Sprintf("%s: the score after each game, in the order the games finished, and its 95%% interval; %d games.",
		pairingName(p.Key, false), len(p.Games)), SVG: svg}, nil
}

// llrOverGames plots the SPRT's log-likelihood ratio over the games played,
// between its acceptance bounds.
func llrOverGames(p *match.Pairing, s match.SPRT, singles bool) (Figure, error) {
	var xys plotter.XYs
	for _, k := range curve(len(p.Games)) {
		llr := match.LLROf(s, p.Games[:k], singles)
		if !finite(llr) {
			continue
		}
		xys = append(xys, plotter.XY{X: float64(k), Y: llr})
	}
	lo, hi := s.Bounds()
	pl := newPlot("SPRT log-likelihood ratio", "games played", "LLR")
	n := math.Max(float64(len(p.Games)), 2)
	pl.Y.Min, pl.Y.Max = lo*1.15, hi*1.15
	for _, y := range xys {
		pl.Y.Min, pl.Y.Max = math.Min(pl.Y.Min, y.Y), math.Max(pl.Y.Max, y.Y)
	}
	var parts []plot.Plotter
	for _, b := range []float64{lo, hi} {
		r, err := rule(1, b, n, b, true)
		if err != nil {
			return Figure{}, fmt.Errorf("report: %w", err)
		}
		parts = append(parts, r)
	}
	zero, err := rule(1, 0, n, 0, false)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	zero.LineStyle.Color = seriesColor(6)
	zero.LineStyle.Width = vg.Points(0.5)
	parts = append(parts, zero)
	if len(xys) > 0 {
		l, err := line(xys, 1, false)
		if err != nil {
			return Figure{}, fmt.Errorf("report: %w", err)
		}
		parts = append(parts, l)
		pl.Legend.Add("LLR", l)
	}
	pl.Add(parts...)
	legendRoom(pl, false)
	svg, err := renderSVG(pl, figWidth, figHeight)
	if err != nil {
		return Figure{}, err
	}
	return Figure{Caption: fmt.Sprintf("%s: the log-likelihood ratio of H1 (elo %g) to H0 (elo %g) after each game; the dashed lines are the bounds %.2f and %.2f, where the test accepts H0 or H1.",
		pairingName(p.Key, false), s.Elo1, s.Elo0, lo, hi), SVG: svg}, nil
}

// timeFigure plots the clock time used per turn by the bot and by its
// opponent: the mean at each turn number over the games that reached it
// when the turns' times are known, else the mean per turn of each game over
// the games played. ok is false when no game was timed.
func timeFigure(p *match.Pairing) (fig Figure, ok bool, err error) {
	// sums[side][k]: seconds used at turn k by the bot (0) and the
	// opponent (1), and how many games it is summed over.
	var sums [2][]float64
	var counts [2][]int
	perTurn := false
	var perGame [2]plotter.XYs
	timed := 0
	for _, r := range p.Games {
		if !r.Timed {
			continue
		}
		timed++
		sides := [2]chess.Color{r.BotColor, r.BotColor.Other()}
		for side, c := range sides {
			if turns := r.Turns[c]; turns > 0 {
				perGame[side] = append(perGame[side], plotter.XY{X: float64(timed), Y: r.Used[c].Seconds() / float64(turns)})
			}
			for k, d := range r.TurnTimes[c] {
				perTurn = true
				for len(sums[side]) <= k {
					sums[side] = append(sums[side], 0)
					counts[side] = append(counts[side], 0)
				}
				sums[side][k] += d.Seconds()
				counts[side][k]++
			}
		}
	}
	if timed == 0 {
		return Figure{}, false, nil
	}
	names := [2]string{p.Key.Bot, p.Key.Opponent}
	var series [2]plotter.XYs
	var title, xLabel, caption string
	if perTurn {
		title, xLabel = "Time used per turn", "turn (each side's own)"
		for side := range 2 {
			for k, sum := range sums[side] {
				series[side] = append(series[side], plotter.XY{X: float64(k + 1), Y: sum / float64(counts[side][k])})
			}
		}
		caption = fmt.Sprintf("%s: the clock time charged at each of a side's turns, the mean over the games that reached that turn (later turns rest on fewer games).",
			pairingName(p.Key, false))
	} else {
		title, xLabel = "Time used per turn, game by game", "games played"
		series = perGame
		caption = fmt.Sprintf("%s: each game's clock time per turn, for each side (the results log has no times of single turns).", pairingName(p.Key, false))
	}
	unit, scale := timeUnit(series)
	pl := newPlot(title, xLabel, "time per turn ("+unit+")")
	pl.Y.Min = 0
	for side := range 2 {
		if len(series[side]) == 0 {
			continue
		}
		xys := make(plotter.XYs, len(series[side]))
		for i, xy := range series[side] {
			xys[i] = plotter.XY{X: xy.X, Y: xy.Y * scale}
		}
		l, err := line(xys, side, side == 1)
		if err != nil {
			return Figure{}, false, fmt.Errorf("report: %w", err)
		}
		pl.Add(l)
		who := "bot"
		if side == 1 {
			who = "opponent"
		}
		pl.Legend.Add(who+": "+shorten(names[side], 40), l)
	}
	legendRoom(pl, false)
	svg, err := renderSVG(pl, figWidth, figHeight)
	if err != nil {
		return Figure{}, false, err
	}
	return Figure{Caption: caption, SVG: svg}, true, nil
}

// timeUnit picks the unit that shows times (in seconds) with few digits.
func timeUnit(series [2]plotter.XYs) (unit string, scale float64) {
	top := 0.0
	for _, s := range series {
		for _, xy := range s {
			top = math.Max(top, xy.Y)
		}
	}
	switch {
	case top < 1e-3:
		return "µs", 1e6
	case top < 1:
		return "ms", 1e3
	}
	return "s", 1
}

// gamesSection lists every game with its result and links.
func gamesSection(games []*match.Result, records *Records, page string) (Section, error) {
	pageDir := filepath.Dir(page)
	sec := Section{Heading: "Games", ID: "games",
		Notes: []string{"Each game links to its record (the archive that holds it, when archived) and to its viewer page, " +
			"or shows the command that makes the page (run it in this page's folder; the page is written beside the record, " +
			"and this page links it once made again)."}}
	if slices.ContainsFunc(games, func(r *match.Result) bool { return !viewable(r.Variant) }) {
		sec.Notes = append(sec.Notes, "The viewer draws RBC and Kriegspiel games only: a game of another variant links its record.")
	}
	t := &Table{Header: []string{"game", "white", "black", "result", "reason", "turns", "clock", "time/turn white", "time/turn black", "record", "viewer"},
		Numeric: []int{0, 5, 7, 8}}
	// By session and game number (the results log's order is the order the
	// games finished); games without numbers after them, as they came.
	games = slices.Clone(games)
	slices.SortStableFunc(games, func(a, b *match.Result) int {
		switch {
		case a.Numbered != b.Numbered:
			if a.Numbered {
				return -1
			}
			return 1
		case !a.Numbered:
			return 0
		}
		return cmp.Or(cmp.Compare(a.Dir, b.Dir), cmp.Compare(a.Seed, b.Seed), cmp.Compare(a.Game, b.Game))
	})
	for _, r := range games {
		num := "-"
		if r.Numbered {
			num = strconv.Itoa(r.Game)
		}
		result := "½-½"
		if r.Outcome.HasWinner {
			result = map[chess.Color]string{chess.White: "1-0", chess.Black: "0-1"}[r.Outcome.Winner]
		}
		reason := "-"
		if r.Outcome.Reason != "" {
			reason = r.Outcome.Reason
		}
		times := [2]string{"-", "-"}
		if r.Timed {
			for c := range 2 {
				times[c] = match.FormatPerTurn(r.Used[c], r.Turns[c])
			}
		}
		var rec, view Cell
		if records != nil {
			place, found, err := records.Find(r.Dir, r.Record)
			if err != nil {
				return Section{}, err
			}
			rec, view = gameLinks(pageDir, place, found)
			if !viewable(r.Variant) {
				view = Cell{Text: "-"}
			}
		} else {
			rec, view = Cell{Text: "-"}, Cell{Text: "-"}
		}
		t.Rows = append(t.Rows, []Cell{{Text: num}, {Text: r.White}, {Text: r.Black}, {Text: result}, {Text: reason},
			{Text: strconv.Itoa(r.Turns[0] + r.Turns[1])}, {Text: r.Clock}, {Text: times[0]}, {Text: times[1]}, rec, view})
	}
	sec.Table = t
	return sec, nil
}

// viewable reports whether `blindfish view` draws games of variant (a
// results log's "variant"): those of every game in the table.
func viewable(variant string) bool {
	_, ok := game.OfVariant(variant)
	return ok
}

// shorten cuts s to at most n characters, marking the cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// intervalMarks draws data's points as dots on horizontal interval bars, the
// style the score and rating charts share.
func intervalMarks(data interface {
	plotter.XYer
	plotter.XErrorer
}) (*plotter.XErrorBars, *plotter.Scatter, error) {
	bars, err := plotter.NewXErrorBars(data)
	if err != nil {
		return nil, nil, fmt.Errorf("report: %w", err)
	}
	bars.LineStyle.Color = seriesColor(0)
	bars.LineStyle.Width = vg.Points(2)
	bars.CapWidth = vg.Points(8)
	dots, err := plotter.NewScatter(data)
	if err != nil {
		return nil, nil, fmt.Errorf("report: %w", err)
	}
	dots.GlyphStyle.Color = seriesColor(1)
	dots.GlyphStyle.Radius = vg.Points(3.5)
	dots.GlyphStyle.Shape = draw.CircleGlyph{}
	return bars, dots, nil
}
