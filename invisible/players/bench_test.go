//go:build linux

package players

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/invrecord"
)

// bigBeliefs returns trackers, from the committed records, of sides with two
// invisible pieces a side still on the board, the largest beliefs first:
// the advisor's slowest decisions.
func bigBeliefs(tb testing.TB, n int) []*invisible.Tracker {
	tb.Helper()
	archives, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "invisible", "*.tar.gz"))
	if len(archives) == 0 {
		tb.Fatal("no records in testdata/invisible")
	}
	var out []*invisible.Tracker
	for rec, err := range record.Records(archives...) {
		if err != nil {
			tb.Fatal(err)
		}
		r, err := invrecord.Read(bytes.NewReader(rec.Data))
		if err != nil {
			tb.Fatal(err)
		}
		if len(r.Configs[0].Starts(0)) != 2 || len(r.Configs[1].Starts(1)) != 2 {
			continue
		}
		var best *invisible.Tracker
		err = r.Follow(func(_ int, pos *invisible.Position, tr [2]*invisible.Tracker) error {
			for _, inv := range pos.Inv {
				if inv[0] == -1 || inv[1] == -1 {
					return nil
				}
			}
			mover := tr[pos.Board.Turn()]
			if best == nil || len(mover.Belief.Places) > len(best.Belief.Places) {
				c := *mover
				c.Belief = invisible.Belief{Places: slices.Clone(mover.Belief.Places), Probs: slices.Clone(mover.Belief.Probs)}
				best = &c
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
		if best != nil {
			out = append(out, best)
		}
	}
	slices.SortFunc(out, func(a, b *invisible.Tracker) int { return len(b.Belief.Places) - len(a.Belief.Places) })
	return out[:min(n, len(out))]
}

func advisorOn(tr *invisible.Tracker, cfg AdvisorConfig) *Advisor {
	p := NewAdvisor(cfg, 1, nil)
	p.tr = tr
	p.hide = newHideModel(tr.Own)
	return p
}

// BenchmarkAdvisorDecision is one decision of the default advisor (depth
// 1, the strategic advisor alone) on the recorded positions with two
// invisible pieces a side whose beliefs are the largest.
func BenchmarkAdvisorDecision(b *testing.B) {
	trs := bigBeliefs(b, 16)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := advisorOn(trs[i%len(trs)], DefaultAdvisor)
		if _, err := p.ChooseTry(context.Background(), time.Minute); err != nil {
			b.Fatal(err)
		}
	}
}
