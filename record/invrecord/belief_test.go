package invrecord

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestBeliefKeepsTheTruthOnRecordedGames: over every committed
// invisible-chess record, each side's exact belief, under every opponent
// model, holds the true placement of its opponent's invisible pieces after
// every turn, and its board for that placement is the true board; every
// record re-referees.
func TestBeliefKeepsTheTruthOnRecordedGames(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("..", "..", "testdata", "invisible", "*.tar.gz"))
	if err != nil || len(archives) == 0 {
		t.Fatalf("no records in testdata/invisible: %v", err)
	}
	games, frames, maxPlaces := 0, 0, 0
	configs := map[invisible.Config]bool{}
	for rec, err := range record.Records(archives...) {
		if err != nil {
			t.Fatal(err)
		}
		r, err := Read(bytes.NewReader(rec.Data))
		if err != nil {
			t.Fatalf("%s: %v", rec.Name(), err)
		}
		games++
		configs[r.Configs[0]], configs[r.Configs[1]] = true, true
		for _, model := range invisible.Models() {
			err = r.FollowWith(model, func(turn int, pos *invisible.Position, tr [2]*invisible.Tracker) error {
				if model == invisible.Uniform {
					frames++
				}
				for c := chess.White; c <= chess.Black; c++ {
					truth := pos.Inv[c.Other()]
					if tr[c].Belief.Prob(truth) <= 0 {
						t.Errorf("%s turn %d, %v model: %v's belief (%d placements) lost the true placement %v", rec.Name(), turn, model, c, len(tr[c].Belief.Places), truth)
					}
					if b := tr[c].Board(truth); b.FEN() != pos.Board.FEN() {
						t.Errorf("%s turn %d: %v's board %s, the truth %s", rec.Name(), turn, c, b.FEN(), pos.Board.FEN())
					}
					maxPlaces = max(maxPlaces, len(tr[c].Belief.Places))
				}
				return nil
			})
			if err != nil {
				t.Errorf("%s, %v model: %v", rec.Name(), model, err)
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d games, %d positions, both sides, at most %d placements in a belief", games, frames, maxPlaces)
	if games < 200 || len(configs) < len(invisible.Configs()) {
		t.Errorf("%d games over %d configurations: the committed records should hold at least 200 over all 8", games, len(configs))
	}
}
