package sensebench

import (
	"math"
	"slices"
	"time"
)

// Result is what a run measured: a row per strategy and the reference rows
// that give the rows their meaning.
type Result struct {
	// Games counts the recorded games replayed; Turns the player-turns
	// scored (those whose belief held more than one board).
	Games, Turns int
	// Inexact counts the scored turns where part of the belief waited in
	// the backlog: sizes then count the live boards only.
	Inexact int
	// Missing counts the turns whose true board was not in the belief (a
	// bug, or a budget that dropped boards).
	Missing int
	// CutSides counts the sides stopped at Config.MaxBoards, CutTurns the
	// turns they left out.
	CutSides, CutTurns int
	// Strategies holds a row per Config.Strategies, in their order.
	Strategies []*Row
	// Recorded is the sense the recorded player made, Hindsight the best
	// window in hindsight, NoSense the belief before sensing.
	Recorded, Hindsight, NoSense Row
}

func newResult() *Result {
	return &Result{
		Recorded:  Row{Name: "(recorded sense)"},
		Hindsight: Row{Name: "(hindsight best)"},
		NoSense:   Row{Name: "(no sense)"},
	}
}

// Rows returns the rows in the order of the benchmark's table: the
// strategies, then the recorded sense, the hindsight best and no sense.
func (r *Result) Rows() []*Row {
	return append(slices.Clone(r.Strategies), &r.Recorded, &r.Hindsight, &r.NoSense)
}

// Row accumulates one way of choosing the sense window over the scored
// turns.
type Row struct {
	// Name is the strategy's name, or the reference's in parentheses.
	Name string
	// Timed is true for a strategy, whose decisions are timed, and false for
	// a reference row.
	Timed bool
	// Turns counts the turns scored; Best those whose window left no more
	// boards than the hindsight-best one.
	Turns, Best int
	// Time is the time spent deciding over Decisions decisions, of which
	// Failed failed (and were counted as a pass).
	Time              time.Duration
	Decisions, Failed int

	after, bits, ruledOut float64 // sums: boards left, log2 of boards left, share ruled out
}

// add counts a turn whose belief held before boards and whose window left
// after, best if no window left fewer.
func (r *Row) add(before, after int, best bool) {
	r.Turns++
	r.after += float64(after)
	r.bits += math.Log2(float64(max(after, 1)))
	r.ruledOut += 1 - float64(after)/float64(before)
	if best {
		r.Best++
	}
}

// mean divides a sum by the turns (0 without turns).
func (r *Row) mean(sum float64) float64 {
	if r.Turns == 0 {
		return 0
	}
	return sum / float64(r.Turns)
}

// BoardsAfter is the mean number of boards the sense left.
func (r *Row) BoardsAfter() float64 { return r.mean(r.after) }

// BitsAfter is the mean log2 of the boards the sense left: the uncertainty
// left, less dominated by a few huge beliefs than BoardsAfter.
func (r *Row) BitsAfter() float64 { return r.mean(r.bits) }

// Reduction is the mean share of the belief the sense ruled out, from 0 to
// 1.
func (r *Row) Reduction() float64 { return r.mean(r.ruledOut) }

// BestShare is the share of turns whose window matched the hindsight-best
// one, from 0 to 1.
func (r *Row) BestShare() float64 { return r.mean(float64(r.Best)) }
