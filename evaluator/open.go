package evaluator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/blindfish-rbc/blindfish/evaluator/stockfishpath"
)

// Kind selects an evaluator in Open.
type Kind string

// The evaluator kinds.
const (
	// KindAuto uses Stockfish when LookupStockfish finds one that starts,
	// and the embedded evaluator otherwise.
	KindAuto Kind = "auto"
	// KindStockfish requires Stockfish.
	KindStockfish Kind = "stockfish"
	// KindEmbedded uses the embedded evaluator.
	KindEmbedded Kind = "embedded"
)

// ParseKind reads "auto", "stockfish" or "embedded".
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case KindAuto, KindStockfish, KindEmbedded:
		return k, nil
	}
	return "", fmt.Errorf("evaluator: unknown kind %q (want auto, stockfish or embedded)", s)
}

// ErrNoStockfish reports that no Stockfish binary was found.
var ErrNoStockfish = stockfishpath.ErrNotFound

// OpenConfig configures Open.
type OpenConfig struct {
	// Engines is the number of Stockfish processes (0: one per core).
	Engines int
	// Pool is passed to NewPool; its Path, Size and Logger are filled in by Open.
	Pool PoolConfig
	// Logger receives logs; nil means slog.Default().
	Logger *slog.Logger
}

// Open returns the evaluator of the given kind: Stockfish behind the guard,
// or the embedded one. With KindAuto a Stockfish that is missing or fails to
// start is logged and replaced by the embedded evaluator, so the player can
// always play (an unusable $STOCKFISH_EXECUTABLE is warned about); with
// KindStockfish it is an error.
func Open(ctx context.Context, kind Kind, cfg OpenConfig) (Evaluator, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	if kind == KindEmbedded {
		return NewEmbedded(), nil
	}
	path, err := LookupStockfish()
	if err != nil {
		if kind == KindStockfish {
			return nil, fmt.Errorf("evaluator: %w", err)
		}
		if errors.Is(err, ErrBadStockfishEnv) {
			// A mistake to report, although auto still plays.
			log.Warn("the Stockfish named is unusable; using the embedded evaluator", "err", err)
		} else {
			log.Info("no Stockfish found; using the embedded evaluator")
		}
		return NewEmbedded(), nil
	}
	pc := cfg.Pool
	pc.Path, pc.Size, pc.Logger = path, cfg.Engines, log
	pool, err := NewPool(ctx, pc)
	if err != nil {
		if kind == KindStockfish {
			return nil, fmt.Errorf("evaluator: starting %s: %w", path, err)
		}
		log.Warn("Stockfish failed to start; using the embedded evaluator", "path", path, "err", err)
		return NewEmbedded(), nil
	}
	return NewStockfish(pool, StockfishConfig{Name: "stockfish (" + path + ")", Logger: log}), nil
}
