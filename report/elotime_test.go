package report

import (
	"bytes"
	"math"
	"testing"
)

// TestEloByTimeSVG: the figure names each series, draws a run won or lost
// outright (an infinite interval end) clipped, and refuses no points.
func TestEloByTimeSVG(t *testing.T) {
	series := []EloSeries{
		{Name: "C", Points: []EloPoint{{Seconds: 0.01, Elo: -100, Lo: -180, Hi: -20}, {Seconds: 0.04, Elo: -50, Lo: -130, Hi: 30}}},
		{Name: "A", Points: []EloPoint{{Seconds: 0.01, Elo: math.Inf(-1), Lo: math.Inf(-1), Hi: -300}}},
	}
	svg, err := EloByTimeSVG("Figure 10", "darkboard", series)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", ">C<", ">A<", "Elo against darkboard", ">0.04<"} {
		if !bytes.Contains(svg, []byte(want)) {
			t.Errorf("the figure has no %q", want)
		}
	}
	if _, err := EloByTimeSVG("empty", "darkboard", []EloSeries{{Name: "B"}}); err == nil {
		t.Error("a figure of no points: no error")
	}
}
