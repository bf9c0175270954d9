package beliefbench

import (
	"context"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

const game = "../../testdata/histories/trout_bot-attacker_bot-8-000.json"

// TestRun replays a recorded game from both sides through the exact belief:
// a turn report per recorded turn, the true board kept at every check, and
// totals that add the games up.
func TestRun(t *testing.T) {
	h, err := record.LoadHistoryFile(game)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{Samplers: []string{"exact"}, Colors: []chess.Color{chess.White, chess.Black},
		Options: sampler.Options{Seed: 1}, Paths: []string{game}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Games) != 2 {
		t.Fatalf("%d games, want one per side", len(rep.Games))
	}
	turns := 0
	for i, g := range rep.Games {
		c := []chess.Color{chess.White, chess.Black}[i]
		if g.Color != c.String() || g.Sampler != "exact" || g.File != "trout_bot-attacker_bot-8-000.json" || g.Record != game {
			t.Errorf("game %d: %+v", i, g)
		}
		if len(g.Turns) != len(h.Turns[c]) {
			t.Errorf("%v: %d turns reported, the record has %d", c, len(g.Turns), len(h.Turns[c]))
		}
		for k, bt := range g.Turns {
			if bt.Turn != k+1 || !bt.Present || !bt.PresentNotice || !bt.PresentSense || !bt.PresentMove || bt.SizeAfter > bt.SizeBefore {
				t.Errorf("%v turn %d: %+v", c, k+1, bt)
			}
		}
		turns += len(g.Turns)
	}
	if rep.Turns != turns || rep.Recall != 100 || len(rep.Samplers) != 1 || rep.Samplers[0].Games != 2 || rep.Samplers[0].Present != turns {
		t.Errorf("totals: %d turns, recall %v, %+v; want %d turns", rep.Turns, rep.Recall, rep.Samplers, turns)
	}
}
