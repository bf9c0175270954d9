package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// EloPoint is one match of a series: the time a move its bots had, and the
// series' bot's Elo against the opponent with its 95% interval.
type EloPoint struct {
	Seconds     float64
	Elo, Lo, Hi float64
}

// EloSeries is one bot's points, by time a move.
type EloSeries struct {
	Name   string
	Points []EloPoint
}

// eloRows are a series' points as gonum reads them, the interval as y
// error bars (clipped to the plot's range, where a run won or lost all).
type eloRows struct {
	pts    []EloPoint
	lo, hi float64
	shift  float64 // a small offset along x, so that the series do not hide each other
}

func (r eloRows) Len() int { return len(r.pts) }
func (r eloRows) XY(i int) (float64, float64) {
	return r.pts[i].Seconds * r.shift, clip(r.pts[i].Elo, r.lo, r.hi)
}
func (r eloRows) YError(i int) (float64, float64) {
	y := clip(r.pts[i].Elo, r.lo, r.hi)
	return y - clip(r.pts[i].Lo, r.lo, r.hi), clip(r.pts[i].Hi, r.lo, r.hi) - y
}

func clip(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// EloByTimeSVG draws Elo against time a move (a log axis) for each series,
// with 95% error bars, and a dashed line at 0 (the opponent): the shape of
// the MCTS paper's Figure 10. It returns a standalone SVG document.
func EloByTimeSVG(title, opponent string, series []EloSeries) ([]byte, error) {
	// The y range holds every finite interval end, within ±800 (a run won
	// or lost outright has an infinite end, clipped to the range).
	lo, hi := -100.0, 100.0
	for _, s := range series {
		for _, p := range s.Points {
			for _, v := range []float64{p.Elo, p.Lo, p.Hi} {
				if finite(v) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	lo, hi = math.Max(-800, lo-50), math.Min(800, hi+50)
	pl := newPlot(title, "seconds a move (log scale)", "Elo against "+opponent)
	pl.X.Scale = plot.LogScale{}
	xmin, xmax := math.Inf(1), math.Inf(-1)
	for i, s := range series {
		if len(s.Points) == 0 {
			continue
		}
		rows := eloRows{pts: s.Points, lo: lo, hi: hi, shift: math.Pow(1.06, float64(i)-float64(len(series)-1)/2)}
		for _, p := range s.Points {
			if !finite(p.Seconds) || p.Seconds <= 0 {
				return nil, fmt.Errorf("report: %s: time a move %v", s.Name, p.Seconds)
			}
			xmin, xmax = math.Min(xmin, p.Seconds), math.Max(xmax, p.Seconds)
		}
		xys := make(plotter.XYs, rows.Len())
		for j := range xys {
			xys[j].X, xys[j].Y = rows.XY(j)
		}
		l, err := line(xys, i, false)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bars, err := plotter.NewYErrorBars(rows)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		bars.LineStyle.Color = seriesColor(i)
		bars.LineStyle.Width = vg.Points(1.2)
		bars.CapWidth = vg.Points(6)
		dots, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		dots.GlyphStyle.Color = seriesColor(i)
		dots.GlyphStyle.Radius = vg.Points(3)
		dots.GlyphStyle.Shape = draw.CircleGlyph{}
		pl.Add(l, bars, dots)
		pl.Legend.Add(s.Name, l, dots)
	}
	if math.IsInf(xmin, 0) {
		return nil, fmt.Errorf("report: no points to draw")
	}
	pl.X.Min, pl.X.Max = xmin/1.6, xmax*1.6
	var ticks plot.ConstantTicks
	for _, s := range series {
		for _, p := range s.Points {
			if !slices.ContainsFunc(ticks, func(t plot.Tick) bool { return t.Value == p.Seconds }) {
				ticks = append(ticks, plot.Tick{Value: p.Seconds, Label: strconv.FormatFloat(p.Seconds, 'g', -1, 64)})
			}
		}
	}
	pl.X.Tick.Marker = ticks
	ref, err := rule(pl.X.Min, 0, pl.X.Max, 0, true)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	pl.Add(ref)
	pl.Y.Min, pl.Y.Max = lo, hi
	legendRoom(pl, false)
	svg, err := renderSVG(pl, figWidth, figHeight)
	if err != nil {
		return nil, err
	}
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + string(svg) + "\n"), nil
}
