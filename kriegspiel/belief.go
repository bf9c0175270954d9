package kriegspiel

// The exact belief of one player: every board consistent with what it has
// heard. It lives beside the referee because it asks the referee's own
// questions of each board it keeps — "what would you have answered if this
// were the true board?" — so the belief and the rules can never disagree.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// ErrEmptyBelief is returned when no board is consistent with what was heard:
// a bug, or a record that is not a game of these rules.
var ErrEmptyBelief = errors.New("kriegspiel: no board is consistent with what was heard")

// ErrBeliefTooLarge is returned when the opponent's turn would leave more
// boards than the belief's limit; the belief is then unchanged and a caller
// falls back to sampling.
var ErrBeliefTooLarge = errors.New("kriegspiel: the belief would exceed its limit")

// ctxCheckEvery is how many boards Own asks between looks at its context
// (Opponent, whose boards cost about sixteen times as much, looks sixteen
// times as often): often enough to stop within a millisecond or so, rarely
// enough to cost nothing.
const ctxCheckEvery = 1024

// DefaultBeliefLimit is the most boards a belief keeps unless told otherwise
// (about 100 MB of boards).
const DefaultBeliefLimit = 1 << 20

// Belief is the exact set of boards one player thinks possible: its own men
// are known, the opponent's are not. Each of the player's own answers keeps
// the boards on which the referee would have answered the same (and makes the
// move on them); the opponent's turn expands each board by every legal move
// whose public announcements equal the ones heard. It never drops the true
// board, and keeps no board the announcements rule out, with one exception:
// under rules that announce an opponent's illegal tries (berkeley), how many
// it made is not used.
type Belief struct {
	color  rbc.Color
	rules  Ruleset
	boards []rbc.Board
	limit  int
	// The referee's state of the turn in progress, the same on every board
	// the belief keeps: pawn tries announced to the player to move, moves
	// refused (our own; an opponent's are unknown and never matter to what
	// we hear), and the state of "any?".
	tries    int
	refused  []rbc.Move
	anyAsked bool
	anyYes   bool
}

// NewBelief returns the belief of the player of color at the start of a game
// from start, with the pawn tries announced before the first move (-1 when
// the rules announce none).
func NewBelief(color rbc.Color, rules Ruleset, start rbc.Board, pawnTries int) *Belief {
	return &Belief{color: color, rules: rules, boards: []rbc.Board{start}, limit: DefaultBeliefLimit, tries: pawnTries}
}

// SetLimit sets the most boards the belief may hold (at least 1).
func (bl *Belief) SetLimit(n int) { bl.limit = max(n, 1) }

// Thin keeps n boards of the belief chosen at random by rng (all of them if
// it holds no more). The belief is then no longer exact: it may have lost
// the true board, and a later answer may empty it (ErrEmptyBelief). It is
// what a player does when the exact set outgrows its memory or its time.
func (bl *Belief) Thin(n int, rng *rand.Rand) {
	if n < 1 || len(bl.boards) <= n {
		return
	}
	rng.Shuffle(len(bl.boards), func(i, j int) { bl.boards[i], bl.boards[j] = bl.boards[j], bl.boards[i] })
	bl.boards = slices.Clip(bl.boards[:n])
}

// Len returns the number of boards.
func (bl *Belief) Len() int { return len(bl.boards) }

// Boards returns the boards; the caller must not modify them.
func (bl *Belief) Boards() []rbc.Board { return bl.boards }

// Contains reports whether a board with b's placement, side to move,
// castling rights, en-passant square and half-move clock is in the belief.
func (bl *Belief) Contains(b *rbc.Board) bool {
	for i := range bl.boards {
		if sameBoard(&bl.boards[i], b) {
			return true
		}
	}
	return false
}

func sameBoard(a, b *rbc.Board) bool { return boardKey(a) == boardKey(b) }

// boardKey identifies a board as the referee tells boards apart: the
// position and the half-move clock (which can end the game).
func boardKey(b *rbc.Board) [2]uint64 { return [2]uint64{b.Key(), uint64(b.HalfmoveClock())} }

// hypothesis returns the referee as it would be with b for the true board
// and the turn so far as the belief knows it. Its refused list shares no
// memory with the belief's.
func (bl *Belief) hypothesis(b rbc.Board) Game {
	return Game{rules: bl.rules, board: b, tries: bl.tries,
		refused: bl.refused[:len(bl.refused):len(bl.refused)], anyAsked: bl.anyAsked, anyYes: bl.anyYes}
}

// Own takes the answer a to the player's own question q: the boards on which
// the referee would have answered otherwise go, and a move that was made is
// made on the rest. If ctx is done before every board is asked, the belief
// keeps the boards found consistent so far (no longer exact, as after Thin)
// and the error wraps ctx.Err(): a player short of time keeps what it has.
func (bl *Belief) Own(ctx context.Context, q Question, a Answer) error {
	if a.Verdict == Impossible {
		return nil // nothing was asked of the board
	}
	kept := bl.boards[:0]
	var state *Game
	var g Game
	// A move can make two boards one: they differed only in the man it
	// took (a knight or a bishop, both "a piece"), or in the half-move
	// clock a pawn move or capture resets.
	var seen map[[2]uint64]struct{}
	if a.Verdict.Done() {
		seen = map[[2]uint64]struct{}{}
	}
	var stopped error
	for i, b := range bl.boards {
		if i%ctxCheckEvery == 0 && i > 0 {
			if stopped = ctx.Err(); stopped != nil {
				break
			}
		}
		g = bl.hypothesis(b)
		if !sameAnswer(g.answer(q), a) {
			continue
		}
		if seen != nil {
			k := boardKey(&g.board)
			if _, dup := seen[k]; dup {
				continue
			}
			seen[k] = struct{}{}
		}
		kept = append(kept, g.board)
		if state == nil {
			s := g
			state = &s
		}
	}
	bl.boards = kept
	if state == nil {
		if stopped != nil {
			return fmt.Errorf("kriegspiel: belief stopped before a board was found consistent with %s: %w", q, stopped)
		}
		return fmt.Errorf("%w (after %s answered %s)", ErrEmptyBelief, q, a)
	}
	// The state of the turn is the referee's on every kept board.
	if a.Verdict.Done() {
		// The opponent's turn starts: its pawn tries are in our answer.
		bl.tries, bl.refused, bl.anyAsked, bl.anyYes = a.PawnTries, nil, false, false
	} else {
		bl.refused = append(bl.refused[:0], state.refused...)
		bl.anyAsked, bl.anyYes = state.anyAsked, state.anyYes
	}
	if stopped != nil {
		return fmt.Errorf("kriegspiel: belief cut to the %d boards found consistent before it stopped: %w", len(kept), stopped)
	}
	return nil
}

// Opponent takes what the player heard of the opponent's turn, in order (as
// Player.HandleOpponentTurn receives it): its "any?" answers and its move's
// announcements. Each board is replaced by the boards its legal moves lead to
// that announce what was heard. On ErrBeliefTooLarge, or when ctx is done
// first (the error wraps ctx.Err()), the belief is unchanged.
func (bl *Belief) Opponent(ctx context.Context, heard []Heard) error {
	var move *Answer
	anyAsked, anyYes := false, false
	for i := range heard {
		h := &heard[i]
		switch {
		case h.Own:
			return fmt.Errorf("kriegspiel: Belief.Opponent given the player's own answer %s", h.Answer)
		case h.Question.AskAny:
			anyAsked, anyYes = true, h.Answer.Verdict == HasAny
		case h.Answer.Verdict.Done():
			move = &h.Answer
		}
	}
	if move == nil {
		return nil // the opponent has not moved (the game ended, or White's first turn)
	}
	var (
		next []rbc.Board
		seen = map[[2]uint64]struct{}{}
		buf  [256]rbc.Move
	)
	for i, b := range bl.boards {
		if i%(ctxCheckEvery/16) == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("kriegspiel: belief stopped after %d of %d boards: %w", i, len(bl.boards), err)
			}
		}
		if anyAsked && (countPawnCaptures(&b) > 0) != anyYes {
			continue
		}
		g := bl.hypothesis(b)
		g.anyAsked, g.anyYes = anyAsked, anyYes
		for _, m := range AppendLegalMoves(&b, buf[:0]) {
			if anyAsked && isPawnCapture(&b, m) != anyYes {
				continue
			}
			if captureSquare(&b, m) != move.Capture {
				continue // the cheap test first: most moves fail it
			}
			h := g
			if !sameAnswer(h.play(m), *move) {
				continue
			}
			k := boardKey(&h.board)
			if _, dup := seen[k]; dup {
				continue
			}
			seen[k] = struct{}{}
			if len(next) >= bl.limit {
				return fmt.Errorf("%w of %d boards", ErrBeliefTooLarge, bl.limit)
			}
			next = append(next, h.board)
		}
	}
	if len(next) == 0 {
		return fmt.Errorf("%w (after the opponent's move announced %s)", ErrEmptyBelief, move)
	}
	bl.boards = next
	bl.tries, bl.refused, bl.anyAsked, bl.anyYes = move.PawnTries, nil, false, false
	return nil
}

// sameAnswer reports whether the referee's answer on a board, got, is the one
// heard. A repetition ending depends on the game's history, which a board
// does not carry: heard, it matches a board whose answer is otherwise equal
// and not over.
func sameAnswer(got, heard Answer) bool {
	if heard.End == DrawRepetition && got.End == NotOver {
		got.End, got.Checks, got.PawnTries = DrawRepetition, heard.Checks, heard.PawnTries
	}
	return got == heard
}

// isPawnCapture reports whether the legal move m is a pawn capture, en
// passant included.
func isPawnCapture(b *rbc.Board, m rbc.Move) bool {
	return b.PiecesOf(b.Turn(), rbc.Pawn).Has(m.From) && m.From.File() != m.To.File()
}

// captureSquare returns the square of the man the legal move m captures, or
// NoSquare.
func captureSquare(b *rbc.Board, m rbc.Move) rbc.Square {
	if b.Pieces(b.Turn().Other()).Has(m.To) {
		return m.To
	}
	if m.To == b.EnPassant() && isPawnCapture(b, m) {
		if b.Turn() == rbc.White {
			return m.To - 8
		}
		return m.To + 8
	}
	return rbc.NoSquare
}
