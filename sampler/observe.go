package sampler

import (
	"fmt"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// obsKind is the kind of an observation.
type obsKind uint8

const (
	obsNotice obsKind = iota // the opponent's capture notice (turn start)
	obsSense                 // our sense result
	obsMove                  // our move result
)

// observation is one thing the player was told, in the form the filters use.
// Observations are recorded in order so that exact's backlog can replay them.
type observation struct {
	kind obsKind
	// square is, for a notice, the square where the opponent captured our
	// piece and, for a move, the square of the piece we captured; NoSquare if
	// none.
	square rbc.Square
	sense  senseFilter
	// requested and taken are our move request and the move taken.
	requested, taken rbc.Move
}

// group returns the expansion group a notice selects (see groupOf).
func (o *observation) group() int { return groupOf(o.square) }

// groupOf numbers the capture square a child announces: 0 for no capture,
// 1 + square otherwise.
func groupOf(capture rbc.Square) int {
	if capture == rbc.NoSquare {
		return 0
	}
	return int(capture) + 1
}

// numGroups is the number of capture groups: no capture, and the 64 squares.
const numGroups = 65

// senseFilter tests whether a board shows a given sense result. It compares
// bitboards restricted to the window (occupancy, colour, then each type), which
// rejects most boards with one AND and one comparison; an empty window (a
// passed sense) accepts every board.
type senseFilter struct {
	window, occ, white rbc.Bitboard
	types              [6]rbc.Bitboard // indexed by PieceType-1
}

func newSenseFilter(result []rbc.SquarePiece) (senseFilter, error) {
	var f senseFilter
	for _, sp := range result {
		if !sp.Square.Valid() {
			return f, fmt.Errorf("sampler: sense result holds bad square %d", sp.Square)
		}
		bit := sp.Square.Bit()
		if f.window&bit != 0 {
			return f, fmt.Errorf("sampler: sense result lists %v twice", sp.Square)
		}
		f.window |= bit
		if sp.Piece == rbc.NoPiece {
			continue
		}
		t := sp.Piece.Type()
		if t < rbc.Pawn || t > rbc.King {
			return f, fmt.Errorf("sampler: sense result holds bad piece %d on %v", sp.Piece, sp.Square)
		}
		f.occ |= bit
		if sp.Piece.Color() == rbc.White {
			f.white |= bit
		}
		f.types[t-1] |= bit
	}
	return f, nil
}

// match reports whether b shows the sensed result.
func (f *senseFilter) match(b *rbc.Board) bool {
	w := f.window
	if b.Occupied()&w != f.occ || b.Pieces(rbc.White)&w != f.white {
		return false
	}
	for t := rbc.Pawn; t <= rbc.King; t++ {
		if (b.PiecesOf(rbc.White, t)|b.PiecesOf(rbc.Black, t))&w != f.types[t-1] {
			return false
		}
	}
	return true
}

// pieceAt returns what the sense result showed on s (s must be in the window).
func (f *senseFilter) pieceAt(s rbc.Square) rbc.Piece {
	if !f.occ.Has(s) {
		return rbc.NoPiece
	}
	c := rbc.Black
	if f.white.Has(s) {
		c = rbc.White
	}
	for t := rbc.Pawn; t <= rbc.King; t++ {
		if f.types[t-1].Has(s) {
			return rbc.MakePiece(c, t)
		}
	}
	return rbc.NoPiece
}

// applyMove checks a board (us to move) against our move result: the request,
// with the harness's queen default, must resolve on it to the taken move with
// the same capture square. On success it returns the board after the taken
// move; b itself is never changed.
func (o *observation) applyMove(b *rbc.Board) (rbc.Board, bool) {
	taken, capture := rbc.Resolve(b, rbc.WithQueenDefault(b, o.requested))
	if taken != o.taken || capture != o.square {
		return rbc.Board{}, false
	}
	next := *b
	next.Apply(taken)
	return next, true
}

// stage says whose move it is on the boards of a belief.
type stage uint8

const (
	usToMove  stage = iota // after the opponent's move: our turn
	oppToMove              // after our move: the opponent's turn
)

// seenPiece is an opponent piece last seen on a square, and when.
type seenPiece struct {
	piece rbc.Piece
	turn  int
}

// knowledge is what the player knows for certain, gathered from its own
// observations: its own pieces exactly, how many pieces it has captured, and
// the latest observations. It also remembers where opponent pieces were last
// seen, as a prior for the boards that the latest observations allow (los).
type knowledge struct {
	color rbc.Color
	// own holds only our pieces, kept up to date by our moves and our losses.
	// Its side to move follows the game; its castling field is not used.
	own       rbc.Board
	ownRights rbc.Castling // our castling rights, known exactly
	oppRights rbc.Castling // the opponent's rights that may still be held
	stage     stage
	turn      int // our turns started so far

	captured      int               // opponent pieces we have captured
	capturedTypes [rbc.King + 1]int // of which the type was seen
	lastSeen      [64]seenPiece     // opponent pieces by square
	seenTurn      [64]int           // when each square was last seen, 0 if never
	notice        rbc.Square        // this turn's capture notice (usToMove)
	sensed        bool              // whether this turn's sense is known
	sense         senseFilter       // this turn's sense result
	lastMove      observation       // our last move result (oppToMove)
	mustEmpty     rbc.Bitboard      // squares our last move showed empty (oppToMove)
	mustOpp       rbc.Bitboard      // squares our last move showed holding an opponent piece
	started       bool
}

func (k *knowledge) start(color rbc.Color, board rbc.Board) {
	*k = knowledge{color: color, own: board, notice: rbc.NoSquare, started: true}
	for s := rbc.A1; s <= rbc.H8; s++ {
		if p := board.PieceAt(s); p != rbc.NoPiece && p.Color() != color {
			k.own.SetPiece(s, rbc.NoPiece)
			k.lastSeen[s] = seenPiece{piece: p, turn: 0}
		}
	}
	ours := rbc.WhiteKingside | rbc.WhiteQueenside
	if color == rbc.Black {
		ours = rbc.BlackKingside | rbc.BlackQueenside
	}
	k.ownRights = board.Castling() & ours
	k.oppRights = board.Castling() &^ ours
	k.stage = oppToMove
	if board.Turn() == color {
		k.stage = usToMove
	}
}

// homeRights gives, per square, the castling rights that depend on a king or
// rook standing there.
var homeRights = func() (m [64]rbc.Castling) {
	m[rbc.E1], m[rbc.H1], m[rbc.A1] = rbc.WhiteKingside|rbc.WhiteQueenside, rbc.WhiteKingside, rbc.WhiteQueenside
	m[rbc.E8], m[rbc.H8], m[rbc.A8] = rbc.BlackKingside|rbc.BlackQueenside, rbc.BlackKingside, rbc.BlackQueenside
	return m
}()

func (k *knowledge) onNotice(square rbc.Square) {
	if k.stage == oppToMove {
		k.own.Apply(rbc.Move{}) // the opponent moved: our turn
		k.stage = usToMove
	}
	k.turn++
	k.notice = square
	k.sensed = false
	k.mustEmpty, k.mustOpp = 0, 0
	if square.Valid() {
		k.own.SetPiece(square, rbc.NoPiece)
		k.ownRights &^= homeRights[square]
	}
}

func (k *knowledge) onSense(f senseFilter) {
	k.sensed = true
	k.sense = f
	for w := f.window; w != 0; {
		s := w.PopFirst()
		k.seenTurn[s] = k.turn
		p := f.pieceAt(s)
		if p != rbc.NoPiece && p.Color() != k.color {
			k.lastSeen[s] = seenPiece{piece: p, turn: k.turn}
		} else {
			k.lastSeen[s] = seenPiece{}
		}
		// A home square seen without its king or rook ends those rights.
		if r := homeRights[s] & k.oppRights; r != 0 {
			want := rbc.Rook
			if s == rbc.E1 || s == rbc.E8 {
				want = rbc.King
			}
			if p != rbc.MakePiece(k.color.Other(), want) {
				k.oppRights &^= r
			}
		}
	}
}

func (k *knowledge) onMove(o observation) {
	k.lastMove = o
	mover := k.own.PieceAt(o.requested.From).Type()
	k.own.Apply(o.taken)
	k.stage = oppToMove
	if !o.taken.IsNull() {
		k.ownRights &^= homeRights[o.taken.From] | homeRights[o.taken.To]
	}
	if o.square.Valid() {
		k.captured++
		t := rbc.NoPieceType
		if k.sensed && k.sense.window.Has(o.square) {
			t = k.sense.pieceAt(o.square).Type()
		} else if sp := k.lastSeen[o.square]; sp.piece != rbc.NoPiece {
			t = sp.piece.Type()
		}
		if t != rbc.NoPieceType {
			k.capturedTypes[t]++
		}
		k.lastSeen[o.square] = seenPiece{}
		k.oppRights &^= homeRights[o.square]
	}
	// What the move result shows about the squares it crossed.
	k.mustEmpty, k.mustOpp = 0, 0
	req := k.lastMove.requested
	if !o.taken.IsNull() {
		k.mustEmpty |= rbc.Between(o.taken.From, o.taken.To)
	}
	if req.IsNull() || req == o.taken {
		return
	}
	isPush := req.From.File() == req.To.File()
	switch {
	case o.taken.IsNull() && !isPush && mover == rbc.Pawn:
		// A pawn diagonal onto an empty square.
		k.mustEmpty |= req.To.Bit()
	case isPush && mover == rbc.Pawn:
		// A blocked pawn push: the first square it could not enter is occupied.
		step := rbc.Square(8)
		if k.color == rbc.Black {
			step = -8
		}
		blocked := req.From + step
		if !o.taken.IsNull() {
			blocked = o.taken.To + step
		}
		if !k.own.Pieces(k.color).Has(blocked) {
			k.mustOpp |= blocked.Bit()
		}
	}
}
