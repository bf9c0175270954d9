package engine

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/oppmodel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

func mustFEN(t *testing.T, fen string) chess.Board {
	t.Helper()
	b, err := chess.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPriorWeights: the boards where the opponent left a piece hanging
// weigh less, those where it defended weigh as before, a check exempts the
// board, and the threat part is unchanged by the hang part.
func TestPriorWeights(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threat = 0
	pr := newPrior(&cfg, chess.White, chess.NoSquare)
	hanging := mustFEN(t, "4k3/8/8/4n3/3Q4/8/8/4K3 w - - 0 1")
	defended := mustFEN(t, "4k3/8/5p2/4n3/3Q4/8/8/4K3 w - - 0 1")
	if w := pr.weight(&defended); w != 1 {
		t.Errorf("defended knight: weight %v, want 1", w)
	}
	if w, want := pr.weight(&hanging), math.Exp(-320/cfg.Hang); math.Abs(w-want) > 1e-12 {
		t.Errorf("hanging knight: weight %v, want %v", w, want)
	}
	// The knight gives check from d3 and hangs to the queen: a fork, not a
	// blunder.
	check := mustFEN(t, "4k3/8/8/8/8/3n4/3Q4/4K3 w - - 0 1")
	if w := pr.weight(&check); w != 1 {
		t.Errorf("checking knight: weight %v, want 1 (exempt)", w)
	}
	cfg.Hang = 0
	if w := newPrior(&cfg, chess.White, chess.NoSquare).weight(&hanging); w != 1 {
		t.Errorf("hang=0: weight %v, want 1", w)
	}
	if !newPrior(&cfg, chess.White, chess.NoSquare).off() {
		t.Error("threat=0 and hang=0 should turn the prior off")
	}
}

// TestPriorKingEnPrise: a board where the opponent's king is en prise gets
// the hang factor of oppmodel.HangCap, like a loose queen: weak opponents do leave
// their king to a piece they have not seen. A board where our own king is
// attacked stays exempt.
func TestPriorKingEnPrise(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threat = 0
	exposed := mustFEN(t, "q3k3/8/8/8/8/8/8/R3K3 w - - 0 1")  // the rook on a1 takes the loose queen
	king := mustFEN(t, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1")     // the rook on e1 takes the king
	both := mustFEN(t, "4k3/8/8/8/8/8/8/1K2R3 b - - 0 1")     // with black to move: the side to move changes nothing
	checked := mustFEN(t, "4k3/8/8/8/8/8/4R3/r4K2 w - - 0 1") // their rook checks us along the first rank, ours attacks their king
	pr := newPrior(&cfg, chess.White, chess.NoSquare)
	for _, c := range []struct {
		name string
		b    chess.Board
		want float64
	}{
		{"loose queen", exposed, math.Exp(-600 / cfg.Hang)},
		{"king en prise", king, math.Exp(-oppmodel.HangCap / cfg.Hang)},
		{"king en prise, other side to move", both, math.Exp(-oppmodel.HangCap / cfg.Hang)},
		{"our king in check", checked, 1},
	} {
		if w := pr.weight(&c.b); math.Abs(w-c.want) > 1e-12 {
			t.Errorf("%s: weight %v, want %v", c.name, w, c.want)
		}
	}
}

// TestPopulationPrioritySample: on a belief far larger than the population,
// the priority sample keeps k boards whose weights estimate the prior mass:
// the share of the less likely boards is their prior share, and the total
// is the belief's prior mass.
func TestPopulationPrioritySample(t *testing.T) {
	// 2,048 distinct boards (pawns on b7 c7 g7 h7 and a2–h2 but d2 vary;
	// none of them is attacked or defends anything that matters): on a
	// tenth the knight on e5 hangs to our queen (prior e^-1), on the rest
	// the pawn on f6 defends it (prior 1).
	f := &fixedBelief{}
	const n = 2048
	for i := range n {
		f6 := "5p2"
		if i%10 == 0 {
			f6 = "8"
		}
		fen := "4k3/" + pawnRank(i&15, []int{1, 2, 6, 7}, 'p') + "/" + f6 + "/4n3/3Q4/8/" +
			pawnRank(i>>4, []int{0, 1, 2, 4, 5, 6, 7}, 'P') + "/4K3 w - - 0 1"
		f.boards = append(f.boards, mustFEN(t, fen))
		f.weights = append(f.weights, 1.0/n)
	}
	cfg := DefaultConfig()
	cfg.Threat, cfg.Hang = 0, 320
	pr := newPrior(&cfg, chess.White, chess.NoSquare)
	const k = 256
	pop := scanPopulation(context.Background(), f, pr, k, 7)
	if pop == nil || len(pop.boards) != k || pop.scanned != n {
		t.Fatalf("population: %+v", pop)
	}
	looseMass, total, prev := 0.0, pop.cum[len(pop.cum)-1], 0.0
	for i := range pop.boards {
		if oppmodel.HangingValue(&pop.boards[i], chess.White, chess.NoSquare) > 0 {
			looseMass += pop.cum[i] - prev
		}
		prev = pop.cum[i]
	}
	loose := float64((n+9)/10) / n
	want := loose * math.Exp(-1) / (loose*math.Exp(-1) + 1 - loose)
	if got := looseMass / total; math.Abs(got-want) > 0.04 {
		t.Errorf("share of the loose boards %.4f, want %.4f", got, want)
	}
	// Its standard error is about 1/√k of the mass (6% here).
	if wantTotal := loose*math.Exp(-1) + 1 - loose; math.Abs(total-wantTotal) > 0.15 {
		t.Errorf("estimated prior mass %.4f, want %.4f", total, wantTotal)
	}
	// A belief no larger than k is kept whole, with exact weights.
	small := &fixedBelief{boards: f.boards[:100], weights: f.weights[:100]}
	if pop := scanPopulation(context.Background(), small, pr, k, 7); pop == nil || len(pop.boards) != 100 {
		t.Fatalf("small population: %+v", pop)
	}
}

// pawnRank renders a FEN rank with pawn p on the files of mask's set bits
// (bit i stands for files[i]).
func pawnRank(mask int, files []int, p byte) string {
	var sq [8]bool
	for i, f := range files {
		sq[f] = mask>>i&1 == 1
	}
	out, empty := "", 0
	for _, on := range sq {
		if !on {
			empty++
			continue
		}
		if empty > 0 {
			out += string(rune('0' + empty))
			empty = 0
		}
		out += string(p)
	}
	if empty > 0 {
		out += string(rune('0' + empty))
	}
	return out
}

// BenchmarkScanPopulation weighs a large exact belief under the prior (the
// attacker-vs-random game the sampler benchmarks use, at White's turn 9
// after the capture notice) and reports boards weighed per second: the rate
// that decides how large a belief a decision can weigh whole.
func BenchmarkScanPopulation(b *testing.B) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-008.json")
	if err != nil {
		b.Fatal(err)
	}
	start, turns, err := sampler.Observations(h, chess.White)
	if err != nil {
		b.Fatal(err)
	}
	s, err := sampler.New("exact", sampler.Options{Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := s.HandleGameStart(ctx, chess.White, start); err != nil {
		b.Fatal(err)
	}
	for i := 0; i <= 7; i++ {
		tr := &turns[i]
		if err := tr.Notice(ctx, s); err != nil {
			b.Fatal(err)
		}
		if err := tr.SenseWith(ctx, s, tr.Sense); err != nil {
			b.Fatal(err)
		}
		if err := tr.Move(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	if err := turns[8].Notice(ctx, s); err != nil {
		b.Fatal(err)
	}
	cfg := DefaultConfig()
	pr := newPrior(&cfg, chess.White, chess.NoSquare)
	size := s.Size().Boards
	var boards int64
	t0 := time.Now()
	for b.Loop() {
		if pop := scanPopulation(ctx, s, pr, popSize, 1); pop == nil {
			b.Fatal("no population")
		}
		boards += int64(size)
	}
	b.ReportMetric(float64(boards)/time.Since(t0).Seconds()/1e6, "Mboards/s")
	b.ReportMetric(float64(size), "belief")
	b.ReportMetric(0, "ns/op")
}
