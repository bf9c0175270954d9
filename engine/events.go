package engine

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// kingEvents are, per request, the shares of a sample's boards on which the
// request captures the enemy king (win), leaves our king capturable
// (exposed) or lets the opponent force its capture next move (mated, see
// threatScan). They need no engine, so they are counted on every sampled
// board, while the engine scores only the boards the deadline allows: the
// events that decide games are then measured on the large sample and the
// engine's opinion on the small one.
type kingEvents struct {
	win, exposed, mated  []float64
	anyExposed, anyMated []bool
}

// kingEventsOf counts the king events of reqs on ws (belief weights).
func kingEventsOf(ws []sampler.Weighted, reqs []chess.Move) *kingEvents {
	n := len(reqs)
	ev := &kingEvents{win: make([]float64, n), exposed: make([]float64, n), mated: make([]float64, n),
		anyExposed: make([]bool, n), anyMated: make([]bool, n)}
	var scan threatScan
	total := 0.0
	for _, w := range ws {
		total += w.Weight
	}
	for _, w := range ws {
		wt := 1 / float64(len(ws))
		if total > 0 {
			wt = w.Weight / total
		}
		b := &w.Board
		for j, r := range reqs {
			taken, c := rbc.Resolve(b, rbc.WithQueenDefault(b, r))
			switch {
			case c != chess.NoSquare && b.PiecesOf(b.Turn().Other(), chess.King).Has(c):
				ev.win[j] += wt
			case leavesKingCapturable(b, taken):
				ev.exposed[j] += wt
				ev.anyExposed[j] = true
			case scan.matedAfter(b, taken):
				ev.mated[j] += wt
				ev.anyMated[j] = true
			}
		}
	}
	return ev
}

// correct adjusts a request's aggregate score, computed on the boards of m,
// to the king events of the larger sample: the mean part gets the difference
// in the events' shares at their MoveTerms values, and the minimum moves
// toward the exposed-king value by the chance that a sample of m's size
// would have held an exposing board (so a threat seen on one board of 200
// weighs on the minimum as it would on one board of 20 a tenth of the time,
// rather than dominating every decision). A forced loss (mated) is valued as
// the engine values a mate in one against us, and moves the minimum the same
// way.
func (ev *kingEvents) correct(m *Matrix, j int, mean, lo float64, terms evaluator.MoveTerms) (float64, float64) {
	if ev == nil {
		return mean, lo
	}
	var scan threatScan
	win, exposed, mated := 0.0, 0.0, 0.0
	for i, row := range m.Out {
		switch {
		case row[j].KingCapture:
			win += m.Weights[i]
		case row[j].Exposed:
			exposed += m.Weights[i]
		case ev.anyMated[j] && scan.matedAfter(&m.Boards[i], row[j].Taken):
			mated += m.Weights[i]
		}
	}
	mean += float64(terms.KingCapture)*(ev.win[j]-win) - float64(terms.KingCapturable)*(ev.exposed[j]-exposed) -
		float64(terms.Mate)*(ev.mated[j]-mated)
	if kc := -float64(terms.KingCapturable); ev.anyExposed[j] && lo > kc {
		lo += (kc - lo) * min(1, ev.exposed[j]*float64(m.Len()))
	}
	if km := -float64(terms.Mate); ev.anyMated[j] && lo > km {
		lo += (km - lo) * min(1, ev.mated[j]*float64(m.Len()))
	}
	return mean, lo
}
