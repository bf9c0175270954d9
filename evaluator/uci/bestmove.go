package uci

import (
	"fmt"
	"strings"
)

// NoMove is what ParseBestMove returns as the best move when the engine
// answered "bestmove (none)": the side to move has no legal move (checkmate
// or stalemate).
const NoMove = "(none)"

// ParseBestMove parses a "bestmove X [ponder Y]" line. For "bestmove (none)"
// best is NoMove. Anything else is an error wrapping ErrProtocol.
func ParseBestMove(line string) (best, ponder string, err error) {
	tok := strings.Fields(line)
	if len(tok) < 2 || tok[0] != "bestmove" {
		return "", "", fmt.Errorf("%w: bad bestmove line: %q", ErrProtocol, clip(line))
	}
	best = tok[1]
	if best != NoMove && !IsMove(best) {
		return "", "", fmt.Errorf("%w: bad best move in %q", ErrProtocol, clip(line))
	}
	switch {
	case len(tok) == 2:
	case len(tok) == 4 && tok[2] == "ponder" && (IsMove(tok[3]) || tok[3] == NoMove):
		if tok[3] != NoMove {
			ponder = tok[3]
		}
	default:
		return "", "", fmt.Errorf("%w: bad bestmove line: %q", ErrProtocol, clip(line))
	}
	return best, ponder, nil
}
