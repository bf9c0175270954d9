package web

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// State is everything the page draws, as the person's side may know it.
type State struct {
	Game     string `json:"game"`    // the game's name: rbc, kriegspiel, invisible
	Version  int    `json:"version"` // grows with every change
	Color    string `json:"color"`   // the person's
	Opponent string `json:"opponent"`
	// Board holds the person's own men, a FEN letter a square ("" empty),
	// indexed a1 = 0 … h8 = 63. The opponent's men are never on it, but
	// for its visible men in invisible chess, which the person sees.
	Board []string `json:"board"`
	// Hidden is the squares of the person's own invisible pieces, and
	// Heat, per square, the probability the person's exact belief gives an
	// opponent's invisible piece there, with the belief's Entropy in bits
	// and its number of Placements (invisible chess).
	Hidden     []string  `json:"hidden,omitempty"`
	Heat       []float64 `json:"heat,omitempty"`
	Entropy    float64   `json:"entropy,omitempty"`
	Placements int       `json:"placements,omitempty"`
	// Window is the last sense window's squares and what stood there
	// (RBC); Lost is where the person's man was just taken ("" if not).
	Window []SquareView `json:"window,omitempty"`
	Lost   string       `json:"lost,omitempty"`
	// Phase is what the person is asked now: "sense" or "move" (RBC),
	// "try" (Kriegspiel, invisible chess), "wait" while the bot plays, "over" at the end.
	Phase string `json:"phase"`
	// Question numbers the open question; an action that names another
	// (a click on a page drawn before it) is refused, not played into it.
	Question int `json:"question,omitempty"`
	// Senses and Moves are what may be chosen in this phase (squares and
	// UCI moves); Any says whether "any?" may be asked (Kriegspiel).
	Senses []string `json:"senses,omitempty"`
	Moves  []string `json:"moves,omitempty"`
	Any    bool     `json:"any,omitempty"`
	// Clock is the person's and the bot's time left, in milliseconds, as
	// of At (Unix milliseconds); the side to move's runs from then.
	Clock   [2]int64 `json:"clock"`
	At      int64    `json:"at"`
	Running string   `json:"running,omitempty"` // "white", "black" or ""
	// Log is what happened, oldest first.
	Log []string `json:"log"`
	// Result is the game's end in words ("" while it goes on); Record and
	// Viewer are the saved record's path and the address of its replay
	// page once they exist.
	Result string `json:"result,omitempty"`
	Record string `json:"record,omitempty"`
	Viewer string `json:"viewer,omitempty"`
	// Failed says why the game could not go on (a bot that crashed, a
	// record that could not be saved), "" otherwise.
	Failed string `json:"failed,omitempty"`
}

// SquareView is a square and what the person saw on it ("" empty).
type SquareView struct {
	Square string `json:"square"`
	Piece  string `json:"piece"`
}

// Action is what the person does: sense a square, move (or try) a move,
// pass, ask "any?", or resign.
type Action struct {
	Kind   string `json:"kind"` // sense, move, pass, any, resign
	Square string `json:"square,omitempty"`
	Move   string `json:"move,omitempty"`
	// Question is the State.Question the action answers (0: the one open).
	Question int `json:"question,omitempty"`
}

// ErrNotAsked is Act's error for an action that answers no question being
// asked: the phase is another, or another tab answered first.
var ErrNotAsked = errors.New("web: not asked now")

// ErrResigned is the person's resignation, as the callback that was asking
// returns it.
var ErrResigned = errors.New("web: resigned")

// Desk is where the game and the page meet: the game's side sets the state
// and asks questions (Ask), the page's side reads the state (Wait) and
// answers (Act). Its methods are safe for concurrent use.
type Desk struct {
	mu      sync.Mutex
	state   State
	changed chan struct{} // closed at the next change
	asked   *question
	now     func() time.Time
}

// question is the one question open: its phase and the answers it takes.
type question struct {
	id     int
	phase  string
	answer chan Action
	valid  func(Action) error
}

// NewDesk returns a desk for one game of name, with the person's colour.
func NewDesk(game string, color chess.Color, opponent string) *Desk {
	d := &Desk{changed: make(chan struct{}), now: time.Now}
	d.state = State{Game: game, Color: color.String(), Opponent: opponent, Phase: "wait", Board: make([]string, 64), Log: []string{}}
	return d
}

// State returns the state as of now.
func (d *Desk) State() State {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.copyState()
}

func (d *Desk) copyState() State {
	s := d.state
	s.Board = slices.Clone(s.Board)
	s.Window = slices.Clone(s.Window)
	s.Hidden = slices.Clone(s.Hidden)
	s.Heat = slices.Clone(s.Heat)
	s.Senses = slices.Clone(s.Senses)
	s.Moves = slices.Clone(s.Moves)
	s.Log = slices.Clone(s.Log)
	return s
}

// Wait returns the state once its version passes since, or as it is when
// ctx ends first (a long poll's deadline).
func (d *Desk) Wait(ctx context.Context, since int) State {
	for {
		d.mu.Lock()
		if d.state.Version > since {
			s := d.copyState()
			d.mu.Unlock()
			return s
		}
		ch := d.changed
		d.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return d.State()
		}
	}
}

// Update changes the state under the desk's lock and tells the waiting
// pages.
func (d *Desk) Update(f func(s *State)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(&d.state)
	d.bump()
}

// bump marks a change; the lock is held.
func (d *Desk) bump() {
	d.state.Version++
	close(d.changed)
	d.changed = make(chan struct{})
}

// Logf adds a line to the log.
func (d *Desk) Logf(format string, args ...any) {
	d.Update(func(s *State) { s.Log = append(s.Log, fmt.Sprintf(format, args...)) })
}

// SetClocks records the person's time left (ours, from the referee) and
// the bot's (estimated), as of now, and which side's clock runs.
func (d *Desk) SetClocks(person chess.Color, ours, theirs time.Duration, running string) {
	d.Update(func(s *State) {
		s.Clock[person], s.Clock[person.Other()] = ours.Milliseconds(), theirs.Milliseconds()
		s.At = d.now().UnixMilli()
		s.Running = running
	})
}

// Ask opens a question of phase, with the choices set by set, and waits
// for the person's answer that valid accepts, or for ctx (the person's
// clock). A resignation is returned as ErrResigned.
func (d *Desk) Ask(ctx context.Context, phase string, set func(s *State), valid func(Action) error) (Action, error) {
	q := &question{phase: phase, answer: make(chan Action, 1), valid: valid}
	d.mu.Lock()
	d.state.Phase = phase
	set(&d.state)
	q.id = d.state.Version + 1
	d.state.Question = q.id
	d.asked = q
	d.bump()
	d.mu.Unlock()
	defer d.close(q)
	select {
	case a := <-q.answer:
		if a.Kind == "resign" {
			return a, ErrResigned
		}
		return a, nil
	case <-ctx.Done():
		return Action{}, ctx.Err()
	}
}

// close ends question q: the phase goes back to waiting.
func (d *Desk) close(q *question) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.asked != q {
		return
	}
	d.asked = nil
	if d.state.Phase == q.phase {
		d.state.Phase = "wait"
		d.state.Senses, d.state.Moves, d.state.Any = nil, nil, false
	}
	d.bump()
}

// Act answers the open question with a. The error is ErrNotAsked (wrapped
// with the reason) when no question of that kind is open, or the question's
// own reason for refusing a (an illegal square or move).
func (d *Desk) Act(a Action) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	q := d.asked
	if q == nil {
		return fmt.Errorf("%w: the bot is playing, or the game is over", ErrNotAsked)
	}
	if a.Question != 0 && a.Question != q.id && a.Kind != "resign" {
		return fmt.Errorf("%w: that question was answered, and another is asked (draw the page again)", ErrNotAsked)
	}
	if a.Kind != "resign" {
		if err := q.valid(a); err != nil {
			return err
		}
	}
	d.asked = nil // the first answer is the one taken
	q.answer <- a
	return nil
}

// End closes the game: its result, and no question is asked any more.
func (d *Desk) End(result string) {
	d.Update(func(s *State) {
		s.Phase, s.Result, s.Running = "over", result, ""
		s.Senses, s.Moves, s.Any = nil, nil, false
	})
}

// boardView is the person's own men as the page draws them.
func boardView(own *chess.Board) []string {
	out := make([]string, 64)
	for s := chess.Square(0); s < 64; s++ {
		if p := own.PieceAt(s); p != chess.NoPiece {
			out[s] = p.String()
		}
	}
	return out
}

// ownMen returns board with only colour c's men on it.
func ownMen(board chess.Board, c chess.Color) chess.Board {
	for s := chess.Square(0); s < 64; s++ {
		if p := board.PieceAt(s); p != chess.NoPiece && p.Color() != c {
			board.SetPiece(s, chess.NoPiece)
		}
	}
	return board
}

// moveOwn plays our move m on own, the board of our men alone: the man
// moves (promoted if m says so), and a castling king brings its rook. It
// does not go through Board.Apply, whose side to move a board of one
// side's men cannot keep (the opponent's moves are never played on it).
func moveOwn(own *chess.Board, m chess.Move, c chess.Color) {
	p := own.PieceAt(m.From)
	if p == chess.NoPiece {
		return
	}
	own.SetPiece(m.From, chess.NoPiece)
	if m.Promotion != chess.NoPieceType {
		p = chess.MakePiece(c, m.Promotion)
	}
	own.SetPiece(m.To, p)
	if p.Type() == chess.King && (m.To-m.From == 2 || m.From-m.To == 2) {
		rookFrom, rookTo := m.To+1, m.To-1 // king's side: the h-file rook to the f-file
		if m.To < m.From {
			rookFrom, rookTo = m.To-2, m.To+1 // queen's side: the a-file rook to the d-file
		}
		own.SetPiece(rookTo, own.PieceAt(rookFrom))
		own.SetPiece(rookFrom, chess.NoPiece)
	}
}
