package engine

import (
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// scholar is the scholar's-mate set-up with Black to move: the queen on h5
// and the bishop on c4 both bear on f7.
const scholar = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"

func TestThreatScanFindsTheMateInOne(t *testing.T) {
	var s threatScan
	b := chess.MustParseFEN(scholar)
	if !s.threatened(&b) {
		t.Errorf("no threat found on %s", scholar)
	}
	for uci, want := range map[string]bool{
		"g8f6": true,  // the classic blunder: Qxf7 takes the king next
		"a7a6": true,  // a waiting move changes nothing
		"g7g6": false, // blocks the queen
		"d8e7": false, // defends f7 (Qxf7 Qxf7)
		"d8f6": false, // defends f7
		"g8h6": false, // the knight on h6 covers f7
	} {
		if got := s.matedAfter(&b, mv(t, uci)); got != want {
			t.Errorf("after %s: mated %v, want %v", uci, got, want)
		}
	}
}

func TestThreatScanNeedsBothAttackers(t *testing.T) {
	var s threatScan
	// No bishop on c4: Qxf7 is met by Kxf7.
	b := chess.MustParseFEN("r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3 3")
	if s.threatened(&b) {
		t.Errorf("threat reported on %s", b.FEN())
	}
	// The queen on f3 makes the same threat.
	f3 := chess.MustParseFEN("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3")
	if !s.threatened(&f3) {
		t.Errorf("no threat found on %s", f3.FEN())
	}
	// The start position: nothing.
	start := chess.StartBoard()
	if s.threatened(&start) {
		t.Error("threat reported on the start position")
	}
	// A king already attacked counts (it is the strongest threat).
	att := chess.MustParseFEN("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1")
	if !s.mates(mustTurn(att, chess.Black)) {
		t.Error("an attacked king is not reported")
	}
}

// mustTurn returns b with side to move c (b passed once if needed).
func mustTurn(b chess.Board, c chess.Color) *chess.Board {
	if b.Turn() != c {
		b.Apply(chess.Move{})
	}
	return &b
}

// TestKingEventsChargeTheUnseenMate: the engine scored quiet boards only; the
// larger sample holds one board of the scholar's set-up. The correction must
// lower the requests that allow the mate on it (g8f6) far more than those
// that stop it (g7g6), and leave the stopping ones where they were.
func TestKingEventsChargeTheUnseenMate(t *testing.T) {
	quiet := []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPPQPPP/RNB1K1NR b KQkq - 3 3",
		"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/3Q4/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
		"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/4Q3/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
	}
	var ws []sampler.Weighted
	for _, f := range append(quiet, scholar) {
		ws = append(ws, sampler.Weighted{Board: chess.MustParseFEN(f), Weight: 1})
	}
	reqs := Requests(ws[0].Board.MoveActions(), &ws[0].Board)
	m := StaticMatrix(ws[:len(quiet)], reqs)
	ev := kingEventsOf(ws, reqs)
	cfg := DefaultConfig()
	_, plain := chooseRequest(m, &cfg, &ws[0].Board, nil)
	_, corrected := chooseRequest(m, &cfg, &ws[0].Board, ev)
	drop := func(uci string) float64 {
		move := mv(t, uci)
		for j, r := range m.Requests {
			if r == move {
				return plain[j] - corrected[j]
			}
		}
		t.Fatalf("%s is not a request", uci)
		return 0
	}
	terms := evaluator.DefaultMoveTerms()
	if d := drop("g8f6"); d < float64(terms.Mate)/8 {
		t.Errorf("g8f6 lost %.0f, want at least %d", d, terms.Mate/8)
	}
	if d := drop("g7g6"); d != 0 {
		t.Errorf("g7g6 lost %.0f, want 0", d)
	}
}

func BenchmarkKingEvents(b *testing.B) {
	var ws []sampler.Weighted
	for range 200 {
		ws = append(ws, sampler.Weighted{Board: chess.MustParseFEN("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 9"), Weight: 1})
	}
	reqs := Requests(ws[0].Board.MoveActions(), &ws[0].Board)
	b.ResetTimer()
	for b.Loop() {
		kingEventsOf(ws, reqs)
	}
	b.ReportMetric(float64(len(ws)*len(reqs)), "board-requests/op")
}
