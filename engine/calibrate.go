package engine

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// PriorCalibration measures the opponent model against recorded games. At
// each observed turn it adds the share of the belief's boards (weighed
// alike, as the belief keeps them) in each class of a prior feature to the
// class's Expected count, and 1 to the Observed count of the class the true
// board is in. Were boards equally likely, the two would agree; the ratio
// Observed/Expected of a class, relative to the ratio of the feature's
// neutral class, is the likelihood ratio the prior's factor should give
// that class. Turns where the belief holds one board tell nothing and are
// left out by the caller.
type PriorCalibration struct {
	// Turns counts the turns observed.
	Turns int
	// Hang holds the classes of the material the opponent left en prise
	// (none, up to a pawn, a minor piece, a rook, a queen), the boards where
	// our king is attacked, which the prior exempts, and those where the
	// opponent's own king is (the prior counts it as oppmodel.HangCap; kept apart
	// because a king left en prise loses the game at once, and an opponent
	// that never does so makes our king-capture gambles fail).
	Hang []CalibrationClass
	// Zone holds the classes of the number of opponent pieces bearing on our
	// king's zone (0 to 4 and more), the threat feature.
	Zone []CalibrationClass
	// Pressure holds the classes of the most the opponent could win from us
	// at once on the board (none, up to a pawn, a minor piece, a rook, a
	// queen; our king attacked is Zone's and hang's "checked"): whether a
	// competent opponent attacks our pieces more often than the uniform
	// belief says. No prior uses it yet; it is measured first.
	Pressure []CalibrationClass
}

// CalibrationClass is one class of a prior feature.
type CalibrationClass struct {
	Name string
	// Value is the class's representative value of the feature (centipawns
	// for hang, attackers for zone), for the implied temperature.
	Value float64
	// Expected is the sum over turns of the belief's share in the class;
	// Observed the number of turns the true board was in it.
	Expected, Observed float64
}

// Ratio returns Observed/Expected (NaN when nothing was expected).
func (c CalibrationClass) Ratio() float64 {
	if c.Expected <= 0 {
		return math.NaN()
	}
	return c.Observed / c.Expected
}

// hangClasses and zoneClasses are the classes PriorCalibration counts.
var (
	hangNames  = []string{"none", "pawn", "minor", "rook", "queen", "checked", "king"}
	hangValues = []float64{0, 100, 320, 500, oppmodel.HangCap, 0, oppmodel.HangCap}
)

// NewPriorCalibration returns an empty calibration.
func NewPriorCalibration() *PriorCalibration {
	c := &PriorCalibration{}
	for i, n := range hangNames {
		c.Hang = append(c.Hang, CalibrationClass{Name: n, Value: hangValues[i]})
	}
	for i, n := range hangNames[:5] {
		c.Pressure = append(c.Pressure, CalibrationClass{Name: n, Value: hangValues[i]})
	}
	for a := range 5 {
		name := strconv.Itoa(a)
		if a == 4 {
			name = "4+"
		}
		c.Zone = append(c.Zone, CalibrationClass{Name: name, Value: float64(a)})
	}
	return c
}

// hangClass returns the class index of b's hanging material for us (the
// piece on capture, which has just taken one of ours, left out).
func hangClass(b *chess.Board, us chess.Color, capture chess.Square) int {
	k := b.KingSquare(us)
	if k != chess.NoSquare && b.Attacked(k, us.Other()) {
		return 5
	}
	if theirs := b.KingSquare(us.Other()); theirs != chess.NoSquare && b.Attacked(theirs, us) {
		return 6
	}
	return materialClass(oppmodel.HangingValue(b, us, capture))
}

// pressureClass returns the class index of what the opponent could win from
// us at once on b (our king attacked counts as "none": it is the threat
// feature's).
func pressureClass(b *chess.Board, us chess.Color) int {
	them := us.Other()
	if k := b.KingSquare(us); k != chess.NoSquare && b.Attacked(k, them) {
		return 0
	}
	return materialClass(oppmodel.HangingValue(b, them, chess.NoSquare))
}

// materialClass returns the class index of material h won at once: none,
// up to a pawn, a minor piece, a rook, more (rows 0-4 of the hang and
// pressure tables).
func materialClass(h float64) int {
	switch {
	case h == 0:
		return 0
	case h <= 150:
		return 1
	case h <= 350:
		return 2
	case h <= 550:
		return 3
	}
	return 4
}

// zoneClass returns the class index of the opponent's pieces bearing on
// our king's zone on b.
func zoneClass(b *chess.Board, us chess.Color) int {
	k := b.KingSquare(us)
	if k == chess.NoSquare {
		return 0
	}
	return min(int(oppmodel.ZoneAttackers(b, k, us.Other(), false, 0)), 4)
}

// Observe adds one turn: belief is ours after the capture notice, truth the
// true board then (us to move), capture where the opponent just captured
// (NoSquare if it did not).
func (c *PriorCalibration) Observe(ctx context.Context, belief sampler.Sampler, truth *chess.Board, us chess.Color, capture chess.Square) error {
	hang := make([][]float64, belief.Workers())
	zone := make([][]float64, belief.Workers())
	pressure := make([][]float64, belief.Workers())
	for w := range hang {
		hang[w], zone[w] = make([]float64, len(c.Hang)), make([]float64, len(c.Zone))
		pressure[w] = make([]float64, len(c.Pressure))
	}
	err := belief.ForEach(ctx, func(w int, boards []chess.Board, weights []float64) error {
		for i := range boards {
			x := 1.0
			if weights != nil {
				x = weights[i]
			}
			hang[w][hangClass(&boards[i], us, capture)] += x
			zone[w][zoneClass(&boards[i], us)] += x
			pressure[w][pressureClass(&boards[i], us)] += x
		}
		return ctx.Err()
	})
	if err != nil {
		return fmt.Errorf("engine: calibrating on the belief: %w", err)
	}
	add := func(classes []CalibrationClass, counts [][]float64) {
		total := 0.0
		for _, cs := range counts {
			for _, x := range cs {
				total += x
			}
		}
		if total == 0 {
			return
		}
		for _, cs := range counts {
			for k, x := range cs {
				classes[k].Expected += x / total
			}
		}
	}
	add(c.Hang, hang)
	add(c.Zone, zone)
	add(c.Pressure, pressure)
	c.Hang[hangClass(truth, us, capture)].Observed++
	c.Zone[zoneClass(truth, us)].Observed++
	c.Pressure[pressureClass(truth, us)].Observed++
	c.Turns++
	return nil
}

// ImpliedHang returns, for a hang class, the temperature of the hang prior
// that matches the measured likelihood ratio against the class "none":
// exp(−Value/T) = ratio(k)/ratio(none). NaN where it is undefined (the
// classes "none" and "checked", or a ratio at or above the neutral one).
func (c *PriorCalibration) ImpliedHang(k int) float64 {
	if k <= 0 || k == 5 || k >= len(c.Hang) {
		return math.NaN()
	}
	rel := c.Hang[k].Ratio() / c.Hang[0].Ratio()
	if !(rel > 0 && rel < 1) {
		return math.NaN()
	}
	return -c.Hang[k].Value / math.Log(rel)
}

// ImpliedThreat returns, for a zone class, the strength of the threat prior
// that matches the measured likelihood ratio against class 0:
// exp(Threat·a) = ratio(a)/ratio(0). NaN for class 0 or without data.
func (c *PriorCalibration) ImpliedThreat(k int) float64 {
	if k <= 0 || k >= len(c.Zone) {
		return math.NaN()
	}
	rel := c.Zone[k].Ratio() / c.Zone[0].Ratio()
	if !(rel > 0) {
		return math.NaN()
	}
	return math.Log(rel) / c.Zone[k].Value
}

// CalibrationOptions say which recorded games and turns PriorCalibration's
// ObserveRecords measures.
type CalibrationOptions struct {
	// MemoryBudget is the exact belief's memory budget in bytes.
	MemoryBudget int64
	// MaxBoards leaves out turns whose belief holds more boards than this
	// (their scan is slow).
	MaxBoards int
	// Opponent, when set, keeps only the sides that played against the
	// player of this name (as the records spell it), so that the model
	// measured is that opponent's.
	Opponent string
}

// ObserveRecords replays the recorded games at paths (record.Records) through
// the exact belief from the sides o keeps and observes their turns (see
// ObserveGame). It returns the number of games measured and of records
// read.
func (c *PriorCalibration) ObserveRecords(ctx context.Context, paths []string, o CalibrationOptions) (games, records int, err error) {
	for rec, err := range record.Records(paths...) {
		if err != nil {
			return games, records, err
		}
		h, err := rec.History()
		if err != nil {
			return games, records, err
		}
		records++
		sides := []chess.Color{chess.White, chess.Black}
		switch o.Opponent {
		case "":
		case h.BlackName:
			sides = []chess.Color{chess.White}
		case h.WhiteName:
			sides = []chess.Color{chess.Black}
		default:
			continue
		}
		games++
		for _, us := range sides {
			if err := c.ObserveGame(ctx, h, us, o); err != nil {
				return games, records, fmt.Errorf("%s as %v: %w", rec.Name(), us, err)
			}
		}
	}
	return games, records, nil
}

// ObserveGame replays one game from side us through the exact belief and
// observes every turn whose belief is exact, holds the true board and more
// than one board (and at most o.MaxBoards).
func (c *PriorCalibration) ObserveGame(ctx context.Context, h *rbc.History, us chess.Color, o CalibrationOptions) error {
	s, err := sampler.New("exact", sampler.Options{Seed: 1, MemoryBudget: o.MemoryBudget})
	if err != nil {
		return err
	}
	defer s.Close()
	r := &sampler.Replay{Noticed: func(ctx context.Context, t *sampler.ReplayTurn) error {
		if size := s.Size(); size.Exact && size.Boards > 1 && size.Boards <= o.MaxBoards && s.Contains(&t.Before) {
			return c.Observe(ctx, s, &t.Before, us, t.CaptureSquare)
		}
		return nil
	}}
	return r.Run(ctx, s, h, us)
}
