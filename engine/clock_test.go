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

// machine says how long the callbacks of a simulated turn take: a notice
// that was given budget b, a decision with budget b.
type machine struct {
	notice   func(b time.Duration) time.Duration
	decision func(b Budget) time.Duration
}

// playTurn simulates one turn with the manager m on the given machine,
// everything charged and recorded, starting with left on the clock. plain,
// if not nil, is a manager given the same clock reports and charges but
// never told the plan's outcome (no Record): a manager that learns nothing.
// It returns the clock after the turn (before the increment) and the
// budgets of both managers' sense and move decisions.
func playTurn(m, plain *ClockManager, ft *fakeTime, left time.Duration, mc machine) (time.Duration, [2]Budget, [2]Budget) {
	var got, want [2]Budget
	spend := func(planned, took time.Duration, decision bool) {
		ft.advance(took)
		m.Charge(took)
		m.Record(planned, took, decision)
		if plain != nil {
			plain.Charge(took)
		}
		left -= took
	}
	notice := func(after int) {
		b := m.NoticeBudget(after, left)
		spend(b, mc.notice(b), false)
	}
	decide := func(i int, start func(*ClockManager, time.Duration) Budget) {
		got[i] = start(m, left)
		if plain != nil {
			want[i] = start(plain, left)
		}
		spend(got[i].Time, mc.decision(got[i]), true)
	}
	notice(4)
	decide(0, (*ClockManager).StartSense)
	notice(2)
	decide(1, (*ClockManager).StartMove)
	notice(0)
	m.EndTurn()
	if plain != nil {
		plain.EndTurn()
	}
	return left, got, want
}

// TestClockKeepsThePlanOnAMachineThatKeepsUp: decisions that end early or
// overrun their budgets by a few percent, and notices that return in
// milliseconds, leave every budget as a manager that learns nothing gives
// it: the player plays as before on a machine that is not starved.
func TestClockKeepsThePlanOnAMachineThatKeepsUp(t *testing.T) {
	for _, slow := range []float64{0.3, 1, 1.1} {
		ft := &fakeTime{t: time.Unix(0, 0)}
		learner := NewClockManager(ClockConfig{}, ft.now)
		plain := NewClockManager(ClockConfig{}, ft.now)
		mc := machine{
			notice:   func(time.Duration) time.Duration { return 30 * time.Millisecond },
			decision: func(b Budget) time.Duration { return time.Duration(float64(b.Time)*slow) + 2*time.Millisecond },
		}
		left := 60 * time.Second
		for turn := range 80 {
			var got, want [2]Budget
			left, got, want = playTurn(learner, plain, ft, left, mc)
			for i := range got {
				if got[i].Time != want[i].Time || got[i].Mode != want[i].Mode {
					t.Fatalf("decisions at %v of their budgets, turn %d: budget %v %v, want %v %v",
						slow, turn+1, got[i].Time, got[i].Mode, want[i].Time, want[i].Mode)
				}
			}
			left += time.Second
		}
		if s := learner.Slowness(); s != 1 {
			t.Errorf("decisions at %v of their budgets: slowness %v, want 1", slow, s)
		}
	}
}

// TestClockLearnsSlowness: decisions that take twice their budgets make the
// manager plan half the time and keep twice the reserve; turns that keep to
// the plan again bring it back.
func TestClockLearnsSlowness(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	plain := NewClockManager(ClockConfig{}, ft.now)
	twice := machine{
		notice:   func(time.Duration) time.Duration { return 0 },
		decision: func(b Budget) time.Duration { return 2 * b.Time },
	}
	left, _, _ := playTurn(m, plain, ft, 60*time.Second, twice)
	if s := m.Slowness(); s != 2 {
		t.Fatalf("slowness after a turn at twice the budgets: %v, want 2", s)
	}
	if r := m.reserve(); r != 6*time.Second {
		t.Errorf("reserve on a machine twice as slow: %v, want 6s (twice 3 s)", r)
	}
	got, want := m.StartSense(left+time.Second), plain.StartSense(left+time.Second)
	if ratio := float64(want.Time) / float64(got.Time); ratio < 1.9 || ratio > 2.2 {
		t.Errorf("sense budget %v on a slow machine, %v on one that keeps up: want about half", got.Time, want.Time)
	}
	for range 6 {
		m.EndTurn() // turns that keep to the plan
	}
	if s := m.Slowness(); s != 1 {
		t.Errorf("slowness after six turns on plan: %v, want 1", s)
	}
}

// TestClockNeverFlagsOnASlowMachine simulates whole games on a starved
// machine: every decision takes three times its budget (cut at its hard
// deadline), every notice waits its whole budget (its belief update is
// late), and every callback returns lag late. The clock must never run
// out, whatever the clock, as long as a turn's five callbacks' lag fits in
// the increment.
func TestClockNeverFlagsOnASlowMachine(t *testing.T) {
	for _, c := range []struct {
		initial, inc, lag time.Duration
		turns             int
	}{
		{900 * time.Second, 5 * time.Second, 200 * time.Millisecond, 200},
		{60 * time.Second, time.Second, 50 * time.Millisecond, 300},
		{15 * time.Second, 200 * time.Millisecond, 20 * time.Millisecond, 300},
		{10 * time.Second, time.Second, 100 * time.Millisecond, 300},
		{5 * time.Second, 100 * time.Millisecond, 5 * time.Millisecond, 300},
	} {
		ft := &fakeTime{t: time.Unix(0, 0)}
		m := NewClockManager(ClockConfig{}, ft.now)
		starved := machine{
			notice:   func(b time.Duration) time.Duration { return b + c.lag },
			decision: func(b Budget) time.Duration { return min(3*b.Time, b.Hard) + c.lag },
		}
		left, minLeft := c.initial, c.initial
		modes := map[Mode]int{}
		for turn := range c.turns {
			var got [2]Budget
			left, got, _ = playTurn(m, nil, ft, left, starved)
			modes[got[0].Mode]++
			minLeft = min(minLeft, left)
			if left <= 0 {
				t.Fatalf("%v+%v, lag %v: flagged on turn %d (sense budget %v, mode %v, slowness %.2f)",
					c.initial, c.inc, c.lag, turn+1, got[0].Time, got[0].Mode, m.Slowness())
			}
			left += c.inc
		}
		t.Logf("%v+%v, lag %v: lowest clock %v, modes %v, slowness %.2f, lag %v",
			c.initial, c.inc, c.lag, minLeft, modes, m.Slowness(), m.Lag())
	}
}

// TestClockHardDeadline: a decision may run to twice its budget and a
// little more, never past the clock's share for it.
func TestClockHardDeadline(t *testing.T) {
	ft := &fakeTime{t: time.Unix(0, 0)}
	m := NewClockManager(ClockConfig{}, ft.now)
	b := m.StartSense(60 * time.Second)
	if b.Hard != 2*b.Time+hardGrace {
		t.Errorf("hard deadline %v for a budget of %v, want %v", b.Hard, b.Time, 2*b.Time+hardGrace)
	}
	m.Record(0, 20*time.Millisecond, false) // callbacks return 20 ms late
	left := 300 * time.Millisecond
	b = m.StartSense(left)
	if b.Mode != Emergency {
		t.Fatalf("300 ms of 60 s: mode %v", b.Mode)
	}
	// Four callbacks (the sense and three after it) each keep the lag; the
	// sense gets at most a fifth of the rest.
	if limit := (left - 4*m.Lag()) / 5; b.Hard > limit || b.Hard != 2*b.Time {
		t.Errorf("emergency sense: budget %v, hard %v; want hard twice the budget, at most %v", b.Time, b.Hard, limit)
	}
}
