package evaluator

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// fakeSearcher answers searches with a function and records the FENs sent.
type fakeSearcher struct {
	mu     sync.Mutex
	fens   []string
	answer func(fen string) (uci.Result, error)
}

func (f *fakeSearcher) Search(ctx context.Context, pos uci.Position, lim uci.Limits) (uci.Result, error) {
	f.mu.Lock()
	f.fens = append(f.fens, pos.FEN)
	f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return uci.Result{}, fmt.Errorf("%w: %w", uci.ErrCanceled, err)
	}
	return f.answer(pos.FEN)
}

func cpResult(best string, kind uci.ScoreKind, v int) uci.Result {
	return uci.Result{BestMove: best, Depth: 5, Lines: []uci.Info{{Depth: 5, Score: uci.Score{Kind: kind, Value: v}}}}
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestStockfishRouting(t *testing.T) {
	fs := &fakeSearcher{answer: func(string) (uci.Result, error) { return cpResult("e2e4", uci.ScoreCP, 42), nil }}
	ev := NewStockfish(fs, StockfishConfig{Logger: quietLogger()})
	ctx := context.Background()
	for _, c := range []struct {
		fen    string
		source Source
		rule   GuardRule
		sent   string // the FEN the engine must get ("" for none)
	}{
		{chess.StartFEN, FromEngine, RuleNone, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
		{"r3k3/8/8/8/4P3/8/8/4K3 b KQkq e3 7 30", FromEngine, RuleNone, "r3k3/8/8/8/4P3/8/8/4K3 b q - 0 1"},
		{"k7/8/8/8/8/8/8/R3K3 w - - 0 1", FromGuard, RuleKingCapturable, ""},
		{"k7/8/8/8/8/8/8/R7 w - - 0 1", FromGuard, RuleOwnKingMissing, ""},
		{"k7/8/8/8/8/8/8/K3K3 w - - 0 1", FromEmbedded, RuleExtraKings, ""},
		{"4k3/8/3N4/1B6/8/8/8/4R1K1 b - - 0 1", FromEmbedded, RuleTooManyCheckers, ""},
	} {
		fs.fens = nil
		s, err := ev.Evaluate(ctx, chess.MustParseFEN(c.fen), Limits{Depth: 2})
		if err != nil {
			t.Fatalf("%s: %v", c.fen, err)
		}
		if s.Source != c.source || s.Rule != c.rule {
			t.Errorf("%s: source %v rule %v, want %v %v", c.fen, s.Source, s.Rule, c.source, c.rule)
		}
		if c.sent == "" && len(fs.fens) != 0 || c.sent != "" && (len(fs.fens) != 1 || fs.fens[0] != c.sent) {
			t.Errorf("%s: engine got %q, want %q", c.fen, fs.fens, c.sent)
		}
		if c.source == FromEngine && s.CP != 42 {
			t.Errorf("%s: cp %d, want 42", c.fen, s.CP)
		}
	}
	if st := ev.Stats(); st.Engine != 2 || st.Terminal != 2 || st.Embedded != 2 || st.Failures != 0 {
		t.Errorf("stats %+v", st)
	}
}

func TestStockfishScores(t *testing.T) {
	ctx := context.Background()
	start := chess.StartBoard()
	for _, c := range []struct {
		res  uci.Result
		want Score
	}{
		{cpResult("e2e4", uci.ScoreCP, -17), Score{CP: -17}},
		{cpResult("e2e4", uci.ScoreMate, 3), Score{Mate: 4}},
		{cpResult("e2e4", uci.ScoreMate, -2), Score{Mate: -3}},
	} {
		ev := NewStockfish(&fakeSearcher{answer: func(string) (uci.Result, error) { return c.res, nil }}, StockfishConfig{})
		s, err := ev.Evaluate(ctx, start, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		if s.CP != c.want.CP || s.Mate != c.want.Mate || s.Source != FromEngine {
			t.Errorf("%v: got %+v, want %+v", c.res.Score(), s, c.want)
		}
	}
}

func TestStockfishNoMove(t *testing.T) {
	ctx := context.Background()
	none := &fakeSearcher{answer: func(string) (uci.Result, error) {
		return cpResult(uci.NoMove, uci.ScoreMate, 0), nil
	}}
	ev := NewStockfish(none, StockfishConfig{})
	// Checkmated (back rank): RBC still lets Black move, but its king falls next.
	s, err := ev.Evaluate(ctx, chess.MustParseFEN("4R1k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"), Limits{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	if s.Terminal != Mated || s.Mate != -1 || !s.IsLoss() {
		t.Fatalf("mated: %+v", s)
	}
	// Stalemate in chess is no draw in RBC: Black may pass. The embedded
	// search scores it on the RBC rules.
	none.answer = func(string) (uci.Result, error) { return cpResult(uci.NoMove, uci.ScoreCP, 0), nil }
	s, err = ev.Evaluate(ctx, chess.MustParseFEN("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Limits{Depth: 3})
	if err != nil {
		t.Fatal(err)
	}
	if s.Source != FromEmbedded || s.Terminal != NotTerminal || !s.IsLoss() {
		t.Fatalf("stalemate: %+v (want the embedded search to see Black lose)", s)
	}
	if st := ev.Stats(); st.NoMove != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestStockfishFailureFallsBack(t *testing.T) {
	ctx := context.Background()
	dead := &fakeSearcher{answer: func(string) (uci.Result, error) {
		return uci.Result{}, fmt.Errorf("%w: segfault", uci.ErrEngineDied)
	}}
	ev := NewStockfish(dead, StockfishConfig{Logger: quietLogger()})
	s, err := ev.Evaluate(ctx, chess.StartBoard(), Limits{Depth: 2})
	if err != nil || s.Source != FromEmbedded {
		t.Fatalf("fallback: %+v, %v", s, err)
	}
	if ev.Stats().Failures != 1 {
		t.Fatalf("stats %+v", ev.Stats())
	}
	strict := NewStockfish(dead, StockfishConfig{NoFallback: true})
	if _, err := strict.Evaluate(ctx, chess.StartBoard(), Limits{Depth: 2}); !errors.Is(err, uci.ErrEngineDied) {
		t.Fatalf("NoFallback: err %v", err)
	}
	// A score-less answer is a failure too.
	empty := NewStockfish(&fakeSearcher{answer: func(string) (uci.Result, error) { return uci.Result{BestMove: "e2e4"}, nil }},
		StockfishConfig{NoFallback: true})
	if _, err := empty.Evaluate(ctx, chess.StartBoard(), Limits{Depth: 2}); !errors.Is(err, errNoScore) {
		t.Fatalf("no score: err %v", err)
	}
	// The caller's own cancellation is returned, not papered over.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ev.Evaluate(cctx, chess.StartBoard(), Limits{Depth: 2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled: err %v", err)
	}
}

// checkingSearcher passes searches to a real engine and checks every answer:
// the engine must not fail, and its best move must be a legal chess move of
// the position it got (an option that does not leave its own king
// capturable). Meaningless moves are how Stockfish shows confusion.
type checkingSearcher struct {
	inner    Searcher
	searches atomic.Int64
	noMove   atomic.Int64
	mu       sync.Mutex
	failures []string
	badMoves []string
}

func (c *checkingSearcher) Search(ctx context.Context, pos uci.Position, lim uci.Limits) (uci.Result, error) {
	c.searches.Add(1)
	res, err := c.inner.Search(ctx, pos, lim)
	if err != nil {
		c.mu.Lock()
		c.failures = append(c.failures, fmt.Sprintf("%s: %v", pos.FEN, err))
		c.mu.Unlock()
		return res, err
	}
	if !res.HasMove() {
		c.noMove.Add(1)
		return res, nil
	}
	b := chess.MustParseFEN(pos.FEN)
	m, perr := chess.ParseMove(res.BestMove)
	if perr != nil || !b.IsPseudoLegal(m) {
		c.bad(pos.FEN, res.BestMove, "not an option")
		return res, nil
	}
	b.Apply(m)
	if b.KingCapturable() {
		c.bad(pos.FEN, res.BestMove, "leaves its king capturable")
	}
	return res, nil
}

func (c *checkingSearcher) bad(fen, move, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.badMoves = append(c.badMoves, fmt.Sprintf("%s: bestmove %s %s", fen, move, why))
}

// guardBoards sizes TestGuardAgainstStockfish; raise it for a longer sweep
// (go test -run GuardAgainst -guard.boards 100000).
var guardBoards = flag.Int("guard.boards", 12000, "boards to generate for TestGuardAgainstStockfish (at least)")

// TestGuardAgainstStockfish sends at least 10,000 RBC boards, from recorded
// games, belief expansions, random play and every class of board that
// crashes Stockfish (guard.go), through the guard to a real Stockfish pool,
// and requires zero engine failures and only legal best moves.
func TestGuardAgainstStockfish(t *testing.T) {
	path := stockfishtest.Path(t)
	n := *guardBoards
	if testing.Short() {
		n = 2000
	}
	boards := guardTestBoards(t, n)
	ctx, progress := watchdog(t, stall.StartTimeout)
	pool, err := NewPool(ctx, PoolConfig{Path: path, Size: 2, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	check := &checkingSearcher{inner: pool}
	ev := NewStockfish(check, StockfishConfig{NoFallback: true, Logger: quietLogger()})

	type tally struct{ boards, engine, terminal, embedded int }
	var (
		mu      sync.Mutex
		byClass = map[boardClass]*tally{}
		errs    []string
	)
	jobs := make(chan testBoard)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tb := range jobs {
				// The bulk at 200 nodes; every 50th board deeper, so that
				// real search (mates, long lines) meets the guard's boards too.
				lim := Limits{Nodes: 200}
				if tb.board.Key()%50 == 0 {
					lim = Limits{Depth: 6}
				}
				s, err := ev.Evaluate(ctx, tb.board, lim)
				progress()
				mu.Lock()
				tl := byClass[tb.class]
				if tl == nil {
					tl = &tally{}
					byClass[tb.class] = tl
				}
				tl.boards++
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s %s: %v", tb.class, tb.board.FEN(), err))
				} else {
					switch s.Source {
					case FromEngine:
						tl.engine++
					case FromGuard:
						tl.terminal++
					case FromEmbedded:
						tl.embedded++
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, tb := range boards {
		jobs <- tb
	}
	close(jobs)
	wg.Wait()
	elapsed := time.Since(start)

	classes := make([]string, 0, len(byClass))
	for c := range byClass {
		classes = append(classes, string(c))
	}
	sort.Strings(classes)
	var report strings.Builder
	for _, c := range classes {
		tl := byClass[boardClass(c)]
		fmt.Fprintf(&report, "\n  %-17s %6d boards: %6d engine, %5d terminal, %5d embedded", c, tl.boards, tl.engine, tl.terminal, tl.embedded)
	}
	ps := pool.Stats()
	t.Logf("%d boards in %v; %d engine searches (%d bestmove (none)); pool %+v%s",
		len(boards), elapsed.Round(time.Millisecond), check.searches.Load(), check.noMove.Load(), ps, report.String())

	for _, e := range firstN(errs, 10) {
		t.Errorf("evaluation failed: %s", e)
	}
	for _, e := range firstN(check.failures, 10) {
		t.Errorf("engine failed: %s", e)
	}
	for _, e := range firstN(check.badMoves, 10) {
		t.Errorf("engine confused: %s", e)
	}
	if ps.Crashes != 0 || ps.Kills != 0 || ps.Failed != 0 || ps.ProtocolErrors != 0 {
		t.Errorf("engine crashes: pool stats %+v", ps)
	}
	if len(errs)+len(check.failures)+len(check.badMoves) > 0 {
		t.Errorf("%d evaluation errors, %d engine failures, %d bad moves", len(errs), len(check.failures), len(check.badMoves))
	}
	if !testing.Short() && n >= 12000 && check.searches.Load() < 10000 {
		t.Errorf("only %d boards reached the engine, want at least 10,000", check.searches.Load())
	}
}

// watchdog returns a context that ends when progress has not been called
// for idle, with a test error saying so. A sweep of a fixed amount of work
// takes many times longer on a starved machine than on a quiet one, so its
// guard against a hang watches progress instead of a deadline on the whole.
func watchdog(t *testing.T, idle time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	tick := make(chan struct{}, 1)
	go func() {
		timer := time.NewTimer(idle)
		defer timer.Stop()
		for {
			select {
			case <-tick:
				timer.Reset(idle)
			case <-timer.C:
				t.Errorf("no progress for %v: a hang", idle)
				cancel()
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return ctx, func() {
		select {
		case tick <- struct{}{}:
		default:
		}
	}
}

func firstN(s []string, n int) []string { return s[:min(len(s), n)] }

// TestUnguardedBoardsCrashStockfish shows what the guard prevents, and that
// the checks above would see it: boards where the side to move can capture
// the king, sent raw, make Stockfish fail. It only logs, because whether a
// given board crashes depends on the engine build.
func TestUnguardedBoardsCrashStockfish(t *testing.T) {
	path := stockfishtest.Path(t)
	if testing.Short() {
		t.Skip("short mode")
	}
	// The context and CommandTimeout guard a hang: Stockfish restarts after
	// each crash, and a loaded machine starts it slowly.
	ctx, cancel := context.WithTimeout(context.Background(), 5*stall.StartTimeout)
	defer cancel()
	pool, err := NewPool(ctx, PoolConfig{Path: path, Size: 1, Logger: quietLogger(), RestartBackoff: time.Millisecond,
		CommandTimeout: stall.StartTimeout})
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var sent, failed, confused int
	for _, tb := range guardTestBoards(t, 2000) {
		if tb.class != classFlipped || !tb.board.KingCapturable() || sent == 20 {
			continue
		}
		sent++
		res, err := pool.Search(ctx, uci.Position{FEN: tb.board.FEN()}, uci.Limits{Depth: 4})
		switch {
		case err != nil:
			failed++
		case res.HasMove():
			b := tb.board
			if m, perr := chess.ParseMove(res.BestMove); perr != nil || !b.IsPseudoLegal(m) {
				confused++
			}
		}
	}
	t.Logf("raw king-capturable boards: %d sent, %d engine failures, %d illegal best moves; pool %+v", sent, failed, confused, pool.Stats())
}
