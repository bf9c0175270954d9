package uci

import (
	"fmt"
	"strings"
)

// StartFEN is the FEN of the standard chess starting position.
const StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

// Position is a position to search: a FEN plus optional moves played from it.
type Position struct {
	// FEN is the position in Forsyth–Edwards Notation; "" or "startpos"
	// means the standard starting position. The client does not check chess
	// legality: callers must not send positions the engine cannot handle.
	FEN string
	// Moves are UCI moves applied to FEN before searching.
	Moves []string
}

// validate refuses positions that could inject extra commands or that are
// syntactically impossible.
func (p Position) validate() error {
	if strings.ContainsFunc(p.FEN, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fmt.Errorf("%w: control character in FEN %q", ErrInvalidArgument, clip(p.FEN))
	}
	if p.FEN != "" && p.FEN != "startpos" {
		if n := len(strings.Fields(p.FEN)); n < 2 || n > 6 {
			return fmt.Errorf("%w: FEN %q has %d fields", ErrInvalidArgument, clip(p.FEN), n)
		}
	}
	for _, m := range p.Moves {
		if !IsMove(m) {
			return fmt.Errorf("%w: bad move %q", ErrInvalidArgument, clip(m))
		}
	}
	return nil
}

// command renders the "position" command line, without the newline.
func (p Position) command() string {
	var b strings.Builder
	if p.FEN == "" || p.FEN == "startpos" {
		b.WriteString("position startpos")
	} else {
		b.WriteString("position fen ")
		b.WriteString(strings.Join(strings.Fields(p.FEN), " "))
	}
	if len(p.Moves) > 0 {
		b.WriteString(" moves")
		for _, m := range p.Moves {
			b.WriteByte(' ')
			b.WriteString(m)
		}
	}
	return b.String()
}
