package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// senseEntry is one registered sense strategy.
type senseEntry struct {
	name    string
	summary string
	build   func(cfg *Config) SenseStrategy
}

// senseStrategies lists the sense strategies by name. To add one, write its
// file and add a line here.
func senseStrategies() []senseEntry {
	return []senseEntry{
		{"random", "a random inner window", newRandomSense},
		{"size", "maximise the expected set reduction 1 − Σnᵢ²/N²", newSizeSense},
		{"entropy", "maximise the entropy of the sense outcome", newEntropySense},
		{"hsuc", "minimise the largest group of boards the window cannot tell apart", newHSUCSense},
		{"voi", "value of information: the expected value of the best move after each outcome", newVOISense},
	}
}

// SenseNames returns the sense strategy names in the table's order.
func SenseNames() []string {
	var names []string
	for _, e := range senseStrategies() {
		names = append(names, e.name)
	}
	return names
}

// ParseSenseNames reads a list of sense strategy names, comma-separated
// (blanks and empty names ignored), or "all" for every registered one.
func ParseSenseNames(s string) ([]string, error) {
	if s == "all" {
		return SenseNames(), nil
	}
	var names []string
	for n := range strings.SplitSeq(s, ",") {
		if n = strings.TrimSpace(n); n == "" {
			continue
		}
		if !slices.Contains(SenseNames(), n) {
			return nil, fmt.Errorf("unknown sense strategy %q (have %s, or all)", n, strings.Join(SenseNames(), ", "))
		}
		names = append(names, n)
	}
	return names, nil
}

// NewSenseStrategy builds the sense strategy registered under name.
func NewSenseStrategy(name string, cfg *Config) (SenseStrategy, error) {
	for _, e := range senseStrategies() {
		if e.name == name {
			return e.build(cfg), nil
		}
	}
	return nil, fmt.Errorf("engine: unknown sense strategy %q (have %s)", name, strings.Join(SenseNames(), ", "))
}

// windowGroups returns the weight of each group of boards that the window
// centred on q shows alike (boards grouped by rbc.SenseKey). acc is
// scratch space, cleared first.
func windowGroups(ws []sampler.Weighted, q chess.Square, acc map[uint64]float64) []float64 {
	clear(acc)
	for i := range ws {
		acc[rbc.SenseKey(&ws[i].Board, q)] += ws[i].Weight
	}
	out := make([]float64, 0, len(acc))
	total := 0.0
	for _, w := range acc {
		out = append(out, w)
		total += w
	}
	if total > 0 {
		for i := range out {
			out[i] /= total
		}
	}
	return out
}

// setReduction is the expected share of the boards a window rules out,
// 1 − Σpᵢ², for outcome probabilities p.
func setReduction(p []float64) float64 {
	s := 0.0
	for _, x := range p {
		s += x * x
	}
	return 1 - s
}

// outcomeEntropy is the entropy of the outcome distribution p, in bits.
func outcomeEntropy(p []float64) float64 {
	h := 0.0
	for _, x := range p {
		if x > 0 {
			h -= x * math.Log2(x)
		}
	}
	return h
}

// largestGroupShare is the probability of the most likely outcome: the share
// of boards the window leaves together in the worst case.
func largestGroupShare(p []float64) float64 {
	m := 0.0
	for _, x := range p {
		m = max(m, x)
	}
	return m
}

// opponentWeight is the expected number of opponent pieces in the window
// centred on q: the tie-break between equally informative windows, so that
// a belief that cannot split (all its boards agree) still checks where it
// thinks the opponent's pieces are.
func opponentWeight(ws []sampler.Weighted, q chess.Square, them chess.Color) float64 {
	win := rbc.SenseWindow(q)
	s := 0.0
	for i := range ws {
		s += ws[i].Weight * float64((ws[i].Board.Pieces(them) & win).Count())
	}
	return s
}

// scoredSquare is a candidate window and its score.
type scoredSquare struct {
	sq    chess.Square
	score float64
	tie   float64
}

// better reports whether a beats b: a higher score, then a higher tie-break.
func (a scoredSquare) better(b scoredSquare) bool {
	const eps = 1e-9
	if math.Abs(a.score-b.score) > eps*max(1, math.Abs(b.score)) {
		return a.score > b.score
	}
	return a.tie > b.tie+eps
}
