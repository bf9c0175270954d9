package beliefbench

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// TestBeliefKeepsTheTrueBoardOfRecords follows committed records (games of
// the sampling player against a heuristic bot on a local kriegspiel.org)
// from both sides with the exact belief, cut to a sample past its limit:
// on every turn it follows exactly, the true board is among its boards.
func TestBeliefKeepsTheTrueBoardOfRecords(t *testing.T) {
	paths := []string{"../../testdata/kriegspiel/records/simple-local-2.tar.gz", "../../testdata/kriegspiel/records/simple-local-3.tar.gz"}
	limit, most := 5_000, 1<<30
	if testing.Short() {
		limit, most = 2_000, 4
	}
	o := FollowOptions{Views: []string{"exact"}, Colors: []chess.Color{chess.White, chess.Black}, Size: 1, Limit: limit,
		Cut: true, Workers: 2, Memory: 1000 * sampler.BoardBytes, SpillDir: t.TempDir()}
	followed, turns, exact, cut, cutHeld := 0, 0, 0, 0, 0
	for f, err := range FollowRecords(context.Background(), paths, o) {
		if err != nil {
			t.Fatal(err)
		}
		st := f.Stats
		if held := st.Present - st.CutPresent; held != st.Exact {
			t.Errorf("%s as %s: the true board held on %d of %d turns followed exactly", f.Record.Base(), f.Color, held, st.Exact)
		}
		followed++
		turns += st.Turns
		exact += st.Exact
		cut += st.Turns - st.Exact
		cutHeld += st.CutPresent
		if followed == 2*most {
			break
		}
	}
	if exact < 4*followed {
		t.Errorf("only %d turns of %d sides followed exactly", exact, followed)
	}
	t.Logf("%d sides followed, %d turns: %d exact, %d after a cut (the true board kept on %d)", followed, turns, exact, cut, cutHeld)
}

// TestFollowRecordsRefusesRBC: an RBC record among Kriegspiel ones is an
// error of its own kind, naming the record.
func TestFollowRecordsRefusesRBC(t *testing.T) {
	const rbcRecord = "../../testdata/histories/trout_bot-attacker_bot-8-000.json"
	o := FollowOptions{Views: []string{"exact"}, Colors: []chess.Color{chess.White}, Size: 10, Limit: 100}
	n := 0
	for _, err := range FollowRecords(context.Background(), []string{rbcRecord}, o) {
		n++
		if !errors.Is(err, ErrNotKriegspiel) || !strings.Contains(err.Error(), "trout_bot-attacker_bot-8-000.json") {
			t.Errorf("err %v, want ErrNotKriegspiel naming the record", err)
		}
	}
	if n != 1 {
		t.Errorf("%d results, want the one error", n)
	}
}
