package endgame

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Tracker follows a game from one player's side — our own men, which we
// always know, and how many men the opponent has left, which the announced
// captures tell — and, once the opponent has only its king while we have a
// queen or a rook, or only our king and one pawn, keeps the lone king's
// Belief and chooses our tries with a Mater. If the king takes the pawn the
// game is drawn (insufficient material) and the tracker declines. A player feeds it every answer it hears (Own, Opponent) and asks
// it first at each question (Choose); until the ending is reached, or if
// the belief is ever lost, Choose declines and the player chooses as usual.
type Tracker struct {
	rules kriegspiel.Ruleset
	us    chess.Color
	// mine holds our men; the opponent's men are not on it. halfmove is
	// the true half-move clock once the opponent has only its king (our
	// capture of its last man reset it); before, its pawn moves are unseen.
	mine     chess.Board
	halfmove int
	theirs   int
	// capture is where the opponent's last move took one of our men, or
	// NoSquare: a lone king that captured stands there.
	capture chess.Square
	belief  *Belief
	mater   *Mater
	lost    bool
}

// NewTracker follows the game of the player of colour us from start, with
// the mater's ties broken by seed.
func NewTracker(us chess.Color, rules kriegspiel.Ruleset, start chess.Board, seed uint64) *Tracker {
	mine := start
	for bb := start.Pieces(us.Other()); bb != 0; {
		mine.SetPiece(bb.PopFirst(), chess.NoPiece)
	}
	return &Tracker{rules: rules, us: us, mine: mine, halfmove: start.HalfmoveClock(),
		theirs: start.Pieces(us.Other()).Count(), capture: chess.NoSquare, mater: NewMater(seed)}
}

// Belief returns the lone king's belief, or nil before the ending (or once
// it is lost).
func (t *Tracker) Belief() *Belief { return t.belief }

// Lost reports whether the belief was lost (ErrLost): a bug, which the
// player survives by choosing its tries itself.
func (t *Tracker) Lost() bool { return t.lost }

// Own takes the answer to our own question.
func (t *Tracker) Own(q kriegspiel.Question, a kriegspiel.Answer) error {
	if a.Verdict.Done() {
		pawn := t.mine.PiecesOf(t.us, chess.Pawn).Has(q.Move.From)
		t.mine.Apply(q.Move)
		t.halfmove++
		if a.Verdict == kriegspiel.Captured {
			t.theirs--
		}
		if pawn || a.Verdict == kriegspiel.Captured {
			t.halfmove = 0
		}
	}
	err := t.feed(func(b *Belief) error { return b.Own(q, a) })
	if a.Verdict.Done() {
		var squares chess.Bitboard
		if t.belief != nil {
			squares = t.belief.Squares()
		}
		t.mater.Played(&t.mine, squares)
	}
	return err
}

// Opponent takes what we heard of the opponent's turn.
func (t *Tracker) Opponent(heard []kriegspiel.Heard) error {
	var move *kriegspiel.Answer
	for i := range heard {
		if heard[i].Answer.Verdict.Done() {
			move = &heard[i].Answer
		}
	}
	if move == nil {
		return nil
	}
	t.mine.Apply(chess.Move{}) // its move is unseen: the turn passes
	t.halfmove++
	t.capture = move.Capture
	if move.Capture != chess.NoSquare {
		t.mine.SetPiece(move.Capture, chess.NoPiece)
		t.halfmove = 0
	}
	return t.feed(func(b *Belief) error { return b.Opponent(heard) })
}

// feed updates the belief, if there is one; an error loses it for the game.
func (t *Tracker) feed(update func(*Belief) error) error {
	if t.belief == nil {
		return nil
	}
	if err := update(t.belief); err != nil {
		t.belief, t.lost = nil, true
		return err
	}
	return nil
}

// Choose returns the question to ask when the ending is ours to play: the
// opponent has only its king and we a queen or a rook, or a lone pawn. The belief starts at
// the first such question. ok is false when the player should choose.
func (t *Tracker) Choose(questions []kriegspiel.Question) (q kriegspiel.Question, ok bool, err error) {
	if t.lost || t.theirs != 1 {
		return kriegspiel.Question{}, false, nil
	}
	if t.belief == nil {
		if t.mine.Turn() != t.us || !Playable(&t.mine, t.us) {
			return kriegspiel.Question{}, false, nil
		}
		mine, err := withHalfmove(t.mine, t.halfmove)
		if err == nil {
			t.belief, err = NewBelief(t.rules, mine, t.capture)
		}
		if err != nil {
			t.lost = true
			return kriegspiel.Question{}, false, err
		}
	}
	mine := t.belief.Mine()
	if !Playable(&mine, t.us) {
		return kriegspiel.Question{}, false, nil
	}
	moves := make([]chess.Move, 0, len(questions))
	for _, q := range questions {
		if !q.AskAny {
			moves = append(moves, q.Move)
		}
	}
	m, ok := t.mater.Choose(t.belief, moves)
	if !ok {
		return kriegspiel.Question{}, false, nil
	}
	return kriegspiel.TryMove(m), true, nil
}
