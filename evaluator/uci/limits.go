package uci

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits bounds one search. At least one of Depth, Nodes and MoveTime must
// be set; the engine stops at whichever it reaches first. The call's context
// is a further, hard limit.
type Limits struct {
	// Depth is the maximum search depth in plies ("go depth").
	Depth int
	// Nodes is the maximum number of nodes to search ("go nodes").
	Nodes int64
	// MoveTime is the time to search ("go movetime", rounded up to whole
	// milliseconds).
	MoveTime time.Duration
	// MultiPV is the number of principal variations to report; 0 means 1.
	// The client sets the engine's MultiPV option when it changes.
	MultiPV int
	// SearchMoves, if not empty, restricts the search to these UCI moves
	// ("go searchmoves").
	SearchMoves []string
}

// multiPV returns the effective MultiPV value.
func (l Limits) multiPV() int {
	if l.MultiPV <= 0 {
		return 1
	}
	return l.MultiPV
}

// validate checks the limits before anything is sent.
func (l Limits) validate() error {
	if l.Depth < 0 || l.Nodes < 0 || l.MoveTime < 0 || l.MultiPV < 0 {
		return fmt.Errorf("%w: negative search limit", ErrInvalidArgument)
	}
	if l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 {
		return fmt.Errorf("%w: search needs a depth, node or time limit", ErrInvalidArgument)
	}
	for _, m := range l.SearchMoves {
		if !IsMove(m) {
			return fmt.Errorf("%w: bad searchmoves move %q", ErrInvalidArgument, clip(m))
		}
	}
	return nil
}

// goCommand renders the "go" command line, without the newline.
func (l Limits) goCommand() string {
	var b strings.Builder
	b.WriteString("go")
	if l.Depth > 0 {
		b.WriteString(" depth ")
		b.WriteString(strconv.Itoa(l.Depth))
	}
	if l.Nodes > 0 {
		b.WriteString(" nodes ")
		b.WriteString(strconv.FormatInt(l.Nodes, 10))
	}
	if l.MoveTime > 0 {
		ms := (l.MoveTime + time.Millisecond - 1) / time.Millisecond
		b.WriteString(" movetime ")
		b.WriteString(strconv.FormatInt(int64(ms), 10))
	}
	// searchmoves goes last: Stockfish reads every token after it as a move.
	if len(l.SearchMoves) > 0 {
		b.WriteString(" searchmoves")
		for _, m := range l.SearchMoves {
			b.WriteByte(' ')
			b.WriteString(m)
		}
	}
	return b.String()
}
