// Package evaluator scores RBC positions and moves for the player.
//
// Scores come from Stockfish (through the UCI client in package uci and the
// engine pool in this package) or, when no Stockfish is installed, from a
// small built-in search (package embedded). Every position passes the guard
// first (see [Guard]): boards that RBC allows but chess does not (a king that
// can be captured, a missing or doubled king, stale castling rights) crash
// Stockfish or make it talk nonsense, so the guard scores them directly, hands
// them to the embedded search, or cleans them before they reach the engine.
//
// On top of position scores, [MoveScorer] gives the value of a taken move with
// the RBC terms (king captured, own king left capturable, checkmate), and
// [Cache] keeps bounded, de-duplicated results because many requested moves
// resolve to the same taken move on the same board.
package evaluator

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Evaluator scores positions. It is the one interface the player depends on,
// so that Stockfish and the embedded search are interchangeable. An
// Evaluator is safe for concurrent use.
type Evaluator interface {
	// Evaluate scores b for its side to move. It must accept every board RBC
	// can produce (including ones chess engines cannot handle) and must
	// return when ctx ends.
	Evaluate(ctx context.Context, b chess.Board, lim Limits) (Score, error)
	// Name says which evaluator this is, for logs and the command line.
	Name() string
	// Close releases engines and goroutines. Evaluate must not be called after.
	Close() error
}

// Limits bounds one evaluation. Zero fields are unset; when all are zero the
// evaluator uses its own default (it documents which). The call's context is
// always a further, hard limit.
type Limits struct {
	// Depth is the nominal search depth in plies.
	Depth int
	// Nodes caps the number of nodes searched.
	Nodes int64
	// MoveTime caps the search time.
	MoveTime time.Duration
}

// IsZero reports whether no limit is set.
func (l Limits) IsZero() bool { return l.Depth <= 0 && l.Nodes <= 0 && l.MoveTime <= 0 }

// String renders the limits like a UCI "go" command's arguments.
func (l Limits) String() string {
	s := ""
	if l.Depth > 0 {
		s += fmt.Sprintf(" depth %d", l.Depth)
	}
	if l.Nodes > 0 {
		s += fmt.Sprintf(" nodes %d", l.Nodes)
	}
	if l.MoveTime > 0 {
		s += fmt.Sprintf(" movetime %s", l.MoveTime)
	}
	if s == "" {
		return "default"
	}
	return s[1:]
}

// Terminal says why a position was decided without a search. Positions that
// were searched are NotTerminal, even when the search found a forced result.
type Terminal uint8

// The terminal kinds.
const (
	// NotTerminal: the score comes from a search.
	NotTerminal Terminal = iota
	// CanCaptureKing: the side to move can capture the enemy king now and win.
	CanCaptureKing
	// OwnKingMissing: the side to move has no king; it has lost.
	OwnKingMissing
	// EnemyKingMissing: the opponent has no king; the side to move has won.
	EnemyKingMissing
	// NoKings: neither side has a king (a hand-made board); scored as a draw.
	NoKings
	// Mated: the engine found no legal chess move while the side to move is
	// in check. In RBC the game goes on, but whatever the side to move does,
	// the opponent can then capture its king.
	Mated
)

var terminalNames = [...]string{"", "side to move can capture the king", "own king missing", "enemy king missing", "no kings", "mated"}

// String describes the terminal kind ("" for NotTerminal).
func (t Terminal) String() string {
	if int(t) < len(terminalNames) {
		return terminalNames[t]
	}
	return fmt.Sprintf("Terminal(%d)", t)
}

// Source says who produced a score.
type Source uint8

// The sources of a score.
const (
	// FromGuard: the guard decided the position without any search.
	FromGuard Source = iota
	// FromEngine: a UCI engine (Stockfish) searched the position.
	FromEngine
	// FromEmbedded: the embedded search scored the position.
	FromEmbedded
)

// String names the source.
func (s Source) String() string {
	switch s {
	case FromGuard:
		return "guard"
	case FromEngine:
		return "engine"
	case FromEmbedded:
		return "embedded"
	}
	return fmt.Sprintf("Source(%d)", s)
}

// WinValue is the magnitude [Score.Value] gives a won or lost position; forced
// results lie just inside it and centipawn scores are clamped to half of it,
// so the scale orders certain results above any material count.
const WinValue = 10000

// Score is the value of a position for its side to move.
//
// Forced results are counted in RBC terms, by king captures rather than
// checkmates, because that is how RBC games end: Mate = n > 0 means the side
// to move captures the enemy king on its n-th move from now (1: right now);
// n < 0 means the opponent captures ours on its |n|-th move. Stockfish's
// "mate N" becomes N+1 (mate, then the capture).
type Score struct {
	// CP is the centipawn score from the side to move's view; meaningful
	// when Mate is 0 and Terminal is NotTerminal (otherwise it is 0).
	CP int
	// Mate is the king-capture distance described above; 0 if none.
	Mate int
	// Terminal says why the position was decided without search, if it was.
	Terminal Terminal
	// Source says who produced the score.
	Source Source
	// Rule is the guard rule that routed the position (RuleNone if it went
	// straight to the engine).
	Rule GuardRule
	// Depth is the depth the search completed (0 for terminal scores).
	Depth int
	// Nodes is the number of nodes searched, where known.
	Nodes int64
}

// IsWin reports whether the side to move has won or wins by force.
func (s Score) IsWin() bool {
	return s.Mate > 0 || s.Terminal == EnemyKingMissing || s.Terminal == CanCaptureKing
}

// IsLoss reports whether the side to move has lost or loses by force.
func (s Score) IsLoss() bool {
	return s.Mate < 0 || s.Terminal == OwnKingMissing || s.Terminal == Mated
}

// Value returns the score as one number for comparisons: WinValue for a win
// already on the board, ±(WinValue − distance) for forced results, 0 with no
// kings, and otherwise the centipawns clamped to ±WinValue/2.
func (s Score) Value() int {
	switch {
	case s.Terminal == EnemyKingMissing:
		return WinValue
	case s.Terminal == OwnKingMissing:
		return -WinValue
	case s.Terminal == NoKings:
		return 0
	case s.Mate > 0:
		return WinValue - s.Mate
	case s.Mate < 0:
		return -WinValue - s.Mate
	}
	return min(max(s.CP, -WinValue/2), WinValue/2)
}

// Provenance says who produced the score and how, for people: "by
// engine, depth 8, 1234 nodes", or "by guard" for a score decided
// without search.
func (s Score) Provenance() string {
	parts := []string{"by " + s.Source.String()}
	if s.Source != FromGuard {
		parts = append(parts, fmt.Sprintf("depth %d", s.Depth))
		if s.Nodes > 0 {
			parts = append(parts, fmt.Sprintf("%d nodes", s.Nodes))
		}
	}
	return strings.Join(parts, ", ")
}

// String renders the score for people: "cp 35", "wins: captures the king in
// 2", "lost: own king missing".
func (s Score) String() string {
	switch {
	case s.Terminal == OwnKingMissing || s.Terminal == EnemyKingMissing || s.Terminal == NoKings:
		verdict := "lost"
		if s.Terminal == EnemyKingMissing {
			verdict = "won"
		} else if s.Terminal == NoKings {
			verdict = "draw"
		}
		return verdict + ": " + s.Terminal.String()
	case s.Mate > 0:
		return fmt.Sprintf("wins: captures the king in %d", s.Mate)
	case s.Mate < 0:
		return fmt.Sprintf("loses: king captured in %d", -s.Mate)
	}
	return fmt.Sprintf("cp %d", s.CP)
}
