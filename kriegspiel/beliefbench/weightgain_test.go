package beliefbench

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// BenchmarkCutModelGain measures opponent models on the committed games
// against the heuristic bot: after each opponent's turn whose exact set
// holds 100 to 50,000 boards, the log of the true board's weight over the
// set's mean weight, averaged over the turns. A cut that keeps boards in
// proportion to the weight keeps the true board e^gain times as often as a
// uniform one, in the geometric mean, on the first cut (docs/kriegspiel.md).
// A measurement, not a speed: run it once (-benchtime 1x).
func BenchmarkCutModelGain(b *testing.B) {
	for b.Loop() {
		for _, m := range cutModelGain(b) {
			b.ReportMetric(m.gain, m.unit)
		}
	}
}

// modelGain is one model's mean log gain, and the benchmark's unit for it.
type modelGain struct {
	unit string
	gain float64
}

// cutModelGain follows the games and returns each model's mean log gain.
func cutModelGain(t testing.TB) []modelGain {
	paths := []string{"../../testdata/kriegspiel/records/simple-local-2.tar.gz", "../../testdata/kriegspiel/records/simple-local-3.tar.gz"}
	models := []struct {
		unit  string
		prior func(us chess.Color, capture chess.Square) oppmodel.Static
	}{
		{"gain-rbc-prior", oppmodel.Default},
		{"gain-near", func(us chess.Color, _ chess.Square) oppmodel.Static { return oppmodel.Kriegspiel(us) }},
	}
	gain := make([]float64, len(models))
	turns := 0
	for r, err := range record.Records(paths...) {
		if err != nil {
			t.Fatal(err)
		}
		rec, err := ksrecord.Read(bytes.NewReader(r.Data))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			start, err := chess.ParseFEN(rec.StartFEN)
			if err != nil {
				t.Fatal(err)
			}
			bl := kriegspiel.NewBelief(c, rec.Ruleset, start, rec.PawnTries)
			bl.SetLimit(50_000)
			st, err := kriegspiel.FollowTurns(context.Background(), rec, c, bl, func(i int, truth *chess.Board) error {
				if rec.Turns[i].Color == c || bl.Len() < 100 {
					return nil
				}
				tries := rec.Turns[i].Tries
				capture := tries[len(tries)-1].Answer.Capture
				boards := bl.Boards()
				turns++
				for m, model := range models {
					pr := model.prior(c, capture)
					sum := 0.0
					for j := range boards {
						sum += pr.Weight(&boards[j])
					}
					gain[m] += math.Log(pr.Weight(truth) / (sum / float64(len(boards))))
				}
				return nil
			})
			if err == nil && st.Stopped != nil && !errors.Is(st.Stopped, kriegspiel.ErrBeliefTooLarge) {
				err = st.Stopped
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	if turns == 0 {
		t.Fatal("no turn measured")
	}
	out := make([]modelGain, len(models))
	for m, model := range models {
		out[m] = modelGain{model.unit, gain[m] / float64(turns)}
	}
	return out
}
