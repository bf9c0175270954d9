package timeplan

import (
	"testing"
	"time"
)

// TestShare: an equal share of what is usable, none of nothing, and the
// whole for the last turn.
func TestShare(t *testing.T) {
	for _, tc := range []struct {
		usable time.Duration
		turns  int
		want   time.Duration
	}{
		{40 * time.Second, 40, time.Second},
		{40 * time.Second, 16, 2500 * time.Millisecond},
		{10 * time.Second, 3, 3333333333},
		{time.Second, 1, time.Second},
		{time.Second, 0, time.Second},
		{time.Second, -5, time.Second},
		{0, 10, 0},
		{-3 * time.Second, 10, 0},
	} {
		if got := Share(tc.usable, tc.turns); got != tc.want {
			t.Errorf("Share(%v, %d) = %v, want %v", tc.usable, tc.turns, got, tc.want)
		}
	}
}

// TestReading: the clock is the last report less what was spent since;
// nothing is known, and nothing spent counts, before the first report.
func TestReading(t *testing.T) {
	type step struct {
		report, spend time.Duration // a report when report >= 0, else a spend
		left          time.Duration
		known         bool
	}
	const none = -1
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"nothing reported", []step{{none, time.Second, 0, false}}},
		{"spent before the first report", []step{
			{none, 5 * time.Second, 0, false},
			{60 * time.Second, 0, 60 * time.Second, true},
		}},
		{"spent between reports", []step{
			{60 * time.Second, 0, 60 * time.Second, true},
			{none, 2 * time.Second, 58 * time.Second, true},
			{none, 500 * time.Millisecond, 57500 * time.Millisecond, true},
			{59 * time.Second, 0, 59 * time.Second, true},
			{none, time.Second, 58 * time.Second, true},
		}},
		{"overspent", []step{
			{time.Second, 0, time.Second, true},
			{none, 3 * time.Second, -2 * time.Second, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Reading
			for i, s := range tc.steps {
				if s.report >= 0 {
					r.Report(s.report)
				} else {
					r.Spend(s.spend)
				}
				if left, known := r.Left(); left != s.left || known != s.known {
					t.Fatalf("step %d: Left() = %v, %v; want %v, %v", i, left, known, s.left, s.known)
				}
			}
		})
	}
}
