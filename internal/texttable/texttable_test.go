package texttable

import (
	"bytes"
	"testing"
	"time"
)

// TestWriteAlignsColumns: text left, numbers right, no trailing blanks.
func TestWriteAlignsColumns(t *testing.T) {
	tb := New([]string{"name", "n", "note"}, 1)
	tb.Add("a", "100", "")
	tb.Add("long name", "7", "µs")
	var buf bytes.Buffer
	if err := tb.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := "name         n  note\na          100\nlong name    7  µs\n"
	if buf.String() != want {
		t.Errorf("got\n%q\nwant\n%q", buf.String(), want)
	}
}

// TestPerTurnPicksTheUnit: about three significant digits in the unit that
// fits, "-" for no turns.
func TestPerTurnPicksTheUnit(t *testing.T) {
	cases := []struct {
		d     time.Duration
		turns int
		want  string
	}{
		{0, 0, "-"},
		{500, 1, "500ns"},
		{3 * time.Microsecond, 2, "1.5µs"},
		{25 * time.Millisecond, 2, "12.5ms"},
		{3 * time.Second, 2, "1.50s"},
	}
	for _, c := range cases {
		if got := PerTurn(c.d, c.turns); got != c.want {
			t.Errorf("PerTurn(%v, %d) = %q, want %q", c.d, c.turns, got, c.want)
		}
	}
}
