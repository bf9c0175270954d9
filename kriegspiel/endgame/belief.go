// Package endgame plays Kriegspiel's classic won endings — king and queen,
// king and rook, or king and pawn against a lone king — that the sampling
// and MCTS players
// reach but cannot convert: with only a king left, the opponent's whole
// position is one square, so the belief is a set of at most 64 squares
// (Belief), kept exactly from the referee's answers, and a small search over
// that set (Mater) drives the king to mate without ever losing the piece or
// giving stalemate on a square the king may stand on. Tracker follows a game
// from a player's side and hands the choice of tries to the Mater once the
// opponent is down to its king; the bots call it first at each question.
package endgame

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// ErrLost is returned when no square is consistent with what was heard: a
// bug, or a game where the opponent has more than its king.
var ErrLost = errors.New("endgame: no square of the lone king is consistent with what was heard")

// Belief is the exact set of squares a lone enemy king may stand on, with our
// own men, which we know. Each square stands for one board (our men and the
// king there), and every answer is checked against the referee's own rules
// on each of them (kriegspiel.IsLegal, kriegspiel.Announce): a square stays
// exactly when the referee would have answered the same with the king there.
// So the belief never drops the true square, and drops every square an
// answer rules out, the number of the king's illegal tries under rules that
// announce them (berkeley) included.
type Belief struct {
	rules kriegspiel.Ruleset
	us    chess.Color
	// mine holds our men, the side to move, our castling rights, the
	// en-passant square and the clocks; never an enemy man.
	mine    chess.Board
	squares chess.Bitboard
}

// NewBelief starts the belief at the start of one of our turns, from our men
// (mine: a board whose enemy men are ignored, with us to move and the true
// half-move clock) and what we know of the king: every square that holds
// none of our men and none of our men attacks (the king is not in check on
// our move), cut to capture when its last move captured one of our men
// there (NoSquare otherwise).
func NewBelief(rules kriegspiel.Ruleset, mine chess.Board, capture chess.Square) (*Belief, error) {
	us := mine.Turn()
	clean, err := ownMenOnly(mine, us)
	if err != nil {
		return nil, err
	}
	set := ^clean.Pieces(us) &^ attacks(&clean, us)
	if capture != chess.NoSquare {
		set &= capture.Bit()
	}
	if set == 0 {
		return nil, fmt.Errorf("%w (no square is free of our men and their attacks)", ErrLost)
	}
	return &Belief{rules: rules, us: us, mine: clean, squares: set}, nil
}

// ownMenOnly returns b with the enemy men removed and the enemy's castling
// rights dropped (a lone king has no rook to castle with, and a right left
// over would only make boards compare unequal).
func ownMenOnly(b chess.Board, us chess.Color) (chess.Board, error) {
	for bb := b.Pieces(us.Other()); bb != 0; {
		b.SetPiece(bb.PopFirst(), chess.NoPiece)
	}
	fields := strings.Fields(b.FEN())
	keep := "KQ"
	if us == chess.Black {
		keep = "kq"
	}
	rights := strings.Map(func(r rune) rune {
		if strings.ContainsRune(keep, r) {
			return r
		}
		return -1
	}, fields[2])
	if rights == "" {
		rights = "-"
	}
	fields[2] = rights
	out, err := chess.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return chess.Board{}, fmt.Errorf("endgame: our men: %w", err)
	}
	return out, nil
}

// withHalfmove returns b with its half-move clock set to n.
func withHalfmove(b chess.Board, n int) (chess.Board, error) {
	fields := strings.Fields(b.FEN())
	fields[4] = strconv.Itoa(n)
	out, err := chess.ParseFEN(strings.Join(fields, " "))
	if err != nil {
		return chess.Board{}, fmt.Errorf("endgame: half-move clock: %w", err)
	}
	return out, nil
}

// Squares returns the squares the king may stand on.
func (bl *Belief) Squares() chess.Bitboard { return bl.squares }

// Mine returns our men as the belief knows them (no enemy man on the board).
func (bl *Belief) Mine() chess.Board { return bl.mine }

// Color returns our colour.
func (bl *Belief) Color() chess.Color { return bl.us }

// Rules returns the game's rules.
func (bl *Belief) Rules() kriegspiel.Ruleset { return bl.rules }

// Board returns the board with the king on s and our men.
func (bl *Belief) Board(s chess.Square) chess.Board {
	b := bl.mine
	b.SetPiece(s, chess.MakePiece(bl.us.Other(), chess.King))
	return b
}

// Own takes the answer a to our own question q. An illegal try keeps the
// squares where the move is illegal; a move made keeps the squares where it
// is legal and announces exactly a, and is made on our men. "any?" and an
// impossible question tell nothing: a lone king has no man a pawn could take.
func (bl *Belief) Own(q kriegspiel.Question, a kriegspiel.Answer) error {
	if a.Verdict == kriegspiel.Impossible || q.AskAny {
		return nil
	}
	var kept chess.Bitboard
	var after chess.Board
	for bb := bl.squares; bb != 0; {
		s := bb.PopFirst()
		b := bl.Board(s)
		legal := chess.IsLegal(&b, q.Move)
		if a.Verdict == kriegspiel.Illegal {
			if !legal {
				kept |= s.Bit()
			}
			continue
		}
		if !legal {
			continue
		}
		got, next := kriegspiel.Announce(bl.rules, b, q.Move)
		if sameAnswer(got, a) {
			kept |= s.Bit()
			after = next
		}
	}
	if kept == 0 {
		return fmt.Errorf("%w (after %s answered %s)", ErrLost, q, a)
	}
	bl.squares = kept
	if a.Verdict.Done() {
		after.SetPiece(after.KingSquare(bl.us.Other()), chess.NoPiece)
		bl.mine = after
	}
	return nil
}

// Opponent takes what we heard of the king's turn: its move's announcement
// and, under rules that announce them, its illegal tries. Each square is
// replaced by the squares its legal moves reach with that announcement; with
// k illegal tries heard, only squares from which at least k king steps are
// illegal can have been the king's (it may not ask a refused step again).
func (bl *Belief) Opponent(heard []kriegspiel.Heard) error {
	var move *kriegspiel.Answer
	illegal := 0
	for i := range heard {
		h := &heard[i]
		switch {
		case h.Own:
			return fmt.Errorf("endgame: Belief.Opponent given our own answer %s", h.Answer)
		case h.Answer.Verdict == kriegspiel.Illegal:
			illegal++
		case h.Answer.Verdict.Done():
			move = &h.Answer
		}
	}
	if move == nil {
		return nil // the game ended before the king moved
	}
	var next chess.Bitboard
	var after chess.Board
	var buf [32]chess.Move
	for bb := bl.squares; bb != 0; {
		s := bb.PopFirst()
		b := bl.Board(s)
		moves := chess.AppendLegalMoves(&b, buf[:0])
		if illegal > 0 && chess.KingAttacks(s).Count()-len(moves) < illegal {
			continue
		}
		for _, m := range moves {
			got, n := kriegspiel.Announce(bl.rules, b, m)
			if sameAnswer(got, *move) {
				next |= m.To.Bit()
				after = n
			}
		}
	}
	if next == 0 {
		return fmt.Errorf("%w (after the king's move announced %s)", ErrLost, move)
	}
	bl.squares = next
	after.SetPiece(after.KingSquare(bl.us.Other()), chess.NoPiece)
	bl.mine = after
	return nil
}

// sameAnswer reports whether the referee's answer on a board, got, is the
// one heard. A repetition, which depends on the game's history rather than
// the board, matches an answer otherwise equal that does not end the game.
func sameAnswer(got, heard kriegspiel.Answer) bool {
	if heard.End == kriegspiel.DrawRepetition && got.End == kriegspiel.NotOver {
		got.End, got.Checks, got.PawnTries = heard.End, heard.Checks, heard.PawnTries
	}
	return got == heard
}
