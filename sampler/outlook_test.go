package sampler

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// observationsOf returns the observations a player of colour c receives in
// turns, in the order exact records them, and the true board after each (path[0]
// the start).
func observationsOf(t *testing.T, start rbc.Board, turns []Turn) ([]observation, []rbc.Board) {
	t.Helper()
	obs := []observation{}
	path := []rbc.Board{start}
	for _, tr := range turns {
		obs = append(obs, observation{kind: obsNotice, square: tr.CaptureSquare})
		path = append(path, tr.Before)
		f, err := newSenseFilter(tr.SenseResult)
		if err != nil {
			t.Fatal(err)
		}
		obs = append(obs, observation{kind: obsSense, sense: f})
		path = append(path, tr.Before)
		if tr.HasMove {
			obs = append(obs, observation{kind: obsMove, square: tr.Capture, requested: tr.Requested, taken: tr.Taken})
			path = append(path, tr.After)
		}
	}
	return obs, path
}

// The outlook drops boards from the backlog for good, so it must never
// reject the true board: at every point of every recorded game, from both
// sides, the true board fits every later sense.
func TestOutlookKeepsTheTruth(t *testing.T) {
	checked := 0
	for _, file := range historyFiles(t) {
		for _, c := range []rbc.Color{rbc.White, rbc.Black} {
			start, turns := loadTurns(t, file, c)
			obs, path := observationsOf(t, start, turns)
			ol := newOutlook(obs, c.Other())
			for at := range path {
				if _, ok := ol.misfit(&path[at], at); !ok {
					t.Fatalf("%s as %v: the true board after %d observations rejected", filepath.Base(file), c, at)
				}
				checked++
			}
		}
	}
	t.Logf("%d true boards checked", checked)
}

// A board far from what was sensed later is rejected, one that shows it fits
// with no misfit, and the promise of a segment ranks them accordingly.
func TestOutlookRanks(t *testing.T) {
	start := rbc.StartBoard()
	// White's view: Black's first move was e7e5, and White then sensed e6
	// (window d5..f7).
	truth := start
	truth.Apply(rbc.Move{}) // White passed
	truth.Apply(rbc.Move{From: rbc.E7, To: rbc.E5})
	obs := []observation{
		{kind: obsNotice, square: rbc.NoSquare},
		{kind: obsMove, square: rbc.NoSquare}, // a pass
		{kind: obsNotice, square: rbc.NoSquare},
	}
	f, err := newSenseFilter(truth.Sense(rbc.E6))
	if err != nil {
		t.Fatal(err)
	}
	obs = append(obs, observation{kind: obsSense, sense: f})
	ol := newOutlook(obs, rbc.Black)

	// Boards after White's pass (2 observations seen), Black to move.
	afterPass := start
	afterPass.Apply(rbc.Move{})
	near := afterPass // one black move (e7e5) away from the sense
	far := afterPass  // six squares off: out of reach of one move, even a castling
	for _, s := range []rbc.Square{rbc.D7, rbc.E7, rbc.F7} {
		far.SetPiece(s, rbc.NoPiece)
	}
	for _, s := range []rbc.Square{rbc.D5, rbc.D6, rbc.F6} {
		far.SetPiece(s, rbc.MakePiece(rbc.Black, rbc.Knight))
	}
	if d, ok := ol.misfit(&near, 2); !ok || d != 2 {
		t.Errorf("near board: misfit %d, %v; want 2, true", d, ok)
	}
	if _, ok := ol.misfit(&far, 2); ok {
		t.Error("a board six squares off one opponent move before the sense fits")
	}
	if d, ok := ol.misfit(&truth, 3); !ok || d != 0 {
		t.Errorf("the true board at the sense: misfit %d, %v; want 0, true", d, ok)
	}

	rng := rand.New(rand.NewPCG(1, 2))
	seg := func(b rbc.Board) segment {
		return segment{at: 2, stage: oppToMove, l: layerOf(storeOf([]rbc.Board{b}))}
	}
	sNear, sFar := seg(near), seg(far)
	pNear, pFar := ol.promise(&sNear, len(obs), rng), ol.promise(&sFar, len(obs), rng)
	if pFar != 0 || pNear <= 0 {
		t.Errorf("promise near %g, far %g; want near > 0 = far", pNear, pFar)
	}
}
