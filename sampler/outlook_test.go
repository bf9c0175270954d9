package sampler

import (
	"cmp"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// observationsOf returns the observations a player of colour c receives in
// turns, in the order exact records them, and the true board after each (path[0]
// the start).
func observationsOf(t *testing.T, start chess.Board, turns []ObservedTurn) ([]observation, []chess.Board) {
	t.Helper()
	obs := []observation{}
	path := []chess.Board{start}
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
		for _, c := range []chess.Color{chess.White, chess.Black} {
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
	start := chess.StartBoard()
	// White's view: Black's first move was e7e5, and White then sensed e6
	// (window d5..f7).
	truth := start
	truth.Apply(chess.Move{}) // White passed
	truth.Apply(chess.Move{From: chess.E7, To: chess.E5})
	obs := []observation{
		{kind: obsNotice, square: chess.NoSquare},
		{kind: obsMove, square: chess.NoSquare}, // a pass
		{kind: obsNotice, square: chess.NoSquare},
	}
	f, err := newSenseFilter(rbc.Sense(&truth, chess.E6))
	if err != nil {
		t.Fatal(err)
	}
	obs = append(obs, observation{kind: obsSense, sense: f})
	ol := newOutlook(obs, chess.Black)

	// Boards after White's pass (2 observations seen), Black to move.
	afterPass := start
	afterPass.Apply(chess.Move{})
	near := afterPass // one black move (e7e5) away from the sense
	far := afterPass  // six squares off: out of reach of one move, even a castling
	for _, s := range []chess.Square{chess.D7, chess.E7, chess.F7} {
		far.SetPiece(s, chess.NoPiece)
	}
	for _, s := range []chess.Square{chess.D5, chess.D6, chess.F6} {
		far.SetPiece(s, chess.MakePiece(chess.Black, chess.Knight))
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
	seg := func(b chess.Board) segment {
		return segment{at: 2, stage: oppToMove, l: layerOf(storeOf([]chess.Board{b}))}
	}
	sNear, sFar := seg(near), seg(far)
	pNear, pFar := ol.promise(&sNear, rng), ol.promise(&sFar, rng)
	if pFar != 0 || pNear <= 0 {
		t.Errorf("promise near %g, far %g; want near > 0 = far", pNear, pFar)
	}
}

// TestOutlookOrder measures the replay order on recorded games: at every
// turn where the true board waits in exact's backlog, how many deferred
// boards come before the segment that holds it, replaying by promise and
// replaying the most recent segment first (the order before the outlook).
// The default run uses one side of one game (not under -short);
// BLINDFISH_FULL_TESTS=1 uses both sides of the 16 games with trout_bot of
// the shared set (about 20 minutes).
func TestOutlookOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a game through exact")
	}
	files := []string{"../testdata/histories/random_bot-trout_bot-5-000.json"}
	colors := []chess.Color{chess.White}
	if fullRun() {
		files, _ = filepath.Glob("../testdata/histories/*trout_bot*-[0-9]-*.json")
		colors = append(colors, chess.Black)
	}
	ctx := context.Background()
	turns, first, firstOld := 0, 0, 0
	var ahead, aheadOld int64
	for _, file := range files {
		for _, c := range colors {
			start, tt := loadTurns(t, file, c)
			// One worker keeps the split between live set and backlog, and so
			// the figures, the same from run to run.
			s := mustNew(t, "exact", Options{Seed: 1, MemoryBudget: 64 << 20, BacklogBudget: 12 << 30, SpillBudget: -1, Workers: 1})
			e := s.(*exact)
			replayPath(t, s, c, start, tt, -1, func(turn int, at checkpoint, path []chess.Board) {
				if at != afterSense || e.recovered {
					return
				}
				if in, err := e.live.contains(ctx, 1, path[len(e.obs)].Key()); in || err != nil {
					return
				}
				ol := newOutlook(e.obs, c.Other())
				var segs []*segment
				holder := -1
				for i := range e.backlog {
					sg := &e.backlog[i]
					if sg.at >= len(e.obs) {
						continue
					}
					e.score(ol, sg)
					if has, _ := sg.l.contains(ctx, 1, path[sg.at].Key()); has {
						holder = len(segs)
					}
					segs = append(segs, sg)
				}
				if holder < 0 {
					return // the true board is in a segment not yet replayable
				}
				before := func(cmp func(a, b *segment) int) (boards int64, rank int) {
					order := slices.Clone(segs)
					slices.SortStableFunc(order, cmp)
					for k, sg := range order {
						if sg == segs[holder] {
							return boards, k
						}
						boards += int64(sg.size())
					}
					panic("lost the holder")
				}
				b, r := before(func(a, b *segment) int { return cmp.Or(cmp.Compare(b.promise, a.promise), b.at-a.at) })
				bOld, rOld := before(func(a, b *segment) int { return b.at - a.at })
				turns++
				ahead += b
				aheadOld += bOld
				if r == 0 {
					first++
				}
				if rOld == 0 {
					firstOld++
				}
			})
		}
	}
	if turns == 0 {
		t.Fatal("the true board was never in the backlog")
	}
	t.Logf("%d turns with the true board in the backlog: its segment replayed first %d times by promise, %d most recent first; boards replayed before it %.0f a turn by promise, %.0f most recent first",
		turns, first, firstOld, float64(ahead)/float64(turns), float64(aheadOld)/float64(turns))
	if ahead > aheadOld {
		t.Errorf("replaying by promise puts more boards before the true board (%d) than replaying the most recent first (%d)", ahead, aheadOld)
	}
}
