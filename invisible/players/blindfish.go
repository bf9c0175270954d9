package players

import (
	"log/slog"
)

// BlindfishConfig is Blindfish's own player's settings.
type BlindfishConfig struct {
	Depth, Boards int
	Hide          float64
}

// DefaultBlindfish is the setting measured against the advisor.
var DefaultBlindfish = BlindfishConfig{Depth: 2, Boards: 12, Hide: 1}

// NewBlindfish returns Blindfish's own player.
func NewBlindfish(cfg BlindfishConfig, seed int64, log *slog.Logger) *Advisor {
	return NewAdvisor(AdvisorConfig{Depth: cfg.Depth, Boards: cfg.Boards, Hide: cfg.Hide, Repeat: 0.5, Noise: 0.05}, seed, log)
}
