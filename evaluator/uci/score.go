package uci

import "strconv"

// ScoreKind tells how a Score's Value is to be read.
type ScoreKind uint8

// Score kinds.
const (
	// ScoreNone means the info line carried no score.
	ScoreNone ScoreKind = iota
	// ScoreCP means Value is in centipawns from the side to move's view.
	ScoreCP
	// ScoreMate means Value is a mate distance in moves: positive when the
	// side to move mates, negative when it is mated; 0 when the side to move
	// is already checkmated.
	ScoreMate
)

// Bound tells whether a score is exact or only a bound from an aspiration
// window that failed.
type Bound uint8

// Score bounds.
const (
	// BoundExact marks an exact score.
	BoundExact Bound = iota
	// BoundLower marks a lower bound ("lowerbound"): the true score is at least Value.
	BoundLower
	// BoundUpper marks an upper bound ("upperbound"): the true score is at most Value.
	BoundUpper
)

// Score is an engine evaluation as reported in an info line.
type Score struct {
	// Kind says whether Value is centipawns or a mate distance.
	Kind ScoreKind
	// Value is the centipawn score or the mate distance, from the side to move's view.
	Value int
	// Bound says whether the score is exact or a bound.
	Bound Bound
}

// String renders the score the way UCI writes it, e.g. "cp 35",
// "mate -3", "cp 120 lowerbound" or "none".
func (s Score) String() string {
	var out string
	switch s.Kind {
	case ScoreCP:
		out = "cp " + strconv.Itoa(s.Value)
	case ScoreMate:
		out = "mate " + strconv.Itoa(s.Value)
	default:
		return "none"
	}
	switch s.Bound {
	case BoundLower:
		out += " lowerbound"
	case BoundUpper:
		out += " upperbound"
	}
	return out
}
