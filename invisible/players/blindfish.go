package players

import (
	"log/slog"
)

// BlindfishConfig is Blindfish's own player's settings.
type BlindfishConfig struct {
	Depth, Boards int
	Hide, Risk    float64
}

// DefaultBlindfish is the setting measured against the advisor
// (results/README.md): where the paper's program looks one ply deep on
// every possible board, Blindfish looks two plies deep on the most probable
// ones, since a board of small probability rarely changes the best try and
// a reply seen is a piece saved; a little of the hide advisor keeps its
// invisible pieces moving where the opponent's belief spreads.
// Measured on 1Q against advisor:hide=5 (20 games each, seed 5): 24
// boards 20-0-0, 12 boards 17-0-3, hide=0 16-1-3, hide=3 13-3-4.
//
// Half of a try's strategic utility is its worst board's: the belief
// spreads the opponent's invisible pieces uniformly, but the opponent puts
// them where they bite, and the expectation alone lets Blindfish's
// invisible queen take a pawn where one board in ten takes the queen.
// And 64 boards, not 24, since two invisible rooks spread wide. Measured
// against advisor:hide=0.5 (100 games each, seed 100, clock 60+1): 1Q
// (24 boards) risk 0 72.0 %, 0.2 79.5 %, 0.5 82.5 %; 2R 24 boards 62.0 %,
// 64 boards 69.5 %, with risk 0.5 72.5 % (scoring a third repetition of a
// view as a draw, 72.0 %, did not stay).
var DefaultBlindfish = BlindfishConfig{Depth: 2, Boards: 64, Hide: 1, Risk: 0.5}

// NewBlindfish returns Blindfish's own player: the maximiser of the advisor
// with a deeper search over fewer boards, wary of its worst boards.
func NewBlindfish(cfg BlindfishConfig, seed int64, log *slog.Logger) *Advisor {
	return NewAdvisor(AdvisorConfig{Depth: cfg.Depth, Boards: cfg.Boards, Hide: cfg.Hide, Risk: cfg.Risk, Repeat: 0.5, Noise: 0.05}, seed, log)
}
