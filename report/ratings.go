package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot/vg"

	"github.com/blindfish-rbc/blindfish/match"
)

// ratingsSection is the rating list of a page's games: for each group its
// table and a chart of the ratings with their 95 % intervals.
func ratingsSection(l *match.RatingList) (Section, error) {
	sec := Section{Heading: "Rating list", ID: "ratings", Notes: []string{l.Notes() + "."}}
	groups := []*match.RatingGroup{&l.Main}
	for i := range l.Apart {
		groups = append(groups, &l.Apart[i])
	}
	for _, g := range groups {
		if len(g.Ratings) == 0 {
			continue
		}
		t := match.RatingTable(*g)
		if g != &l.Main {
			// The page has one table per section: a group apart is told
			// in words, its chart drawn below the main one.
			sec.Notes = append(sec.Notes, l.Heading(g)+": "+ratingsInWords(g)+".")
		} else {
			sec.Notes = append(sec.Notes, l.Heading(g)+".")
			sec.Table = TextTable(t.Header, t.Numeric, t.Rows)
		}
		fig, err := ratingsFigure(g, g == &l.Main)
		if err != nil {
			return Section{}, err
		}
		sec.Figures = append(sec.Figures, fig)
	}
	return sec, nil
}

// ratingsInWords lists a group's ratings in one line: "a +120 ± 80, ...".
func ratingsInWords(g *match.RatingGroup) string {
	s := ""
	for i, r := range g.Ratings {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %s ± %.0f (%d games)", r.Bot, match.FormatElo(r.Elo), r.Err95, r.Games)
	}
	return s
}

// ratingRows are the points of a rating chart: the rating, its interval.
type ratingRows struct{ elo, err []float64 }

func (s ratingRows) Len() int                        { return len(s.elo) }
func (s ratingRows) XY(i int) (float64, float64)     { return s.elo[i], float64(i) }
func (s ratingRows) XError(i int) (float64, float64) { return s.err[i], s.err[i] }

// bounds returns the range the intervals span, 0 included.
func (s ratingRows) bounds() (lo, hi float64) {
	lo, hi = 0, 0
	for i := range s.elo {
		lo = math.Min(lo, s.elo[i]-s.err[i])
		hi = math.Max(hi, s.elo[i]+s.err[i])
	}
	return lo, hi
}

// ratingsFigure draws a group's ratings as a horizontal interval chart, the
// best bot at the top, in the style of the score chart.
func ratingsFigure(g *match.RatingGroup, main bool) (Figure, error) {
	n := len(g.Ratings)
	var data ratingRows
	labels := make([]string, n)
	for i := range n {
		r := g.Ratings[n-1-i] // nominal y counts upwards
		data.elo = append(data.elo, r.Elo)
		data.err = append(data.err, r.Err95)
		labels[i] = fmt.Sprintf("%s (%d games)", shorten(r.Bot, 44), r.Games)
	}
	if !finite(append(append([]float64{}, data.elo...), data.err...)...) {
		return Figure{}, fmt.Errorf("report: ratings not finite")
	}
	title, zero := "Ratings with 95% interval", "0"
	if g.Anchor != "" {
		zero = g.Anchor
	}
	pl := newPlot(title, "Elo ("+zero+" = 0)", "")
	if g.Anchor == "" {
		pl.X.Label.Text = "Elo (the group's mean = 0)"
	}
	pl.NominalY(labels...)
	lo, hi := data.bounds()
	pad := math.Max(20, 0.05*(hi-lo))
	pl.X.Min, pl.X.Max = lo-pad, hi+pad
	ref, err := rule(0, -0.5, 0, float64(n)-0.5, true)
	if err != nil {
		return Figure{}, fmt.Errorf("report: %w", err)
	}
	bars, dots, err := intervalMarks(data)
	if err != nil {
		return Figure{}, err
	}
	pl.Add(ref, bars, dots)
	svg, err := renderSVG(pl, figWidth, vg.Length(math.Max(2.2, 0.9+0.38*float64(n)))*vg.Inch)
	if err != nil {
		return Figure{}, err
	}
	caption := "Each bot's rating on one Elo scale fitted to all its games, with its 95% interval; the dashed line is "
	if g.Anchor != "" {
		caption += g.Anchor + ", rated 0 (its own interval is none: the scale is fixed at it)."
	} else {
		caption += "the group's mean rating."
	}
	if !main {
		caption = "A group not linked to the list above by any game, on a scale of its own: " + caption
	}
	return Figure{Caption: caption, SVG: svg}, nil
}
