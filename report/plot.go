package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The figures' size in points: wide enough for a laptop column, and scaled
// to the page's width by its styles (the SVG keeps its viewBox).
const (
	figWidth  = 6.4 * vg.Inch
	figHeight = 3.6 * vg.Inch
)

// palette holds the colours of the series, told apart by people with the
// common colour-vision deficiencies (Okabe and Ito's set, reordered).
var palette = [...]color.RGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermilion
	{0, 158, 115, 255},   // bluish green
	{204, 121, 167, 255}, // reddish purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{120, 120, 120, 255}, // grey
	{240, 228, 66, 255},  // yellow
}

// seriesColor returns the colour of series i.
func seriesColor(i int) color.RGBA { return palette[i%len(palette)] }

// faint returns c at the given opacity, for bands behind a line.
func faint(c color.RGBA, alpha uint8) color.NRGBA {
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: alpha}
}

// newPlot returns a plot with the pages' looks: sans-serif text (gonum's
// default is serif), a light grid, the legend at the top left.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	sans := func(s *font.Font) { s.Variant = "Sans" }
	sans(&p.Title.TextStyle.Font)
	sans(&p.X.Label.TextStyle.Font)
	sans(&p.Y.Label.TextStyle.Font)
	sans(&p.X.Tick.Label.Font)
	sans(&p.Y.Tick.Label.Font)
	sans(&p.Legend.TextStyle.Font)
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 225}
	grid.Horizontal.Color = color.Gray{Y: 225}
	p.Add(grid)
	return p
}

// line returns a line through xys in series colour i (dashed when asked).
func line(xys plotter.XYs, i int, dashed bool) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.LineStyle.Color = seriesColor(i)
	l.LineStyle.Width = vg.Points(1.6)
	if dashed {
		l.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	return l, nil
}

// rule returns a thin grey line from (x0, y0) to (x1, y1): a reference such
// as 50 % or an SPRT bound.
func rule(x0, y0, x1, y1 float64, dashed bool) (*plotter.Line, error) {
	l, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}})
	if err != nil {
		return nil, err
	}
	l.LineStyle.Color = color.Gray{Y: 110}
	l.LineStyle.Width = vg.Points(1)
	if dashed {
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	}
	return l, nil
}

// band returns the area between lo and hi (same xs) in series colour i,
// faint: a confidence band behind its line.
func band(lo, hi plotter.XYs, i int) (*plotter.Polygon, error) {
	ring := make(plotter.XYs, 0, len(lo)+len(hi))
	ring = append(ring, lo...)
	for j := len(hi) - 1; j >= 0; j-- {
		ring = append(ring, hi[j])
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, err
	}
	poly.Color = faint(seriesColor(i), 60)
	poly.LineStyle.Width = 0
	return poly, nil
}

// legendRoom raises the top of p's y axis, once the data is added, so that
// the legend in the top left corner sits above the lines rather than on
// them. A log axis gets the room in decades.
func legendRoom(p *plot.Plot, log bool) {
	lo, hi := p.Y.Min, p.Y.Max
	if log {
		if lo <= 0 || hi <= 0 {
			return
		}
		p.Y.Max = math.Exp(math.Log(hi) + 0.45*math.Max(math.Log(hi/lo), math.Log(10)))
		return
	}
	p.Y.Max = hi + 0.3*math.Max(hi-lo, 1e-9)
}

// percentAxis makes p's y axis 0–100 % with room for the legend above 100,
// ticked at the quarters only.
func percentAxis(p *plot.Plot) {
	p.Y.Min, p.Y.Max = 0, 128
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 25}, {Value: 50, Label: "50"}, {Value: 75}, {Value: 100, Label: "100"}}
}

// renderSVG draws p as SVG and returns the markup to put inline in a page:
// without the XML prolog, and sized by the page (the viewBox keeps the
// aspect). gonum escapes every text it writes.
func renderSVG(p *plot.Plot, w, h vg.Length) (svg template.HTML, err error) {
	// gonum panics on data it cannot draw (a log axis over zero, an empty
	// range); data is checked before it gets here, and a figure that still
	// fails must cost its page, not the command that wanted the page.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("report: draw %q: %v", p.Title.Text, r)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return "", fmt.Errorf("report: draw %q: %w", p.Title.Text, err)
	}
	out := buf.Bytes()
	i := bytes.Index(out, []byte("<svg"))
	if i < 0 {
		return "", errors.New("report: gonum wrote no <svg> element")
	}
	out = out[i:]
	// Let the page size the figure: drop the fixed width and height in
	// points from the opening tag only.
	end := bytes.IndexByte(out, '>')
	head := string(out[:end])
	for _, attr := range []string{"width", "height"} {
		head = dropAttr(head, attr)
	}
	head += ` role="img" aria-label="` + template.HTMLEscapeString(p.Title.Text) + `"`
	return template.HTML(head + string(out[end:])), nil
}

// dropAttr removes the attribute name="..." from an opening tag.
func dropAttr(tag, name string) string {
	before, rest, ok := strings.Cut(tag, " "+name+`="`)
	if !ok {
		return tag
	}
	_, after, ok := strings.Cut(rest, `"`)
	if !ok {
		return tag
	}
	return before + after
}

// finite reports whether every value is a number gonum can place.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
