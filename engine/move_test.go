package engine

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// chooseOn runs a move strategy on a hand-built belief.
func chooseOn(t *testing.T, name string, f *fixedBelief, cfg Config) chess.Move {
	t.Helper()
	s, err := NewMoveStrategy(name, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	m, err := s.ChooseMove(context.Background(), testTurn(t, f, cfg))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// TestTakesACertainKingCapture: the queen on e2 takes the king on e8 on
// every board, whatever else differs (a queen left hanging on one of them is
// no distraction).
func TestTakesACertainKingCapture(t *testing.T) {
	f := newFixed(t,
		"4k3/p7/8/8/8/8/4Q3/4K3 w - - 0 1",
		"4k3/8/p7/8/8/8/4Q3/4K3 w - - 0 1",
		"4k3/8/8/8/q7/8/4Q3/4K3 w - - 0 1",
	)
	for _, name := range MoveNames() {
		if got := chooseOn(t, name, f, DefaultConfig()); got != mv(t, "e2e8") {
			t.Errorf("%s chose %v, want e2e8", name, got)
		}
	}
}

// TestTakesAKingCaptureThroughResolution: the request a1a8 is revised to a
// capture of the first piece on the file; that piece is the king on every
// board, though on different squares.
func TestTakesAKingCaptureThroughResolution(t *testing.T) {
	f := newFixed(t,
		"8/8/8/k7/8/8/8/R3K3 w - - 0 1",
		"8/k7/8/8/8/8/8/R3K3 w - - 0 1",
	)
	got := chooseOn(t, "meanmin", f, DefaultConfig())
	if got != mv(t, "a1a8") && got != mv(t, "a1a7") && got != mv(t, "a1a6") && got != mv(t, "a1a5") {
		t.Errorf("chose %v, want a rook move up the a-file", got)
	}
	for _, w := range f.boards {
		if !capturesKing(&w, got) {
			t.Errorf("%v does not capture the king on %s", got, w.FEN())
		}
	}
}

// TestAvoidsLeavingTheKingCapturable: on one board Black's bishop on b4
// attacks our king on e1; most moves leave it capturable there. The chosen
// move must keep the king safe on every board.
func TestAvoidsLeavingTheKingCapturable(t *testing.T) {
	f := newFixed(t,
		"rnbqk1nr/pppp1ppp/8/4p3/1b1PP3/8/PPP2PPP/RNBQKBNR w KQkq - 1 3",
		"rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3",
		"rnbqkbnr/pppp1p1p/6p1/4p3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3",
	)
	for _, name := range MoveNames() {
		got := chooseOn(t, name, f, DefaultConfig())
		for _, b := range f.boards {
			after := b
			rbc.Play(&after, got)
			if after.KingCapturable() {
				t.Errorf("%s chose %v, which leaves the king capturable on %s", name, got, b.FEN())
			}
		}
	}
}

// TestRequestsDeduplicatePromotions: a bare promotion and the explicit queen
// one are one request; bishop and rook promotions are dropped; the pass is
// always there.
func TestRequestsDeduplicatePromotions(t *testing.T) {
	b := chess.MustParseFEN("8/P7/8/8/8/8/8/K6k w - - 0 1")
	reqs := Requests(b.MoveActions(), &b)
	count := map[chess.Square]int{}
	for _, r := range reqs {
		if r.IsNull() {
			count[chess.NoSquare]++
			continue
		}
		if r.Promotion == chess.Bishop || r.Promotion == chess.Rook {
			t.Errorf("request %v should be dropped", r)
		}
		if r.From == chess.A7 {
			count[r.To]++
		}
	}
	if count[chess.NoSquare] != 1 {
		t.Error("the pass is missing")
	}
	// a7a8: queen (bare or explicit, once) and knight; a7b8: the same.
	if count[chess.A8] != 2 || count[chess.B8] != 2 {
		t.Errorf("promotion requests: %v", count)
	}
	for _, r := range reqs {
		if !r.IsNull() && !b.IsMoveAction(rbc.WithQueenDefault(&b, r)) {
			t.Errorf("%v is not a move action", r)
		}
	}
}

// TestAdvisors: a capture attempt whose result differs between boards is
// worth seeking; a capture announced on most boards costs hiding.
func TestAdvisors(t *testing.T) {
	ws := []sampler.Weighted{
		{Board: chess.MustParseFEN("4k3/p7/8/8/8/8/8/R3K2Q w - - 0 1"), Weight: 0.5},
		{Board: chess.MustParseFEN("4k3/8/8/8/8/8/8/R3K2Q w - - 0 1"), Weight: 0.5},
	}
	m := StaticMatrix(ws, []chess.Move{mv(t, "a1a8"), mv(t, "e1f1")})
	if got := seekValue(m, m.Weights, 0); got != 0.5 {
		t.Errorf("seek of a1a8 = %v, want 0.5 (it stops on a7 on one board of two)", got)
	}
	if got := seekValue(m, m.Weights, 1); got != 0 {
		t.Errorf("seek of e1f1 = %v, want 0", got)
	}
	if got := hideCost(m, m.Weights, 0, chess.Rook); got != 0.5*exposure(chess.Rook) {
		t.Errorf("hide cost of a1a8 = %v", got)
	}
}

// TestPlausibilityWeights: a board on which we win far more than on the
// others (the opponent left its queen hanging) loses weight.
func TestPlausibilityWeights(t *testing.T) {
	m := &Matrix{Requests: []chess.Move{{}}, Weights: []float64{1. / 3, 1. / 3, 1. / 3},
		Boards: make([]chess.Board, 3),
		Out:    [][]Outcome{{{Value: 0}}, {{Value: 10}}, {{Value: 900}}}}
	w := plausibilityWeights(m, 400)
	if !(w[2] < w[1] && w[1] <= w[0]) {
		t.Errorf("weights %v: the hanging-queen board should weigh least", w)
	}
	if w := plausibilityWeights(m, 0); w[2] != 1./3 {
		t.Errorf("temperature 0 should keep the weights, got %v", w)
	}
	// The same board with our king attacked (the queen on e2 checks it):
	// the loose piece does not make it less likely.
	m.Boards[2] = chess.MustParseFEN("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
	if w := plausibilityWeights(m, 400); w[2] < w[1] {
		t.Errorf("weights %v: the board with our king attacked lost weight", w)
	}
}

// TestMeanMinMix: the aggregate is mean·(weighted mean) + (1−mean)·min.
func TestMeanMinMix(t *testing.T) {
	m := &Matrix{Requests: []chess.Move{{}}, Boards: make([]chess.Board, 2),
		Out: [][]Outcome{{{Value: 100}}, {{Value: -100}}}}
	got := requestScores(m, nil, []float64{0.75, 0.25}, 0.7)
	if want := 0.7*50 + 0.3*-100; math.Abs(got[0]-want) > 1e-9 {
		t.Errorf("score %v, want %v", got[0], want)
	}
}

// TestShelterCost: d7d5 opens the a4–e8 diagonal to Black's king (four
// squares), a knight move opens nothing.
func TestShelterCost(t *testing.T) {
	b := chess.MustParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if got := shelterCost(&b, mv(t, "d7d5")); got != 4 {
		t.Errorf("d7d5 opens %v squares, want 4", got)
	}
	if got := shelterCost(&b, mv(t, "g8f6")); got != 0 {
		t.Errorf("g8f6 opens %v squares, want 0", got)
	}
	if got := shelterCost(&b, chess.Move{}); got != 0 {
		t.Errorf("a pass opens %v squares", got)
	}
}

// TestPressNearTheDrawClock: a queen up with the draw clock at 70, a pawn
// move is chosen; with a fresh clock, or when we are the side behind, the
// press changes no score.
func TestPressNearTheDrawClock(t *testing.T) {
	scores := func(fen string, press float64) (chess.Move, []float64) {
		b := chess.MustParseFEN(fen)
		ws := []sampler.Weighted{{Board: b, Weight: 1}}
		m := StaticMatrix(ws, Requests(b.MoveActions(), &b))
		cfg := DefaultConfig()
		cfg.Press = press
		best, s := chooseRequest(m, &cfg, &b, nil)
		return m.Requests[best], s
	}
	const ahead = "7k/8/8/8/8/8/P7/KQ6 w - - 70 100"
	got, _ := scores(ahead, 300)
	if b := chess.MustParseFEN(ahead); got.IsNull() || b.PieceAt(got.From).Type() != chess.Pawn {
		t.Errorf("chose %v, want a pawn move", got)
	}
	for _, fen := range []string{
		"7k/8/8/8/8/8/P7/KQ6 w - - 0 100",  // fresh clock
		"kq6/8/8/8/8/8/P7/K7 w - - 70 100", // behind: a draw is welcome
	} {
		_, with := scores(fen, 300)
		_, without := scores(fen, 0)
		if !slices.Equal(with, without) {
			t.Errorf("press changed the scores on %s", fen)
		}
	}
}

// TestPressReadsTheHighestClock: boards where the opponent pushed a pawn
// have a fresh draw clock, the one where it did not has the referee's; the
// press follows the highest, whichever board comes first.
func TestPressReadsTheHighestClock(t *testing.T) {
	fresh := chess.MustParseFEN("7k/7p/8/8/8/8/P7/KQ6 w - - 0 100")
	old := chess.MustParseFEN("7k/8/7p/8/8/8/P7/KQ6 w - - 90 100")
	for _, order := range [][]chess.Board{{fresh, old}, {old, fresh}} {
		ws := []sampler.Weighted{{Board: order[0], Weight: 0.5}, {Board: order[1], Weight: 0.5}}
		m := StaticMatrix(ws, Requests(fresh.MoveActions(), &fresh))
		if f := pressFactor(m); f != 1 {
			t.Errorf("press factor %v with the clocks %d and %d, want 1", f,
				order[0].HalfmoveClock(), order[1].HalfmoveClock())
		}
	}
}

// TestDeepenOnAKnownBoard: when the sample holds the whole belief and the
// clock affords it, the scores are searched deeper; when boards of the
// belief are missing from the sample, they are not.
func TestDeepenOnAKnownBoard(t *testing.T) {
	f := newFixed(t, "7k/8/5K2/8/8/8/8/6R1 w - - 0 1", "7k/8/5K2/8/8/8/8/5R2 w - - 0 1")
	cfg := DefaultConfig()
	turn := testTurn(t, f, cfg)
	// a round deeper takes milliseconds on a quiet machine; the deadline is
	// generous so that a starved race run still gets one.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws := []sampler.Weighted{{Board: f.boards[0], Weight: 0.5}, {Board: f.boards[1], Weight: 0.5}}
	reqs := Requests(f.boards[0].MoveActions(), &f.boards[0])
	start := time.Now()
	mat, err := turn.Scoring.Score(ctx, ws, reqs)
	if err != nil || mat.Len() != 2 {
		t.Fatalf("scored %d boards: %v", mat.Len(), err)
	}
	if got := turn.deepen(ctx, mat, ws, reqs, start); got.Depth < cfg.EmbeddedDepth+2 || got.Len() != 2 {
		t.Errorf("deepened to depth %d on %d boards, want at least %d on 2", got.Depth, got.Len(), cfg.EmbeddedDepth+2)
	}
	if got := turn.deepen(ctx, mat, ws[:1], reqs, start); got != mat {
		t.Error("deepened a sample that misses a board of the belief")
	}
}
