package engine

import (
	"fmt"
	"time"

	"github.com/blindfish-rbc/blindfish/timeplan"
)

// Mode is how much effort a turn can afford.
type Mode uint8

// The modes, from most to least effort.
const (
	// Normal: the configured strategies at full strength.
	Normal Mode = iota
	// Fast: the clock is low; cheap sensing, fewer boards, shallower search.
	Fast
	// Emergency: the clock is nearly out; no engine at all, static choices.
	Emergency
)

func (m Mode) String() string {
	switch m {
	case Normal:
		return "normal"
	case Fast:
		return "fast"
	case Emergency:
		return "emergency"
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// Budget is the time one decision may take and the effort mode it runs in.
type Budget struct {
	// Time is what the decision plans to take: its context's deadline.
	Time time.Duration
	Mode Mode
	// Hard is the most the callback may take, from its start, whatever the
	// strategy does: past it the player answers with what is ready and
	// leaves the strategy to finish in the background. It is twice Time
	// and a little more, so a strategy that stops on its deadline never
	// meets it, and never more than the clock's share for the callback.
	Hard time.Duration
}

// ClockConfig configures a ClockManager. Zero fields take the defaults
// described on each.
type ClockConfig struct {
	// Split is the share of a turn's time planned for sensing (default 0.6;
	// the voi sense evaluates moves that the move decision then reuses).
	Split float64
	// Turns is the expected number of our turns in a game (default 40).
	Turns int
	// MinTurnsLeft is the least number of turns still planned for, however
	// long the game has lasted (default 16), so that no late turn takes more
	// than a sixteenth of the clock.
	MinTurnsLeft int
	// Reserve is never planned for (default 5% of the initial clock,
	// clamped to 1–10 s): it absorbs overheads we do not control.
	Reserve time.Duration
	// Inc is the increment assumed before one is observed (default: 5 s for
	// clocks of 5 minutes or more, else initial/60, at least 0.1 s).
	Inc time.Duration
	// MaxShare bounds one turn to this share of the usable clock (default 0.25).
	MaxShare float64
}

func (c ClockConfig) withDefaults() ClockConfig {
	if c.Split <= 0 || c.Split >= 1 {
		c.Split = 0.6
	}
	if c.Turns <= 0 {
		c.Turns = 40
	}
	if c.MinTurnsLeft <= 0 {
		c.MinTurnsLeft = 16
	}
	if c.MaxShare <= 0 || c.MaxShare > 1 {
		c.MaxShare = 0.25
	}
	return c
}

// ClockManager plans the player's time with the real clock: the time left
// that the harness reports at each decision, the increment it observes, and
// the time the player's own callbacks take. The harness tells a player its
// clock only when it must choose, never the increment nor how long the game
// will last, so the manager estimates both.
//
// A turn gets about (time left − reserve) / (expected turns left) plus most
// of the increment, split between sense and move. Below a low-water mark
// (10% of the initial clock, at least 20 s and at most half of it) it
// switches to Fast mode, and with less than the reserve left to Emergency,
// where a turn uses a fraction of the increment so the clock grows again.
// Every budget stays below the usable clock, so the player never flags as
// long as it returns within its budgets.
//
// The manager also learns how slow the machine is right now (Record): the
// ratio of the decisions' wall time to their budgets over the last turns
// (the slowness), and how late past its plan a callback returns (the lag).
// A machine that keeps to the plan changes nothing; on one that does not,
// the plan is divided by the slowness and the reserve multiplied by it,
// notices wait at most two turns' plan, and every callback's time is capped
// by a share of the clock that leaves the rest of the turn its share and the
// lag. See docs/player.md, "Deadlines on a slow machine".
//
// A ClockManager is used by one player from one goroutine at a time.
type ClockManager struct {
	cfg ClockConfig
	now func() time.Time

	initial time.Duration // first clock seen; 0 until then
	inc     time.Duration // the increment estimate
	incSeen int           // increments observed so far
	turn    int           // our turns started

	turnStart  time.Time
	turnBudget time.Duration
	turnMode   Mode

	clock       timeplan.Reading // the last report, less our callback time since
	turnEnded   bool             // our turn ended since the last report
	lastWasMove bool             // the last report was at a move decision

	// slow is the decisions' wall time over their budgets on recent turns
	// (at least 1): a slow turn counts at once, and its excess halves with
	// every turn after it. peakSlow is the highest it has been.
	slow, peakSlow float64
	// lag is how late past its plan a recent callback returned: a late
	// callback counts at once, and the lag shrinks by an eighth with every
	// callback after it.
	lag time.Duration
	// decPlanned and decTook add up this turn's decisions (Record).
	decPlanned, decTook time.Duration
}

// Slowness and lag settings.
const (
	// slowFloor is the slowness below which the manager plans as on a
	// machine that keeps to its plan: a decision that overruns by a few
	// percent is noise, not a slow machine, and must not change the play.
	slowFloor = 1.15
	// maxSlow bounds the slowness one turn can show.
	maxSlow = 4.0
	// minMeasured is the least decision time a turn must have planned for
	// its ratio to count (tiny emergency budgets measure only latency,
	// which the lag covers).
	minMeasured = 20 * time.Millisecond
	// hardGrace is what a decision's hard deadline allows past twice its
	// budget outside Emergency mode.
	hardGrace = 50 * time.Millisecond
)

// NewClockManager returns a manager; now is the time source (nil: time.Now).
func NewClockManager(cfg ClockConfig, now func() time.Time) *ClockManager {
	if now == nil {
		now = time.Now
	}
	return &ClockManager{cfg: cfg.withDefaults(), now: now, slow: 1, peakSlow: 1}
}

// Record tells the manager how long a callback took against what it
// planned for it (a decision's budget, a notice's wait), so that it learns
// how slow the machine is right now: how late callbacks return past their
// plan (the lag) and, for decisions, their wall time over their budgets
// over the turn (the slowness, taken at EndTurn).
func (m *ClockManager) Record(planned, took time.Duration, decision bool) {
	m.lag = max(took-planned, m.lag-m.lag/8, 0)
	if decision {
		m.decPlanned += max(planned, 0)
		m.decTook += max(took, 0)
	}
}

// Slowness returns the slowness the manager plans with: 1 on a machine that
// keeps to the plan, else the ratio of the decisions' wall time to their
// budgets over the last turns.
func (m *ClockManager) Slowness() float64 {
	if m.slow < slowFloor {
		return 1
	}
	return m.slow
}

// PeakSlowness returns the highest slowness measured so far (1: none).
func (m *ClockManager) PeakSlowness() float64 { return m.peakSlow }

// Lag returns how late past their plan callbacks have been returning.
func (m *ClockManager) Lag() time.Duration { return m.lag }

// Charge records time our callbacks took that the harness charges to us
// (observation handlers), so estimates between reports stay honest.
func (m *ClockManager) Charge(d time.Duration) {
	if d > 0 {
		m.clock.Spend(d)
	}
}

// EndTurn records that our turn ended (after the move result): the harness
// adds the increment then. It takes the turn's slowness.
func (m *ClockManager) EndTurn() {
	m.turnEnded = true
	m.slow = 1 + (m.slow-1)/2
	if m.decPlanned >= minMeasured {
		r := float64(m.decTook) / float64(m.decPlanned)
		m.slow = max(m.slow, min(r, maxSlow))
		m.peakSlow = max(m.peakSlow, m.slow)
	}
	m.decPlanned, m.decTook = 0, 0
}

// Left estimates our clock now, from the last report and what we spent since.
// Before any report it returns fallback.
func (m *ClockManager) Left(fallback time.Duration) time.Duration {
	left, known := m.clock.Left()
	if !known {
		return fallback
	}
	if m.turnEnded {
		left += m.inc
	}
	return left
}

// NoticeBudget is how long an observation handler (a capture notice, a sense
// or move result) may wait for its belief update, with after more callbacks
// of the turn to come and bound the time to the handler's own deadline (0:
// none known). It is half of the usable clock, so that a slow belief cannot
// flag us by itself and a little time always remains for the decisions; on
// a slow machine at most two turns' plan; in Emergency mode a tenth of the
// increment (the update goes on in the background either way). It is never
// more than the clock's share for the callback (see capFor), and the lag is
// taken off it, so that the handler returns by its plan even when callbacks
// return late.
func (m *ClockManager) NoticeBudget(after int, bound time.Duration) time.Duration {
	left := m.Left(time.Minute)
	var b time.Duration
	if usable := left - m.reserve(); usable > 0 {
		b = usable / 2
		if m.Slowness() > 1 {
			turn, _ := m.plan(left)
			b = min(b, 2*turn)
		}
	} else {
		b = min(m.Increment()/10, left/20)
	}
	if bound > 0 {
		b = min(b, bound/2)
		left = min(left, bound)
	}
	b = min(b, m.capFor(left, after)) - m.lag
	return max(b, 0)
}

// capFor is the most one callback may take with left on the clock when
// after more callbacks of the turn follow it: what leaves each of them, and
// itself, the lag, and splits the rest in after+2 equal parts (one kept), so
// the turn never spends the clock whatever each callback meets. Far from
// the end of the clock it is much more than any budget.
func (m *ClockManager) capFor(left time.Duration, after int) time.Duration {
	n := time.Duration(max(after, 0) + 1)
	return max((left-n*m.lag)/(n+1), 0)
}

// hard is a decision's hard deadline (Budget.Hard) for a budget b with left
// on the clock and after more callbacks of the turn to come.
func (m *ClockManager) hard(b time.Duration, mode Mode, left time.Duration, after int) time.Duration {
	h := 2 * b
	if mode != Emergency {
		h += hardGrace
	}
	return max(min(h, m.capFor(left, after)), b)
}

// Increment returns the current increment estimate.
func (m *ClockManager) Increment() time.Duration {
	if m.incSeen == 0 && m.cfg.Inc > 0 {
		return m.cfg.Inc
	}
	return m.inc
}

// report records a clock reading from the harness and learns the increment
// from it: the clock at a sense minus (the clock at our last move minus what
// we spent since) is what the harness added after our turn.
func (m *ClockManager) report(left time.Duration, atSense bool) {
	if m.initial == 0 {
		m.initial = max(left, time.Millisecond)
		m.inc = m.cfg.Inc
		if m.inc <= 0 {
			m.inc = guessIncrement(m.initial)
		}
	}
	if was, known := m.clock.Left(); atSense && known && m.lastWasMove && m.turnEnded {
		// Time charged to us since the move report: the rest of that move
		// decision and the handlers (counted by Charge).
		obs := left - was
		obs = min(max(obs, 0), time.Minute)
		if m.incSeen == 0 {
			m.inc = obs
		} else {
			m.inc = (m.inc + obs) / 2
		}
		m.incSeen++
	}
	m.clock.Report(left)
	m.turnEnded = false
	m.lastWasMove = !atSense
}

// guessIncrement guesses the increment of a clock we have not seen grow: the
// harness's 5 s for long games, about a 60th of the clock for short ones
// (60 s → 1 s).
func guessIncrement(initial time.Duration) time.Duration {
	if initial >= 5*time.Minute {
		return 5 * time.Second
	}
	return max(initial/60, 100*time.Millisecond)
}

// reserve returns the clock time never planned for: the configured or
// default reserve, times the slowness (overheads we do not control grow with
// it).
func (m *ClockManager) reserve() time.Duration {
	r := m.cfg.Reserve
	if r <= 0 {
		r = min(max(m.initial/20, time.Second), 10*time.Second)
	}
	return time.Duration(float64(r) * m.Slowness())
}

// fastBelow returns the clock below which turns run in Fast mode.
func (m *ClockManager) fastBelow() time.Duration {
	return min(max(m.initial/10, 20*time.Second), m.initial/2)
}

// StartSense starts a turn at its sense decision with left on the clock and
// returns the sense budget. It fixes the turn's whole budget too.
func (m *ClockManager) StartSense(left time.Duration) Budget {
	m.report(left, true)
	m.turn++
	m.turnStart = m.now()
	m.turnBudget, m.turnMode = m.plan(left)
	b := time.Duration(float64(m.turnBudget) * m.cfg.Split)
	b = max(min(b, m.capFor(left, 3)), time.Millisecond)
	return Budget{Time: b, Mode: m.turnMode, Hard: m.hard(b, m.turnMode, left, 3)}
}

// StartMove returns the move budget with left on the clock: what the turn's
// budget has not used yet, at least the planned move share, and never more
// than the turn plan allows from the clock now.
func (m *ClockManager) StartMove(left time.Duration) Budget {
	m.report(left, false)
	if m.turnStart.IsZero() { // a move without a sense: plan the turn now
		m.turnStart = m.now()
		m.turnBudget, m.turnMode = m.plan(left)
	}
	used := m.now().Sub(m.turnStart)
	share := time.Duration(float64(m.turnBudget) * (1 - m.cfg.Split))
	b := max(m.turnBudget-used, share)
	limit, mode := m.plan(left)
	mode = max(mode, m.turnMode)
	if mode == Emergency {
		b = limit
	} else {
		b = min(b, m.hardLimit(left))
	}
	m.turnStart = time.Time{}
	b = max(min(b, m.capFor(left, 1)), time.Millisecond)
	return Budget{Time: b, Mode: mode, Hard: m.hard(b, mode, left, 1)}
}

// hardLimit is the most any one decision may take with left on the clock.
func (m *ClockManager) hardLimit(left time.Duration) time.Duration {
	usable := left - m.reserve()
	return max(time.Duration(float64(usable)*m.cfg.MaxShare), 0)
}

// plan returns a turn's budget and mode with left on the clock.
func (m *ClockManager) plan(left time.Duration) (time.Duration, Mode) {
	usable := left - m.reserve()
	inc := m.Increment()
	slow := m.Slowness()
	if usable <= 0 {
		// Spend well under the increment so the clock grows back, and never
		// more than a tenth of what is left; a slow machine spends less, and
		// the lag comes off (each callback returns that late).
		per := time.Duration(float64(min(inc*2/5, left/10))/slow) - m.lag
		return max(per, time.Millisecond), Emergency
	}
	turnsLeft := max(m.cfg.Turns-m.turn+1, m.cfg.MinTurnsLeft)
	mode := Normal
	per := timeplan.Share(usable, turnsLeft) + inc*4/5
	if left < m.fastBelow() {
		mode = Fast
		per = timeplan.Share(usable, max(turnsLeft, 30)) + inc*3/5
	}
	// A machine slower than the plan by a factor gets a plan that much
	// smaller, so the turn's wall time is what the clock affords.
	per = time.Duration(float64(per) / slow)
	per = min(per, m.hardLimit(left))
	return max(per, time.Millisecond), mode
}
