package engine

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestCalibrationWriteText: the header names the sides measured and the
// three tables follow, an empty calibration's ratios shown as "-".
func TestCalibrationWriteText(t *testing.T) {
	var buf bytes.Buffer
	if err := NewPriorCalibration().WriteText(&buf, 3, "TroutBot"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"3 games, 0 turns (the sides playing TroutBot;", "left en prise", "zone attackers", "ours en prise", "\nking "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// TestRatioText: few digits, "-" for what is not a number.
func TestRatioText(t *testing.T) {
	for x, want := range map[float64]string{1.5: "1.5", 2: "2", 0.126: "0.13", 12.6: "13", math.Inf(1): "-"} {
		if got := ratioText(x); got != want {
			t.Errorf("ratioText(%v) = %q, want %q", x, got, want)
		}
	}
	if got := ratioText(math.NaN()); got != "-" {
		t.Errorf("ratioText(NaN) = %q", got)
	}
}

// TestParseSenseNames: a list, blanks ignored, all, and an unknown name.
func TestParseSenseNames(t *testing.T) {
	names := SenseNames()
	got, err := ParseSenseNames(" " + names[0] + ",," + names[len(names)-1])
	if err != nil || len(got) != 2 || got[0] != names[0] || got[1] != names[len(names)-1] {
		t.Errorf("list: %v, %v", got, err)
	}
	if got, err := ParseSenseNames("all"); err != nil || len(got) != len(names) {
		t.Errorf("all: %v, %v", got, err)
	}
	if _, err := ParseSenseNames("nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown: %v", err)
	}
}
