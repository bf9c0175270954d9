package evaluator

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
)

// poolBenchFENs are 50 legal, varied positions (mostly middlegames, some
// openings and endgames) reached by Stockfish self-play with randomised
// near-best moves; none is terminal.
var poolBenchFENs = []string{
	"r4rk1/5pb1/1qP3p1/3pp3/p1b2P1P/P1B3P1/1P1Q2BK/3R3R w - - 0 28",
	"2rq3r/2p3k1/3p4/p2Np2p/bPP2RN1/P7/4PPP1/2R1KB2 w - - 1 27",
	"rn1qkb1r/pp2pppp/5nb1/3pN3/2pP2P1/P3P2P/1PP2P2/RNBQKB1R b KQkq - 2 9",
	"r3k2r/b2p1ppp/pq2pn2/1p6/PnpP4/2N1PP2/1PP2P1P/RBBQ1R1K b kq - 4 14",
	"6kb/1p2qp1p/6p1/3P4/8/4PN2/5PPP/rB1Q1K1R b - - 4 28",
	"r1bqkb1r/ppn2p2/3p1Bpp/4p3/2P4N/P5P1/1P1QPPBP/RN2K2R b KQkq - 0 12",
	"r1b2r2/1p3pbk/1n1N2pp/p1pP3n/8/1q2BNP1/3QPP1P/2R1KB1R w K - 0 18",
	"3qr3/1p2bpk1/p2pPn1p/2p1n3/2P1P1p1/1P6/P2NB1PP/R1BQ1R1K w - - 3 22",
	"4rbr1/pp1k1p1p/2n2np1/4p3/2P5/PP2PN1P/1B3PP1/R3KB1R w KQ - 6 19",
	"rn4k1/pp2qp1p/2p3p1/r3bb2/5B2/2N1QNP1/PP2PP1P/R4RK1 b - - 5 17",
	"r1bq1rk1/p1pnbppp/1p2pn2/3p4/3P4/P1N1PN2/1PP1BPPP/R1BQ1RK1 w - - 0 9",
	"7B/3kpp2/8/2p3pp/8/P5P1/1P1K1P1P/2R5 b - - 0 29",
	"r2r2k1/1p2pp1p/6p1/8/pBnP4/3b4/PP2NPPP/2RK2R1 w - - 4 22",
	"1r1n1rkb/1pRR4/4p1p1/P3p2p/4P3/1p2N1PP/1P3P2/6K1 w - - 2 29",
	"rq3k2/pp3bpr/2pP3p/P4p2/5N1P/B3P3/5P1P/RB1QK2R b KQ - 2 21",
	"q1b2r2/5pbk/3R3p/P5p1/2PpPp2/P4N1P/2Q2PP1/5R1K w - - 0 26",
	"7k/ppp3p1/5r2/7n/1PB5/3PRP2/P2N3P/6K1 w - - 1 31",
	"2b1k2r/1pq2ppp/2p2n2/3P2N1/2PPp3/r5PP/P1Q1KPB1/R6R w k - 0 19",
	"7Q/p2nkp1p/1r4p1/n2p4/P2P4/bpB1PN2/q2N1PPP/1R3RK1 b - - 2 22",
	"r3k2r/pp2ppbp/2p2n2/2q1n3/1Pp1P2p/6P1/P1NPP1BP/R1BQK2R b KQkq - 0 15",
	"r3r1k1/1p1b2pp/4pp2/p2p4/1BP1P3/2P4N/P1K2PRP/R7 b - - 0 19",
	"r1bq1rk1/5p2/p1p3p1/Pp1p4/R1n1B3/1NP1B2P/2P2QP1/5RK1 w - - 0 21",
	"r1bq1rk1/ppp1b2p/6p1/3pP3/4p1Q1/2P3Bn/PP1NBPPP/R3K2R b KQ - 2 19",
	"1qr4k/p1N3b1/3r1p2/5p1p/1PQ4P/P5P1/5P2/1RR3K1 w - - 0 30",
	"r1bk4/5p2/4p1p1/Pp1pnn2/1P2P2r/3pKPp1/3R2P1/R7 w - - 2 31",
	"r2q1rk1/pp3pbp/2npbnp1/2p3N1/2P5/2N1P2P/PP3PP1/R1BQKB1R w KQ - 2 10",
	"5r1k/1pr4p/3N2p1/2P5/RPBPP1P1/P5R1/5P1P/5K2 w - - 1 33",
	"2r3k1/p2qp2p/6p1/p5P1/2p1p2P/P1Pp2B1/5b2/3R1RK1 w - - 0 36",
	"5r1k/5r1p/3Rp3/1pp1P3/p1p2P2/P3B2P/1P3K2/6R1 b - - 1 33",
	"3r1r2/p5k1/1p2p3/5p1p/1nP3pN/1P3PPP/P6R/1R3K2 w - - 1 29",
	"r2qk1nr/pp2bppp/2np4/2p5/B2pP1b1/2P2N2/PP3PPP/RNBQK2R w KQkq - 2 8",
	"rnb1k2r/pp3pbp/6p1/4q3/2P1nN2/8/PP1BNPPP/R2QKB1R w KQkq - 2 11",
	"1r1qk1nr/1p3ppp/p1npb2b/2p1p3/2P1P3/PPN2N1P/3PBPP1/1RBQK2R w Kk - 1 12",
	"rn1qkb1r/1ppn1bpp/p3p3/3p1p1P/3P4/P3PN2/1PP1BPP1/RNBQK2R w KQkq - 0 11",
	"r3k2r/p1qbbppp/2p1pn2/2Pp4/P2P4/4P3/2QN1PPP/R1B1KB1R b KQkq - 0 12",
	"3qk2r/rbp2p1p/p1n1p1p1/1pbp4/1P1Pn3/4PN1P/P1PBBPP1/R2QK2R w KQk - 0 12",
	"1rb1n2k/pp4bp/3ppqn1/P1p4B/2P1P1Q1/1NN5/1P4PP/R1B3K1 b - - 9 20",
	"3rr3/3qb1pk/2b4p/Bp3p2/2pP4/P3PP1P/6P1/R2NQR1K b - - 0 25",
	"3r2k1/1b1r2p1/p2qpp1p/p1p2n2/1nP5/2QPPN1P/1P2BKP1/1R2BR2 w - - 0 23",
	"rn3rk1/1pp2ppp/4b2b/2PpNPqQ/p2P4/P6P/1P1N2P1/RB2R1K1 w - - 1 23",
	"r4rk1/1pqb4/5pp1/p1p4p/1nP2P1P/2QPP3/PP1B2B1/1K1R3R w - - 0 21",
	"rnb1k1nr/ppp1bppp/5q2/4p1N1/1P2p3/2PPB3/P1Q1BPPP/RN2K2R w KQkq - 2 11",
	"r1b2rk1/1p4p1/3N2n1/p1pPpp1q/2P5/P5P1/QP2PPB1/R4RK1 w - - 1 21",
	"7k/4r2p/P5p1/1n6/3PNbbP/5PN1/1PB3P1/R4K1R b - - 0 29",
	"rq3rk1/p1n2ppp/8/B1b1pb2/5P2/6P1/1PP1N1BP/R2QK2R w KQ - 0 19",
	"r4r1k/5Pp1/6Qp/pRpp2P1/3Pn3/B1P1p3/P3P1KP/5R2 b - - 0 29",
	"rn3bQ1/pp2kp2/3p4/3bp3/2p5/P2P2Nr/1PP2P2/R1B1K3 w Q - 0 20",
	"1r2r1k1/1b2bp1p/p4np1/q2pp3/1RP5/P2nPN1P/1Q4P1/B4RK1 w - - 8 27",
	"6r1/p1k2p2/1p3P1p/2p5/7P/1PP1p3/P1R3P1/4K3 b - - 1 35",
	"r1nqkb1r/1pp2p2/4p2B/1P1pP3/3P2Q1/1PN2N1P/P4pK1/R2R4 b kq - 1 23",
}

// rawEngine drives Stockfish directly, with the least possible work per
// search, as the baseline for the pool's throughput.
type rawEngine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startRawEngine(tb testing.TB, path string) *rawEngine {
	tb.Helper()
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	r := &rawEngine{cmd: cmd, in: in, out: bufio.NewReader(out)}
	r.send(tb, "uci\n")
	r.readUntil(tb, "uciok")
	r.send(tb, "setoption name Threads value 1\nsetoption name Hash value 16\nisready\n")
	r.readUntil(tb, "readyok")
	return r
}

func (r *rawEngine) send(tb testing.TB, s string) {
	if _, err := io.WriteString(r.in, s); err != nil {
		tb.Fatal(err)
	}
}

func (r *rawEngine) readUntil(tb testing.TB, prefix string) string {
	for {
		line, err := r.out.ReadString('\n')
		if err != nil {
			tb.Fatal(err)
		}
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
}

// eval searches fen to depth and returns the bestmove line.
func (r *rawEngine) eval(tb testing.TB, fen string, depth int) string {
	r.send(tb, fmt.Sprintf("position fen %s\ngo depth %d\n", fen, depth))
	return r.readUntil(tb, "bestmove")
}

func (r *rawEngine) close() {
	io.WriteString(r.in, "quit\n")
	r.in.Close()
	r.cmd.Wait()
}

// selfCPU returns the CPU time (user + system) used by this process so far,
// not counting the engines.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkEvalThroughput compares the pool with Stockfish driven directly,
// on the same 50 positions at the same depth, with 2 single-threaded
// engines. Each op is one evaluation; evals/s is the throughput and
// go-cpu-µs/eval the CPU this process (not the engines) spends per
// evaluation.
//
//	go test -run '^$' -bench EvalThroughput -benchtime 1000x ./evaluator/
func BenchmarkEvalThroughput(b *testing.B) {
	path := stockfishtest.Path(b)
	const engines, depth = 2, 8

	b.Run("raw", func(b *testing.B) {
		raws := make([]*rawEngine, engines)
		for i := range raws {
			raws[i] = startRawEngine(b, path)
			defer raws[i].close()
			raws[i].eval(b, poolBenchFENs[i], depth) // warm up (NNUE load)
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		cpu0 := selfCPU()
		b.ResetTimer()
		for _, r := range raws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= b.N {
						return
					}
					r.eval(b, poolBenchFENs[i%len(poolBenchFENs)], depth)
				}
			}()
		}
		wg.Wait()
		b.StopTimer()
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
		b.ReportMetric(float64(selfCPU()-cpu0)/float64(time.Microsecond)/float64(b.N), "go-cpu-µs/eval")
	})

	b.Run("pool", func(b *testing.B) {
		p, err := NewPool(context.Background(), PoolConfig{Path: path, Size: engines, Logger: poolTestLogger()})
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		warm := make([]Job, engines)
		for i := range warm {
			warm[i] = Job{FEN: poolBenchFENs[i], Limits: uci.Limits{Depth: depth}}
		}
		p.SearchBatch(context.Background(), warm)
		jobs := make([]Job, b.N)
		for i := range jobs {
			jobs[i] = Job{FEN: poolBenchFENs[i%len(poolBenchFENs)], Limits: uci.Limits{Depth: depth}}
		}
		cpu0 := selfCPU()
		b.ResetTimer()
		res := p.SearchBatch(context.Background(), jobs)
		b.StopTimer()
		cpu := selfCPU() - cpu0
		for i, r := range res {
			if r.Status != JobDone {
				b.Fatalf("job %d: %+v", i, r)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "evals/s")
		b.ReportMetric(float64(cpu)/float64(time.Microsecond)/float64(b.N), "go-cpu-µs/eval")
	})
}

// TestPoolThroughputSmoke is a short, always-run version of the benchmark
// comparison (logged, not asserted: timings on shared CI machines are
// noisy).
func TestPoolThroughputSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	path := stockfishtest.Path(t)
	const engines, depth = 2, 8
	n := 100
	if poolRaceEnabled {
		n = 50 // the numbers mean little under the race detector anyway
	}
	raws := make([]*rawEngine, engines)
	for i := range raws {
		raws[i] = startRawEngine(t, path)
		raws[i].eval(t, poolBenchFENs[i], depth)
	}
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, r := range raws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				r.eval(t, poolBenchFENs[i%len(poolBenchFENs)], depth)
			}
		}()
	}
	wg.Wait()
	raw := time.Since(start)
	for _, r := range raws {
		r.close()
	}

	p, err := NewPool(context.Background(), PoolConfig{Path: path, Size: engines, Logger: poolTestLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{FEN: poolBenchFENs[i%len(poolBenchFENs)], Limits: uci.Limits{Depth: depth}}
	}
	p.SearchBatch(context.Background(), jobs[:engines])
	start = time.Now()
	res := p.SearchBatch(context.Background(), jobs)
	pool := time.Since(start)
	for i, r := range res {
		if r.Status != JobDone || !r.HasMove() {
			t.Fatalf("job %d: %+v", i, r)
		}
	}
	note := ""
	if poolRaceEnabled {
		note = " (race detector on: the Go side is much slower than in a normal build)"
	}
	t.Logf("depth %d, %d evals on %d engines: raw %.0f evals/s, pool %.0f evals/s (%.0f%%)%s",
		depth, n, engines, float64(n)/raw.Seconds(), float64(n)/pool.Seconds(), 100*raw.Seconds()/pool.Seconds(), note)
}
