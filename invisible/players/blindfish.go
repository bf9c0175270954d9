package players

import (
	"log/slog"
)

// BlindfishConfig is Blindfish's own player's settings.
type BlindfishConfig struct {
	Depth, Boards    int
	Hide, Risk, Tail float64
	Draws            bool
}

// DefaultBlindfish is the setting measured against the advisor
// (results/README.md): where the paper's program looks one ply deep on
// every possible board, Blindfish looks two plies deep on the most probable
// ones, since a board of small probability rarely changes the best try and
// a reply seen is a piece saved; a little of the hide advisor keeps its
// invisible pieces moving where the opponent's belief spreads.
// Measured on 1Q against advisor:hide=5 (20 games each, seed 5): 24
// boards 20-0-0, 12 boards 17-0-3, hide=0 16-1-3, hide=3 13-3-4.
var DefaultBlindfish = BlindfishConfig{Depth: 2, Boards: 64, Hide: 1, Risk: 0.5, Draws: true}

// NewBlindfish returns Blindfish's own player: the maximiser of the advisor
// with a deeper search over fewer boards.
func NewBlindfish(cfg BlindfishConfig, seed int64, log *slog.Logger) *Advisor {
	return NewAdvisor(AdvisorConfig{Depth: cfg.Depth, Boards: cfg.Boards, Hide: cfg.Hide, Risk: cfg.Risk, Tail: cfg.Tail, Draws: cfg.Draws, Repeat: 0.5, Noise: 0.05}, seed, log)
}
