package evaluator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync/atomic"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/uci"
)

// Searcher runs one UCI search on a position. *uci.Client satisfies it, and
// so does the engine pool; the Stockfish evaluator needs nothing more, which
// keeps the guard testable with a fake.
type Searcher interface {
	Search(ctx context.Context, pos uci.Position, lim uci.Limits) (uci.Result, error)
}

// DefaultEngineDepth is the Stockfish depth used when Limits are zero: depth
// 8 costs about 3.6 ms a position on this project's machines (see
// BenchmarkEvalThroughput), the budget the strongest bots used per
// evaluation, so a turn can score thousands of boards.
const DefaultEngineDepth = 8

// StockfishConfig configures a Stockfish evaluator.
type StockfishConfig struct {
	// Name is what Name returns; default "stockfish".
	Name string
	// Logger receives warnings about engine failures; nil means slog.Default().
	Logger *slog.Logger
	// NoFallback makes engine failures errors instead of falling back to the
	// embedded search (for tests that must see every failure).
	NoFallback bool
}

// EngineStats counts how the Stockfish evaluator routed its positions.
type EngineStats struct {
	// Engine counts positions the engine scored.
	Engine int64
	// Terminal counts positions the guard decided without search.
	Terminal int64
	// Embedded counts positions the guard sent to the embedded search.
	Embedded int64
	// NoMove counts engine answers "bestmove (none)".
	NoMove int64
	// Failures counts engine errors other than the caller's context ending;
	// each was answered by the embedded search unless NoFallback is set.
	Failures int64
}

// Stockfish is an Evaluator backed by a UCI engine (normally a pool of
// Stockfish processes) with the guard in front, so that no RBC board can
// crash the engine, and the embedded search behind, so that an engine
// failure costs a weaker score rather than a lost game.
type Stockfish struct {
	search   Searcher
	cfg      StockfishConfig
	log      *slog.Logger
	embedded *Embedded

	engine, terminal, routedEmbedded, noMove, failures atomic.Int64
}

// NewStockfish returns an evaluator that searches through s. Close closes s
// if it is an io.Closer.
func NewStockfish(s Searcher, cfg StockfishConfig) *Stockfish {
	if cfg.Name == "" {
		cfg.Name = "stockfish"
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Stockfish{search: s, cfg: cfg, log: log, embedded: NewEmbedded()}
}

// Name returns the configured name ("stockfish" by default).
func (s *Stockfish) Name() string { return s.cfg.Name }

// Close closes the searcher if it can be closed.
func (s *Stockfish) Close() error {
	if c, ok := s.search.(io.Closer); ok {
		if err := c.Close(); err != nil {
			return fmt.Errorf("evaluator: closing %s: %w", s.cfg.Name, err)
		}
	}
	return nil
}

// MemoryReporter is implemented by evaluators that run engine processes:
// the peak resident memory of those processes added up, in bytes (0 where
// the system does not report it). A player reports it beside its own
// memory, since its engines are its share of the machine too.
type MemoryReporter interface {
	EnginesPeakRSS() int64
}

// EnginesPeakRSS returns the engines' peak memory if its searcher reports
// it (a Pool does), else 0.
func (s *Stockfish) EnginesPeakRSS() int64 {
	if m, ok := s.search.(MemoryReporter); ok {
		return m.EnginesPeakRSS()
	}
	return 0
}

// Stats returns the routing counters.
func (s *Stockfish) Stats() EngineStats {
	return EngineStats{
		Engine: s.engine.Load(), Terminal: s.terminal.Load(), Embedded: s.routedEmbedded.Load(),
		NoMove: s.noMove.Load(), Failures: s.failures.Load(),
	}
}

// Evaluate scores b for its side to move: guard first, then the engine on
// the cleaned FEN. Zero Limits mean depth DefaultEngineDepth.
func (s *Stockfish) Evaluate(ctx context.Context, b chess.Board, lim Limits) (Score, error) {
	g := Guard(&b)
	switch g.Route {
	case RouteTerminal:
		s.terminal.Add(1)
		return g.Score, nil
	case RouteEmbedded:
		s.routedEmbedded.Add(1)
		sc, err := s.embedded.search(ctx, b, lim)
		sc.Rule = g.Rule
		return sc, err
	}
	ul := uci.Limits{Depth: lim.Depth, Nodes: lim.Nodes, MoveTime: lim.MoveTime}
	if lim.IsZero() {
		ul.Depth = DefaultEngineDepth
	}
	res, err := s.search.Search(ctx, uci.Position{FEN: g.FEN}, ul)
	if err == nil {
		var sc Score
		sc, err = s.fromEngine(ctx, &b, res, lim)
		if err == nil {
			return sc, nil
		}
	}
	if ctx.Err() != nil {
		return Score{}, fmt.Errorf("evaluator: %s on %q: %w", s.cfg.Name, g.FEN, err)
	}
	s.failures.Add(1)
	if s.cfg.NoFallback {
		return Score{}, fmt.Errorf("evaluator: %s on %q: %w", s.cfg.Name, g.FEN, err)
	}
	s.log.Warn("engine failed; using the embedded search", "fen", g.FEN, "err", err)
	return s.embedded.search(ctx, b, lim)
}

// errNoScore reports an engine answer without any score.
var errNoScore = errors.New("evaluator: engine reported no score")

// fromEngine converts an engine result. "bestmove (none)" means the side to
// move has no legal chess move: in check it is mated (in RBC it moves on,
// but the opponent can then take its king whatever it does); otherwise it
// is a chess stalemate, which RBC does not know — the side passes or moves
// into check — so the embedded search scores it on the RBC rules.
func (s *Stockfish) fromEngine(ctx context.Context, b *chess.Board, res uci.Result, lim Limits) (Score, error) {
	if !res.HasMove() {
		s.noMove.Add(1)
		if Checkers(b) != 0 {
			return Score{Mate: -1, Terminal: Mated, Source: FromEngine}, nil
		}
		return s.embedded.search(ctx, *b, lim)
	}
	s.engine.Add(1)
	us := res.Score()
	sc := Score{Source: FromEngine, Depth: res.Depth, Nodes: int64(res.Nodes)}
	switch us.Kind {
	case uci.ScoreCP:
		sc.CP = us.Value
	case uci.ScoreMate:
		// Stockfish's "mate N": checkmate on the N-th move; the king falls
		// one move after it. "mate 0" (mated now) becomes −1 as well.
		switch {
		case us.Value > 0:
			sc.Mate = us.Value + 1
		case us.Value < 0:
			sc.Mate = us.Value - 1
		default:
			sc.Mate = -1
		}
	default:
		return Score{}, fmt.Errorf("%w (bestmove %s)", errNoScore, res.BestMove)
	}
	return sc, nil
}
