package evaluator

import (
	"context"
	"errors"
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// MoveTerms are the RBC terms a move's score gets on top of the engine's
// opinion. A chess engine values positions under perfect information; in RBC
// the opponent does not see our pieces, which changes what decisive events
// are worth:
//
//   - Capturing the king ends the game at once and for certain: the
//     highest value.
//   - Checkmating is almost as good: whatever the opponent does, its king can
//     be taken next turn, provided we find it (we usually know where it is).
//   - Leaving our own king capturable is very bad but not certain defeat: the
//     opponent has to know where our king is to take it. It therefore scores
//     below any material loss and below being mated, yet above losing the
//     king for sure.
//
// Engine centipawns are clamped to ±MaxCP so that no material count can
// outweigh these events. The defaults follow the values the strongest RBC
// bots converged on.
type MoveTerms struct {
	// KingCapture is the value of a move that captures the enemy king (and
	// minus it for a position where our king is already gone).
	KingCapture int
	// KingCapturable is the penalty for a move after which the opponent can
	// capture our king.
	KingCapturable int
	// Mate is the value of a move that checkmates (in chess terms): after it,
	// every option of the opponent leaves its king capturable. Forced wins
	// further away score MateStep less per extra move; forced losses score
	// the mirror image.
	Mate int
	// MateStep is the reduction per move of distance to a forced result.
	MateStep int
	// MaxCP clamps engine centipawn scores; forced results never score
	// closer to zero than MaxCP + MateStep.
	MaxCP int
}

// DefaultMoveTerms returns the default terms: king capture 9000, king left
// capturable −7000, checkmate 8000 (100 less per further move), centipawns
// clamped to ±4000.
func DefaultMoveTerms() MoveTerms {
	return MoveTerms{KingCapture: 9000, KingCapturable: 7000, Mate: 8000, MateStep: 100, MaxCP: 4000}
}

// MoveKind says what decided a move's score.
type MoveKind uint8

// The kinds of move scores.
const (
	// MoveEngine: the evaluation of the position after the move, negated.
	MoveEngine MoveKind = iota
	// MoveCapturesKing: the move captures the enemy king.
	MoveCapturesKing
	// MoveLeavesKingCapturable: after the move the opponent can capture our king.
	MoveLeavesKingCapturable
	// MoveMates: after the move the opponent cannot avoid losing its king.
	MoveMates
	// MoveMated: after the move the opponent wins by force.
	MoveMated
	// MoveAlreadyDecided: one of the kings was already missing before the move.
	MoveAlreadyDecided
)

var moveKindNames = [...]string{"evaluated", "captures the king", "leaves own king capturable", "forces a win", "allows a forced loss", "game already decided"}

// String describes the kind.
func (k MoveKind) String() string {
	if int(k) < len(moveKindNames) {
		return moveKindNames[k]
	}
	return fmt.Sprintf("MoveKind(%d)", k)
}

// MoveScore is the value of a taken move for the side that made it.
type MoveScore struct {
	// Value is the score for the mover, on the scale of MoveTerms.
	Value int
	// Kind says what decided Value.
	Kind MoveKind
	// Taken is the move that was scored; Capture is the square it captured
	// on (NoSquare if none).
	Taken   chess.Move
	Capture chess.Square
	// After is the evaluation of the position after the move, from the
	// opponent's view, when one was needed (zero otherwise).
	After Score
}

// Value turns the evaluation after a move into the mover's score with the RBC
// terms. before is the board before the taken move, after the board after it
// (opponent to move), capture the captured square and s the evaluation of
// after (only used when no RBC term decides; pass the zero Score when
// NeedsEval reports false).
func (t MoveTerms) Value(before, after *chess.Board, capture chess.Square, s Score) (int, MoveKind) {
	us := before.Turn()
	them := us.Other()
	switch {
	case before.KingMissing(us):
		return -t.KingCapture, MoveAlreadyDecided
	case before.KingMissing(them):
		return t.KingCapture, MoveAlreadyDecided
	case after.KingMissing(them) || (capture != chess.NoSquare && before.PiecesOf(them, chess.King).Has(capture)):
		return t.KingCapture, MoveCapturesKing
	case after.KingCapturable():
		return -t.KingCapturable, MoveLeavesKingCapturable
	}
	// s is from the opponent's view: its Mate < 0 is our forced win.
	floor := t.MaxCP + t.MateStep
	switch {
	case s.Terminal == OwnKingMissing:
		return t.KingCapture, MoveCapturesKing
	case s.Terminal == EnemyKingMissing:
		return -t.KingCapture, MoveAlreadyDecided
	case s.Terminal == NoKings:
		return 0, MoveAlreadyDecided
	case s.Mate < 0: // we capture its king on our |Mate|-th move; 1 = checkmate now
		return max(t.Mate-t.MateStep*(-s.Mate-1), floor), MoveMates
	case s.Mate == 1: // the opponent can capture now (caught above; kept for safety)
		return -t.KingCapturable, MoveLeavesKingCapturable
	case s.Mate > 1: // it mates us on its (Mate−1)-th move
		return -max(t.Mate-t.MateStep*(s.Mate-2), floor), MoveMated
	}
	return -min(max(s.CP, -t.MaxCP), t.MaxCP), MoveEngine
}

// NeedsEval reports whether a taken move's score depends on an evaluation of
// the position after it (false when an RBC term decides it outright).
func NeedsEval(before, after *chess.Board, capture chess.Square) bool {
	us, them := before.Turn(), before.Turn().Other()
	return !before.KingMissing(us) && !before.KingMissing(them) && !after.KingMissing(them) &&
		!(capture != chess.NoSquare && before.PiecesOf(them, chess.King).Has(capture)) && !after.KingCapturable()
}

// ErrNotOption reports a taken move that the side to move cannot make on the
// board (not pseudo-legal and not the null move).
var ErrNotOption = errors.New("evaluator: move is not an option on this board")

// moveKey identifies a move evaluation.
type moveKey struct {
	key   uint64
	taken chess.Move
	lim   Limits
}

// MoveScorer scores taken moves: it applies the move, evaluates the position
// after it for the opponent, negates, and adds the RBC terms. Results are
// cached by (board Key, taken move, limits) with in-flight de-duplication.
// It is safe for concurrent use.
type MoveScorer struct {
	eval  Evaluator
	terms MoveTerms
	cache *Cache[moveKey, MoveScore]
}

// NewMoveScorer returns a scorer over e with the given terms and a cache of
// cacheSize entries.
func NewMoveScorer(e Evaluator, terms MoveTerms, cacheSize int) *MoveScorer {
	return &MoveScorer{eval: e, terms: terms, cache: NewCache[moveKey, MoveScore](cacheSize)}
}

// Terms returns the scorer's RBC terms.
func (m *MoveScorer) Terms() MoveTerms { return m.terms }

// CacheStats returns the move cache's counters.
func (m *MoveScorer) CacheStats() CacheStats { return m.cache.Stats() }

// ScoreTaken scores the taken move (a pseudo-legal move or the null move for
// a pass) on board b for the side to move. The board is not changed.
func (m *MoveScorer) ScoreTaken(ctx context.Context, b chess.Board, taken chess.Move, lim Limits) (MoveScore, error) {
	if !taken.IsNull() && !b.IsPseudoLegal(taken) {
		return MoveScore{}, fmt.Errorf("%w: %v on %s", ErrNotOption, taken, b.FEN())
	}
	return m.cache.Do(ctx, moveKey{b.Key(), taken, lim}, func(ctx context.Context) (MoveScore, error) {
		after := b
		capture := after.Apply(taken)
		ms := MoveScore{Taken: taken, Capture: capture}
		if NeedsEval(&b, &after, capture) {
			s, err := m.eval.Evaluate(ctx, after, lim)
			if err != nil {
				return MoveScore{}, fmt.Errorf("evaluator: scoring %v: %w", taken, err)
			}
			ms.After = s
		}
		ms.Value, ms.Kind = m.terms.Value(&b, &after, capture, ms.After)
		return ms, nil
	})
}

// ScoreRequest scores a requested move as the harness would take it on b:
// the queen default for a bare promotion, then resolution (a slider stopping
// on the first enemy piece, a blocked pawn or castling becoming no move).
// The request must be a move action or the null move.
func (m *MoveScorer) ScoreRequest(ctx context.Context, b chess.Board, requested chess.Move, lim Limits) (MoveScore, error) {
	req := rbc.WithQueenDefault(&b, requested)
	if !req.IsNull() && !b.IsMoveAction(req) {
		return MoveScore{}, fmt.Errorf("evaluator: %v is not a move action on %s", requested, b.FEN())
	}
	taken, _ := rbc.Resolve(&b, req)
	return m.ScoreTaken(ctx, b, taken, lim)
}
