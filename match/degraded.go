package match

import (
	"maps"
	"sync/atomic"
)

// DegradationReporter is implemented by a player that can say how often it
// degraded in its game: answered a loaded machine or a short clock in a
// cheaper way (a decision cut off at its deadline, a belief update that came
// late, a cheaper belief swapped in, an emergency turn). Such events cost
// strength but are not faults, so a player logs them at debug level rather
// than warn once per turn; the match records the counts instead, per side in
// the results log ("degraded") and summed in the table's degraded column,
// next to the results they may explain.
//
// Degradations returns the counts of the game just ended by kind (names of
// the player's choosing; zero counts may be left out). The match calls it
// once, on the goroutine of HandleGameEnd, after HandleGameEnd returned, so
// it need not be safe for concurrent use. A player that does not implement
// it (the baselines, external engines: cmd:, py:, build:) reports nothing,
// which the log and the table show as unknown, not as zero.
type DegradationReporter interface {
	Degradations() map[string]int
}

// degradationsOf returns p's counts without their zeros: nil when p does
// not report them, a map (empty when it never degraded) when it does.
func degradationsOf(p any) map[string]int {
	d, ok := p.(DegradationReporter)
	if !ok {
		return nil
	}
	counts := maps.Clone(d.Degradations())
	if counts == nil {
		counts = map[string]int{}
	}
	maps.DeleteFunc(counts, func(_ string, n int) bool { return n == 0 })
	return counts
}

// endWatch takes a player's degradation counts when its HandleGameEnd
// returns. The counts are read there, on the callback's goroutine, because
// that is when the player is done with them: the referee may return while a
// callback that overran its clock still runs (and then never calls
// HandleGameEnd), and such a player's counts stay unknown.
type endWatch struct {
	counts atomic.Pointer[map[string]int]
}

// take records p's counts, if it reports them.
func (w *endWatch) take(p any) {
	if c := degradationsOf(p); c != nil {
		w.counts.Store(&c)
	}
}

// degraded returns the counts taken, nil if none were.
func (w *endWatch) degraded() map[string]int {
	if c := w.counts.Load(); c != nil {
		return *c
	}
	return nil
}

// sum adds up counts.
func sum(counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}
