package sampler

import (
	"context"
	"fmt"
	"hash/fnv"
	"log/slog"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestSamplingBeliefsPinned pins the boards of the sampling beliefs over the
// first turns of a recorded game, from both sides, with a fixed seed: a
// digest of every board's FEN and weight, in order, at every checkpoint,
// and the count of recoveries. A pool of 8 loses the true board often, so
// the digest covers the last-observation draws of every belief (los's
// draws, the pools' recoveries and the hybrid's top-ups). A change of a
// digest is a change of behaviour: of the draws, their order or their use
// of the random numbers.
func TestSamplingBeliefsPinned(t *testing.T) {
	want := map[string]string{
		"aosp black":     "cbe3229fae6acb76",
		"aosp white":     "c009f50467d830fe",
		"exact recovery": "994684492235d7b1",
		"hybrid black":   "16ce24d4ad0f310f",
		"hybrid white":   "5b98211c12dc0156",
		"los black":      "c99126eece6d21f9",
		"los white":      "e5dd4f5cb170da52",
		"particle black": "f2a31e34a8e837a1",
		"particle white": "5baf92df3655798e",
	}
	got := map[string]string{}
	quiet := slog.New(slog.DiscardHandler)
	file := historyFiles(t)[0]
	for _, c := range []chess.Color{chess.White, chess.Black} {
		start, turns := loadTurns(t, file, c)
		for _, name := range []string{"los", "aosp", "hybrid", "particle"} {
			s := mustNew(t, name, Options{PoolSize: 8, Seed: 9, Workers: 1, Logger: quiet})
			h := fnv.New64a()
			replayTurns(t, s, c, start, turns, 12, func(turn int, at checkpoint, _ *chess.Board) {
				fmt.Fprintf(h, "%d %s:", turn, at)
				err := s.ForEach(context.Background(), func(_ int, boards []chess.Board, weights []float64) error {
					for i := range boards {
						fmt.Fprintf(h, "%s", boards[i].FEN())
						if weights != nil {
							fmt.Fprintf(h, " %g", weights[i])
						}
						fmt.Fprint(h, ";")
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			})
			fmt.Fprintf(h, "%d recoveries", s.Stats().Recoveries)
			got[fmt.Sprintf("%s %s", name, c)] = fmt.Sprintf("%016x", h.Sum64())
		}
	}
	// exact recovers from the latest observations when a sense contradicts
	// every board it holds.
	s := mustNew(t, "exact", Options{PoolSize: 8, Seed: 9, Workers: 1, Logger: quiet})
	ctx := context.Background()
	start := chess.StartBoard()
	if err := s.HandleGameStart(ctx, chess.White, start); err != nil {
		t.Fatal(err)
	}
	if err := s.HandleOpponentMoveResult(ctx, false, chess.NoSquare); err != nil {
		t.Fatal(err)
	}
	if err := s.HandleSenseResult(ctx, []rbc.SquarePiece{{Square: chess.E4, Piece: chess.MakePiece(chess.Black, chess.Queen)}}); err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	err := s.ForEach(ctx, func(_ int, boards []chess.Board, _ []float64) error {
		for i := range boards {
			fmt.Fprintf(h, "%s;", boards[i].FEN())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(h, "%d recoveries", s.Stats().Recoveries)
	got["exact recovery"] = fmt.Sprintf("%016x", h.Sum64())
	for k, g := range got {
		if want[k] != g {
			t.Errorf("%q: %q, // was %q", k, g, want[k])
		}
	}
}
