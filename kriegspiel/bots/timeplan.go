package bots

import (
	"time"

	"github.com/blindfish-rbc/blindfish/timeplan"
)

// timePlan is how the sampling player spends its clock. Each turn gets a
// share of what is left; the first half of the share is the belief's, and
// the boards the belief takes into an update are cut to what it can get
// through in that time at the speed it has shown so far. The exact belief's
// cost grows with its size, which in Kriegspiel can reach hundreds of
// thousands of boards: a player that updated it whatever the cost would
// spend its clock on the belief alone and lose on time at short clocks
// (60+1) on a loaded machine, having evaluated almost nothing.
//
// The plan knows the clock only from ChooseQuestion's timeLeft; between
// two of those it counts what its own callbacks took (a timeplan.Reading),
// and it leaves the increment out, which errs on the side of time.
type timePlan struct {
	turnsLeft int
	// cap is the most a turn takes, belief and choice together, whatever
	// the clock (0: the clock's share alone); it also limits the turns
	// played before the clock is known.
	cap time.Duration
	// clock is our clock as ChooseQuestion last told it, less what our
	// callbacks took since.
	clock timeplan.Reading
	// turnStart and turn are the start and the share of the turn in
	// progress (turn is 0 while the clock is unknown: no limit).
	turnStart time.Time
	turn      time.Duration
	// share is the turn's share of the clock before the cap (0 while the
	// clock is unknown): what a rebuild of a lost belief may take.
	share time.Duration
	// perExpand is the measured time per board of an opponent's turn
	// (Belief.Opponent, per board before it) and perAsk per board of an
	// answer to our own question (Belief.Own); 0 until measured.
	perExpand, perAsk time.Duration
}

// minRateBoards is the fewest boards an update needs for its speed to be
// measured: below it the fixed costs would dominate.
const minRateBoards = 32

// minBeliefBoards is the fewest boards a cut leaves: an update of that many
// costs well under a millisecond on any machine.
const minBeliefBoards = 16

// startTurn begins a turn at now.
func (t *timePlan) startTurn(now time.Time) {
	t.turnStart = now
	t.turn = 0
	if left, known := t.clock.Left(); known {
		t.turn = timeplan.Share(left, t.turnsLeft)
	}
	t.share = t.turn
	if t.cap > 0 && (t.turn == 0 || t.turn > t.cap) {
		t.turn = t.cap
	}
}

// told takes our clock as ChooseQuestion gives it.
func (t *timePlan) told(left time.Duration) { t.clock.Report(left) }

// used takes the time one of our belief callbacks took.
func (t *timePlan) used(d time.Duration) { t.clock.Spend(d) }

// beliefDeadline is when the turn's belief work should be done: half the
// turn's share from its start, but never less than an eighth of the share
// from now (an answer to a question late in the turn still gets a little).
// The zero time means no limit (the clock is not known yet).
func (t *timePlan) beliefDeadline(now time.Time) time.Time {
	if t.turn == 0 {
		return time.Time{}
	}
	return later(t.turnStart.Add(t.turn/2), now.Add(t.turn/8))
}

// questionDeadline is when the choice of a question should be made: the
// end of the turn's share, but never less than a sixteenth of the share
// from now, and never more than a quarter of the clock that is left.
func (t *timePlan) questionDeadline(now time.Time, timeLeft time.Duration) time.Time {
	if t.turn == 0 { // the clock was not known at the turn's start
		return now.Add(timeLeft / time.Duration(max(t.turnsLeft, 1)))
	}
	d := later(t.turnStart.Add(t.turn), now.Add(t.turn/16))
	if limit := now.Add(timeLeft / 4); d.After(limit) {
		d = limit
	}
	return d
}

// fits returns how many boards an update at per a board can take before
// deadline, or -1 when there is no limit (no deadline, or no speed
// measured yet).
func fits(now, deadline time.Time, per time.Duration) int {
	if deadline.IsZero() || per <= 0 {
		return -1
	}
	n := int(deadline.Sub(now) / per)
	return max(n, minBeliefBoards)
}

// measure folds an update of n boards that took d into the speed *per.
// The newer measure weighs half: the cost of a board depends on what was
// heard (a capture rules out most moves cheaply), so the speed wanders.
func measure(per *time.Duration, n int, d time.Duration) {
	if n < minRateBoards {
		return
	}
	v := d / time.Duration(n)
	if *per == 0 {
		*per = v
		return
	}
	*per = (*per + v) / 2
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
