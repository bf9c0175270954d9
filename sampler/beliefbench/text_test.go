package beliefbench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestWriteTextTurnsAndTotals: the per-turn table only when asked, the
// totals table and the recall line always; sizes printed compactly.
func TestWriteTextTurnsAndTotals(t *testing.T) {
	r := &Report{
		Games: []*Game{{File: "g.json", Color: "white", Sampler: "exact",
			Turns: []Turn{{Turn: 1, SizeBefore: 20, SizeAfter: 5, Reduction: 0.75, Present: true}, {Turn: 2}}}},
		Samplers: []Totals{{Sampler: "exact", Games: 1, Turns: 2, Recall: 50, MeanBefore: 1.5e6, MeanAfter: 2.5}},
		Turns:    2, Recall: 50,
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf, false); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "g.json") || !strings.HasPrefix(out, "sampler ") {
		t.Errorf("without turns, want only the totals:\n%s", out)
	}
	if !strings.Contains(out, "1.5M") || !strings.Contains(out, "2.5") || !strings.HasSuffix(out, "recall 50.0% over 2 turns\n") {
		t.Errorf("totals:\n%s", out)
	}
	buf.Reset()
	if err := r.WriteText(&buf, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasPrefix(lines[0], "game ") || !strings.Contains(lines[1], "75.0%") || !strings.Contains(lines[1], "yes") ||
		!strings.Contains(lines[2], "NO") || lines[3] != "" {
		t.Errorf("per-turn table:\n%s", buf.String())
	}
}

// TestCompact: few digits, whole numbers without a decimal.
func TestCompact(t *testing.T) {
	for x, want := range map[float64]string{12.34: "12.3", 7: "7", 4567.8: "4568", 1.234e6: "1.2M"} {
		if got := compact(x); got != want {
			t.Errorf("compact(%v) = %q, want %q", x, got, want)
		}
	}
}

// TestWriteJSON: indented JSON that reads back as the report.
func TestWriteJSON(t *testing.T) {
	r := &Report{Samplers: []Totals{{Sampler: "exact", Turns: 3}}, Turns: 3, Recall: 100}
	var buf bytes.Buffer
	if err := r.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Turns != 3 || back.Samplers[0].Sampler != "exact" ||
		!strings.Contains(buf.String(), "\n  \"") {
		t.Errorf("%v, %+v\n%s", err, back, buf.String())
	}
}
