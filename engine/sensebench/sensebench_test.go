package sensebench

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/evaluator"
)

// TestRunOnARecordedGame runs the benchmark on one short Trout game: every
// row covers the same turns, no strategy beats the hindsight-best window,
// and the reference rows mean what they say.
func TestRunOnARecordedGame(t *testing.T) {
	var progress, turns bytes.Buffer
	res, err := Run(context.Background(), Config{
		Strategies: []string{"random", "size", "hsuc"},
		Budget:     500 * time.Millisecond,
		MaxBoards:  300000,
		Eval:       evaluator.KindAuto,
		Engine:     engine.DefaultConfig(),
		MemoryMB:   1024,
		Seed:       1,
		Paths:      []string{"../../testdata/histories/trout_bot-trout_bot-gen-003.json"},
		Progress:   &progress,
		TurnLog:    &turns,
		Logger:     slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Games != 1 || res.Turns == 0 || res.Missing != 0 || res.CutSides != 0 {
		t.Fatalf("result %+v", res)
	}
	rows := res.Rows()
	if len(rows) != 6 {
		t.Fatalf("%d rows, want 3 strategies and 3 references", len(rows))
	}
	for _, r := range rows {
		if r.Turns != res.Turns {
			t.Errorf("row %q covers %d turns, the run %d", r.Name, r.Turns, res.Turns)
		}
		if r.BoardsAfter() < res.Hindsight.BoardsAfter() {
			t.Errorf("%s leaves fewer boards than the hindsight-best window", r.Name)
		}
		if r.Timed && (r.Decisions != res.Turns || r.Time <= 0) {
			t.Errorf("%s: %d decisions in %s over %d turns", r.Name, r.Decisions, r.Time, res.Turns)
		}
	}
	if res.NoSense.Reduction() != 0 || res.Hindsight.BestShare() != 1 {
		t.Errorf("reference rows wrong: no sense %+v, hindsight %+v", res.NoSense, res.Hindsight)
	}
	if size := res.Strategies[1]; size.Name != "size" || size.Reduction() <= 0 {
		t.Errorf("the size rule ruled nothing out: %+v", size)
	}
	if n := strings.Count(progress.String(), "\n"); n != 2 {
		t.Errorf("%d progress lines, want one per side:\n%s", n, progress.String())
	}
	if n := strings.Count(turns.String(), "\n"); n != res.Turns {
		t.Errorf("%d turn lines, want %d", n, res.Turns)
	}
}
