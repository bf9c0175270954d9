package engine

import (
	"testing"
	"time"
)

// fakeTime is a settable time source.
type fakeTime struct{ t time.Time }

func (f *fakeTime) now() time.Time          { return f.t }
func (f *fakeTime) advance(d time.Duration) { f.t = f.t.Add(d) }

// TestClockFirstTurnBudgets: at 900+5 the first turn gets (900 − 10) / 40 +
// 0.8·5 = 26.25 s, 60% of it for the sense; the move gets the rest.
func TestClockFirstTurnBudgets(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	sense := m.StartSense(900 * time.Second)
	if want := 15750 * time.Millisecond; sense.Time != want || sense.Mode != Normal {
		t.Errorf("sense budget %v %v, want %v normal", sense.Time, sense.Mode, want)
	}
	ft.advance(sense.Time)
	m.Charge(sense.Time)
	move := m.StartMove(900*time.Second - sense.Time)
	if want := 10500 * time.Millisecond; move.Time != want {
		t.Errorf("move budget %v, want %v", move.Time, want)
	}
	// A quick sense leaves its unused time to the move.
	m2 := NewClockManager(ClockConfig{}, ft.now)
	m2.StartSense(900 * time.Second)
	ft.advance(time.Second)
	if got := m2.StartMove(899 * time.Second); got.Time != 25250*time.Millisecond {
		t.Errorf("move budget after a 1 s sense: %v, want 25.25s", got.Time)
	}
}

// TestClockShortClock: at 60+1 a turn gets about 2 s, and a 60 s clock
// guesses an increment of 1 s before seeing one.
func TestClockShortClock(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	s := m.StartSense(60 * time.Second)
	turn := time.Duration(float64(s.Time) / 0.6)
	if turn < 1500*time.Millisecond || turn > 2500*time.Millisecond {
		t.Errorf("60+1 turn budget %v, want about 2 s", turn)
	}
	if m.Increment() != time.Second {
		t.Errorf("guessed increment %v, want 1s", m.Increment())
	}
}

// TestClockModes: below 10% of a long clock the manager plays fast, below
// the reserve it plays emergency turns that spend less than the increment.
func TestClockModes(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	m.StartSense(900 * time.Second)
	if b := m.StartSense(80 * time.Second); b.Mode != Fast {
		t.Errorf("80 s of 900: mode %v, want fast", b.Mode)
	}
	b := m.StartSense(8 * time.Second)
	if b.Mode != Emergency {
		t.Errorf("8 s of 900: mode %v, want emergency", b.Mode)
	}
	if b.Time >= m.Increment()/2 {
		t.Errorf("emergency sense budget %v should be well under the increment %v", b.Time, m.Increment())
	}
}

// TestClockLearnsTheIncrement: the increment is read off the clock reports.
func TestClockLearnsTheIncrement(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	left := 900 * time.Second
	for range 3 {
		m.StartSense(left)
		ft.advance(time.Second)
		left -= time.Second
		m.StartMove(left)
		ft.advance(500 * time.Millisecond)
		m.Charge(500 * time.Millisecond)
		left -= 500 * time.Millisecond
		m.EndTurn()
		left += 2 * time.Second      // the harness adds 2 s, not the guessed 5
		ft.advance(10 * time.Second) // the opponent thinks; not charged
	}
	m.StartSense(left)
	if inc := m.Increment(); inc < 1900*time.Millisecond || inc > 2100*time.Millisecond {
		t.Errorf("learned increment %v, want 2s", inc)
	}
}

// TestClockNeverFlags simulates whole games in which every decision takes
// its full budget plus 20 ms of overhead the manager does not plan: the
// clock must never run out, on long, short and increment-less clocks. (With
// no increment, a fixed overhead per turn flags any player eventually: the
// zero-increment cases play 150 turns at 60 s and 60 turns at 10 s.)
func TestClockNeverFlags(t *testing.T) {
	for _, c := range []struct {
		initial, inc time.Duration
		turns        int
	}{
		{900 * time.Second, 5 * time.Second, 300},
		{60 * time.Second, time.Second, 300},
		{5 * time.Second, 100 * time.Millisecond, 300},
		{60 * time.Second, 0, 150},
		{10 * time.Second, 0, 60},
	} {
		ft := &fakeTime{t: time.Unix(0, 0)}
		m := NewClockManager(ClockConfig{}, ft.now)
		left := c.initial
		minLeft := left
		const overhead = 20 * time.Millisecond
		modes := map[Mode]int{}
		for turn := range c.turns {
			for _, move := range []bool{false, true} {
				var b Budget
				if move {
					b = m.StartMove(left)
				} else {
					b = m.StartSense(left)
				}
				modes[b.Mode]++
				spent := b.Time + overhead
				ft.advance(spent)
				m.Charge(spent)
				left -= spent
				minLeft = min(minLeft, left)
				if left <= 0 {
					t.Fatalf("%v+%v: flagged on turn %d (budget %v, mode %v)", c.initial, c.inc, turn+1, b.Time, b.Mode)
				}
			}
			m.EndTurn()
			left += c.inc
		}
		t.Logf("%v+%v: lowest clock %v, modes %v", c.initial, c.inc, minLeft, modes)
	}
}

// TestMemoryFollowsTheClock: the exact belief gets 1.5 MB per second of
// clock, at least 64 MB and at most 768 MB.
func TestMemoryFollowsTheClock(t *testing.T) {
	for left, want := range map[time.Duration]int{10 * time.Second: 64, 60 * time.Second: 90, 900 * time.Second: 768} {
		if got := memoryFor(left); got != want {
			t.Errorf("memoryFor(%v) = %d, want %d", left, got, want)
		}
	}
}
