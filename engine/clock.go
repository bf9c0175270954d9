package engine

import (
	"fmt"
	"time"
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
	Time time.Duration
	Mode Mode
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

	known       time.Duration // the clock at the last report
	knownAt     time.Time     // when it was reported
	spentSince  time.Duration // our callback time since the last report
	turnEnded   bool          // our turn ended since the last report
	haveReport  bool
	lastWasMove bool // the last report was at a move decision
}

// NewClockManager returns a manager; now is the time source (nil: time.Now).
func NewClockManager(cfg ClockConfig, now func() time.Time) *ClockManager {
	if now == nil {
		now = time.Now
	}
	return &ClockManager{cfg: cfg.withDefaults(), now: now}
}

// Charge records time our callbacks took that the harness charges to us
// (observation handlers), so estimates between reports stay honest.
func (m *ClockManager) Charge(d time.Duration) {
	if d > 0 {
		m.spentSince += d
	}
}

// EndTurn records that our turn ended (after the move result): the harness
// adds the increment then.
func (m *ClockManager) EndTurn() { m.turnEnded = true }

// Left estimates our clock now, from the last report and what we spent since.
// Before any report it returns fallback.
func (m *ClockManager) Left(fallback time.Duration) time.Duration {
	if !m.haveReport {
		return fallback
	}
	left := m.known - m.spentSince
	if m.turnEnded {
		left += m.inc
	}
	return left
}

// HandlerBudget is how long an observation handler (belief update) may run:
// half of the usable clock, so that a slow belief cannot flag us by itself
// and a little time always remains for the decisions.
func (m *ClockManager) HandlerBudget(fallback time.Duration) time.Duration {
	left := m.Left(fallback)
	return max((left-m.reserve())/2, 20*time.Millisecond)
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
	now := m.now()
	if m.initial == 0 {
		m.initial = max(left, time.Millisecond)
		m.inc = m.cfg.Inc
		if m.inc <= 0 {
			m.inc = guessIncrement(m.initial)
		}
	}
	if atSense && m.haveReport && m.lastWasMove && m.turnEnded {
		// Time charged to us since the move report: the rest of that move
		// decision and the handlers (counted by Charge).
		obs := left - (m.known - m.spentSince)
		obs = min(max(obs, 0), time.Minute)
		if m.incSeen == 0 {
			m.inc = obs
		} else {
			m.inc = (m.inc + obs) / 2
		}
		m.incSeen++
	}
	m.known, m.knownAt, m.spentSince, m.turnEnded, m.haveReport = left, now, 0, false, true
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

// reserve returns the clock time never planned for.
func (m *ClockManager) reserve() time.Duration {
	if m.cfg.Reserve > 0 {
		return m.cfg.Reserve
	}
	return min(max(m.initial/20, time.Second), 10*time.Second)
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
	return Budget{Time: time.Duration(float64(m.turnBudget) * m.cfg.Split), Mode: m.turnMode}
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
	return Budget{Time: max(b, time.Millisecond), Mode: mode}
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
	if usable <= 0 {
		// Spend well under the increment so the clock grows back, and never
		// more than a tenth of what is left.
		return max(min(inc*2/5, left/10), time.Millisecond), Emergency
	}
	turnsLeft := max(m.cfg.Turns-m.turn+1, m.cfg.MinTurnsLeft)
	mode := Normal
	per := usable/time.Duration(turnsLeft) + inc*4/5
	if left < m.fastBelow() {
		mode = Fast
		per = usable/time.Duration(max(turnsLeft, 30)) + inc*3/5
	}
	per = min(per, m.hardLimit(left))
	return max(per, time.Millisecond), mode
}
