package engine

import (
	"context"
	"math"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Three boards that differ only in where Black's knight stands: f6, g6 or
// h6. A window that sees all three squares tells every board apart; most
// windows tell none apart.
var knightBoards = []string{
	"rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
	"rnbqkb1r/pppppppp/6n1/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
	"rnbqkb1r/pppppppp/7n/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
}

// TestPartitionSensesPreferTheInformativeWindow: size, entropy and hsuc each
// choose a window that separates all three boards.
func TestPartitionSensesPreferTheInformativeWindow(t *testing.T) {
	f := newFixed(t, knightBoards...)
	need := sq(t, "f6").Bit() | sq(t, "g6").Bit() | sq(t, "h6").Bit()
	for _, name := range []string{"size", "entropy", "hsuc"} {
		s, err := NewSenseStrategy(name, new(Config))
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		got, err := s.ChooseSense(context.Background(), testTurn(t, f, cfg))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rbc.SenseWindow(got)&need != need {
			t.Errorf("%s sensed %v, whose window misses some of f6, g6, h6", name, got)
		}
	}
}

// TestEverySenseSplitsTwoBoards: two boards that differ only in a black pawn
// on a7 or a6; every strategy but random senses a window that sees the
// difference.
func TestEverySenseSplitsTwoBoards(t *testing.T) {
	f := newFixed(t,
		"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		"rnbqkbnr/1ppppppp/p7/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
	)
	diff := sq(t, "a7").Bit() | sq(t, "a6").Bit()
	for _, name := range SenseNames() {
		if name == "random" {
			continue
		}
		cfg := DefaultConfig()
		s, err := NewSenseStrategy(name, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.ChooseSense(context.Background(), testTurn(t, f, cfg))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rbc.SenseWindow(got)&diff == 0 {
			t.Errorf("%s sensed %v, which cannot tell the boards apart", name, got)
		}
	}
}

// TestRandomSenseStaysInside: the random strategy senses inner windows only.
func TestRandomSenseStaysInside(t *testing.T) {
	f := newFixed(t, knightBoards...)
	cfg := DefaultConfig()
	turn := testTurn(t, f, cfg)
	for range 200 {
		got, err := randomSense{}.ChooseSense(context.Background(), turn)
		if err != nil || got.File() < 1 || got.File() > 6 || got.Rank() < 1 || got.Rank() > 6 {
			t.Fatalf("random sensed %v (%v)", got, err)
		}
	}
}

// TestVOIPrefersTheWindowThatChangesTheMove: Black's queen is on d4 (board
// A) or h4 (B, C), where our knight on f3 can take it either way; B and C
// differ by a pawn on a7 or a6, which matters to no decision. Size ranks
// the queen windows and the pawn windows alike (each splits one board from
// two); voi must look at the queen, because the best capture depends on it.
func TestVOIPrefersTheWindowThatChangesTheMove(t *testing.T) {
	f := newFixed(t,
		"4k3/p7/8/8/3q4/5N2/8/4K3 w - - 0 1",
		"4k3/p7/8/8/7q/5N2/8/4K3 w - - 0 1",
		"4k3/8/p7/8/7q/5N2/8/4K3 w - - 0 1",
	)
	cfg := DefaultConfig()
	cfg.Threat, cfg.Hang = 0, 0 // keep the boards' weights equal, as the premise needs
	turn := testTurn(t, f, cfg)
	ws, _ := turn.sample(context.Background(), 10)
	_, red := bestPartitionWindow(ws, innerSquares(allSquares()), chess.Black, setReduction)
	if red[sq(t, "b7")] != red[sq(t, "g4")] {
		t.Fatalf("size should not prefer either: b7 %.3f, g4 %.3f", red[sq(t, "b7")], red[sq(t, "g4")])
	}
	got, err := voiSense{}.ChooseSense(context.Background(), turn)
	if err != nil {
		t.Fatal(err)
	}
	queen := sq(t, "d4").Bit() | sq(t, "h4").Bit()
	if rbc.SenseWindow(got)&queen == 0 {
		t.Errorf("voi sensed %v, which does not show the queen's square", got)
	}
}

// TestVOIPassesOnACertainKingCapture: when a request captures the king on
// every board, nothing a sense could show changes the move.
func TestVOIPassesOnACertainKingCapture(t *testing.T) {
	f := newFixed(t,
		"4k3/p7/8/8/8/8/4Q3/4K3 w - - 0 1",
		"4k3/8/p7/8/8/8/4Q3/4K3 w - - 0 1",
	)
	got, err := voiSense{}.ChooseSense(context.Background(), testTurn(t, f, DefaultConfig()))
	if err != nil || got != chess.NoSquare {
		t.Errorf("voi sensed %v (%v), want a pass", got, err)
	}
}

// TestRefinesAndDominated: a partition refines the ones it splits further,
// and a window whose partition another refines is skipped.
func TestRefinesAndDominated(t *testing.T) {
	fine := []int{0, 1, 2, 2}
	coarse := []int{0, 0, 1, 1}
	if !refines(fine, coarse) || refines(coarse, fine) {
		t.Error("refines is wrong")
	}
	squares := []chess.Square{chess.B2, chess.C3}
	red := map[chess.Square]float64{chess.B2: 0.6, chess.C3: 0.5}
	labels := [][]int{fine, coarse}
	if dominated(labels, 0, red, squares) || !dominated(labels, 1, red, squares) {
		t.Error("the coarse window should be dominated, the fine one not")
	}
	// Equal partitions: the one with the larger reduction survives.
	labels = [][]int{coarse, {1, 1, 0, 0}}
	if dominated(labels, 0, red, squares) || !dominated(labels, 1, red, squares) {
		t.Error("of two equal partitions, the one with the larger reduction should survive")
	}
}

// TestOutcomeStatistics checks the three partition statistics on known
// distributions.
func TestOutcomeStatistics(t *testing.T) {
	half := []float64{0.5, 0.5}
	skew := []float64{0.7, 0.1, 0.1, 0.1}
	if got := setReduction(half); got != 0.5 {
		t.Errorf("setReduction(half) = %v", got)
	}
	if got := outcomeEntropy(half); got != 1 {
		t.Errorf("outcomeEntropy(half) = %v", got)
	}
	if got := largestGroupShare(skew); got != 0.7 {
		t.Errorf("largestGroupShare(skew) = %v", got)
	}
	// Size and entropy can disagree: entropy values many small groups.
	a, b := []float64{0.5, 0.5}, []float64{0.6, 0.1, 0.1, 0.1, 0.1}
	if !(setReduction(a) < setReduction(b)) == (outcomeEntropy(a) < outcomeEntropy(b)) {
		t.Logf("size %v/%v entropy %v/%v", setReduction(a), setReduction(b), outcomeEntropy(a), outcomeEntropy(b))
	}
}

// TestDangerInfoFindsTheThreat: on one board of four a black knight on d3
// attacks our king on e1; the windows that show d3 settle the threat fully,
// windows far away not at all.
func TestDangerInfoFindsTheThreat(t *testing.T) {
	f := newFixed(t,
		"4k3/8/8/8/8/3n4/8/4K3 w - - 0 1",
		"4k3/8/8/8/1n6/8/8/4K3 w - - 0 1",
		"4k3/8/7n/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/n3K3 w - - 0 1",
	)
	ws, _ := f.Sample(context.Background(), 10, nil)
	info, d := dangerInfo(ws, innerSquares(allSquares()), chess.White)
	if d != 0.25 {
		t.Errorf("danger share %v, want 0.25", d)
	}
	full := 0.25 * 0.75
	if got := info[sq(t, "d3")]; got < full-1e-9 {
		t.Errorf("window d3: %v, want %v", got, full)
	}
	if got := info[sq(t, "c7")]; got > 1e-9 {
		t.Errorf("window c7 sees no knight, got %v", got)
	}
	if a, b := info[sq(t, "g6")], info[sq(t, "d3")]; !(a > 0 && a < b) {
		t.Errorf("window g6 rules out a safe board: %v, less than d3's %v", a, b)
	}
	cfg := DefaultConfig()
	got, err := voiSense{}.ChooseSense(context.Background(), testTurn(t, f, cfg))
	if err != nil {
		t.Fatal(err)
	}
	if !rbc.SenseWindow(got).Has(sq(t, "d3")) {
		t.Errorf("voi sensed %v, which does not show d3", got)
	}
}

// TestThreatWeight: a board where the opponent bears on our king's zone, or
// attacks the king, weighs more.
func TestThreatWeight(t *testing.T) {
	quiet := chess.MustParseFEN("4k3/8/8/8/8/8/8/n3K3 w - - 0 1")  // knight a1: far
	near := chess.MustParseFEN("4k3/8/8/8/8/8/1n6/4K3 w - - 0 1")  // knight b2: hits d1
	check := chess.MustParseFEN("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1") // knight d3: hits e1
	wq, wn, wc := threatWeight(&quiet, chess.White, 0.7, 2), threatWeight(&near, chess.White, 0.7, 2), threatWeight(&check, chess.White, 0.7, 2)
	if wq != 1 || !(wn > wq) || !(wc > wn) {
		t.Errorf("weights quiet %v, near %v, check %v", wq, wn, wc)
	}
	if w := threatWeight(&check, chess.White, 0, 2); w != 1 {
		t.Errorf("beta 0: %v", w)
	}
	// The check term: with check 5 the checked board weighs e^(0.7·3) more
	// than with check 2.
	if w5 := threatWeight(&check, chess.White, 0.7, 5); math.Abs(w5/wc-math.Exp(2.1)) > 1e-9 {
		t.Errorf("check 5 weighs %v, want %v", w5, wc*math.Exp(2.1))
	}
}

// TestPriorSamplingFindsRareThreats: in a belief of one threatening board
// among many quiet ones, a small sample drawn under the threat prior holds
// the threat far above its 1-in-N share.
func TestPriorSamplingFindsRareThreats(t *testing.T) {
	fens := []string{"4k3/8/8/8/8/3n4/8/4K3 w - - 0 1"} // knight d3 attacks e1
	for f := 0; f < 8; f++ {
		for r := 4; r < 7; r++ {
			fens = append(fens, quietKnight(chess.MakeSquare(f, r)))
		}
	}
	f := newFixed(t, fens...)
	cfg := DefaultConfig()
	cfg.Threat = 1
	turn := testTurn(t, f, cfg)
	ws, err := turn.sample(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	share := 0.0
	for _, w := range ws {
		if w.Board.Attacked(chess.E1, chess.Black) {
			share += w.Weight
		}
	}
	// Prior e^3 ≈ 20 against 24 quiet boards: about 45% of the draws.
	if share < 0.2 {
		t.Errorf("threat share in the sample %.2f (1 board of %d)", share, len(fens))
	}
}

// quietKnight is a FEN with kings on e8/e1 and a black knight on s.
func quietKnight(s chess.Square) string {
	b := chess.MustParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	b.SetPiece(s, chess.MakePiece(chess.Black, chess.Knight))
	return b.FEN()
}

// TestTrackInfoLooksNearTheKing: the boards differ in where a white knight
// stands near Black's king (f6, g5 or h4... within three squares) and in a
// far pawn; the windows that see the knight's squares tell more about the
// attackers than the one on the far pawn.
func TestTrackInfoLooksNearTheKing(t *testing.T) {
	f := newFixed(t,
		"4k3/8/5N2/8/8/8/P7/4K3 b - - 0 1",
		"4k3/8/8/6N1/8/8/P7/4K3 b - - 0 1",
		"4k3/8/8/6N1/8/P7/8/4K3 b - - 0 1",
		"4k3/8/5N2/8/8/P7/8/4K3 b - - 0 1",
	)
	ws, _ := f.Sample(context.Background(), 10, nil)
	info := trackInfo(ws, innerSquares(allSquares()), chess.Black)
	if near, far := info[sq(t, "f6")], info[sq(t, "b2")]; !(near > far) || far != 0 {
		t.Errorf("track info near %v, far %v", near, far)
	}
}

// TestTopWindows: the log names the window chosen first, then the others
// by value, at most n in all, whatever order they were scored in.
func TestTopWindows(t *testing.T) {
	scored := []scoredSquare{{sq: chess.B2, score: 10}, {sq: chess.C4, score: 1595}, {sq: chess.D2, score: 1260}, {sq: chess.G7, score: -5}}
	for _, tc := range []struct {
		chosen int
		n      int
		want   string
	}{
		{chosen: 1, n: 2, want: "c4:1595 d2:1260"},
		{chosen: 1, n: 4, want: "c4:1595 d2:1260 b2:10 g7:-5"},
		{chosen: 1, n: 9, want: "c4:1595 d2:1260 b2:10 g7:-5"},
		// The choice leads even where another window values more (as after
		// a near tie the set reduction broke).
		{chosen: 2, n: 3, want: "d2:1260 c4:1595 b2:10"},
	} {
		if got := topWindows(scored[tc.chosen], scored, tc.n); got != tc.want {
			t.Errorf("topWindows(chosen %v, n=%d) = %q, want %q", scored[tc.chosen].sq, tc.n, got, tc.want)
		}
	}
	if scored[0].sq != chess.B2 {
		t.Error("topWindows reordered the caller's slice")
	}
}
