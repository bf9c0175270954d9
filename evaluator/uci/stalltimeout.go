package uci

import (
	"context"

	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// commandContext bounds one command (the handshake, a setoption, an
// isready) by c's CommandTimeout of the time the engine and this process
// could run (stall.WithTimeout): the time their threads waited for a CPU
// meanwhile is added, up to 3 minutes in all. On an idle machine that is
// the CommandTimeout itself; at nice 19 beside busy engines, where
// Stockfish can take a minute to answer "uci", the engine is given the
// time it was denied rather than taken for dead (and Open for "auto"
// falling back to the embedded evaluator), while one that hangs with the
// CPU free is still stopped at the CommandTimeout.
func (c *Client) commandContext(ctx context.Context, p *process) (context.Context, context.CancelFunc) {
	var pids []int
	if p != nil {
		pids = append(pids, p.pid)
	}
	return stall.WithTimeout(ctx, c.cfg.CommandTimeout, pids...)
}
