package sampler

import (
	"fmt"

	"github.com/blindfish-rbc/blindfish/chess"
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
	square chess.Square
	sense  senseFilter
	// requested and taken are our move request and the move taken.
	requested, taken chess.Move
}

// group returns the expansion group a notice selects (see groupOf).
func (o *observation) group() int { return groupOf(o.square) }

// groupOf numbers the capture square a child announces: 0 for no capture,
// 1 + square otherwise.
func groupOf(capture chess.Square) int {
	if capture == chess.NoSquare {
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
	window, occ, white chess.Bitboard
	types              [6]chess.Bitboard // indexed by PieceType-1
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
		if sp.Piece == chess.NoPiece {
			continue
		}
		t := sp.Piece.Type()
		if t < chess.Pawn || t > chess.King {
			return f, fmt.Errorf("sampler: sense result holds bad piece %d on %v", sp.Piece, sp.Square)
		}
		f.occ |= bit
		if sp.Piece.Color() == chess.White {
			f.white |= bit
		}
		f.types[t-1] |= bit
	}
	return f, nil
}

// match reports whether b shows the sensed result.
func (f *senseFilter) match(b *chess.Board) bool {
	w := f.window
	if b.Occupied()&w != f.occ || b.Pieces(chess.White)&w != f.white {
		return false
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if (b.PiecesOf(chess.White, t)|b.PiecesOf(chess.Black, t))&w != f.types[t-1] {
			return false
		}
	}
	return true
}

// pieceAt returns what the sense result showed on s (s must be in the window).
func (f *senseFilter) pieceAt(s chess.Square) chess.Piece {
	if !f.occ.Has(s) {
		return chess.NoPiece
	}
	c := chess.Black
	if f.white.Has(s) {
		c = chess.White
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		if f.types[t-1].Has(s) {
			return chess.MakePiece(c, t)
		}
	}
	return chess.NoPiece
}

// applyMove checks a board (us to move) against our move result: the request,
// with the harness's queen default, must resolve on it to the taken move with
// the same capture square. On success it returns the board after the taken
// move; b itself is never changed.
func (o *observation) applyMove(b *chess.Board) (chess.Board, bool) {
	taken, capture := rbc.Resolve(b, rbc.WithQueenDefault(b, o.requested))
	if taken != o.taken || capture != o.square {
		return chess.Board{}, false
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
	piece chess.Piece
	turn  int
}

// knowledge is what the player knows for certain, gathered from its own
// observations: its own pieces exactly, how many pieces it has captured, and
// the latest observations. It also remembers where opponent pieces were last
// seen, as a prior for the boards that the latest observations allow (los).
type knowledge struct {
	color chess.Color
	// own holds only our pieces, kept up to date by our moves and our losses.
	// Its side to move follows the game; its castling field is not used.
	own       chess.Board
	ownRights chess.Castling // our castling rights, known exactly
	oppRights chess.Castling // the opponent's rights that may still be held
	stage     stage
	turn      int // our turns started so far

	captured      int                 // opponent pieces we have captured
	capturedTypes [chess.King + 1]int // of which the type was seen
	lastSeen      [64]seenPiece       // opponent pieces by square
	seenTurn      [64]int             // when each square was last seen, 0 if never
	notice        chess.Square        // this turn's capture notice (usToMove)
	sensed        bool                // whether this turn's sense is known
	sense         senseFilter         // this turn's sense result
	lastMove      observation         // our last move result (oppToMove)
	mustEmpty     chess.Bitboard      // squares our last move showed empty (oppToMove)
	mustOpp       chess.Bitboard      // squares our last move showed holding an opponent piece
	started       bool
}

func (k *knowledge) start(color chess.Color, board chess.Board) {
	*k = knowledge{color: color, own: board, notice: chess.NoSquare, started: true}
	for s := chess.A1; s <= chess.H8; s++ {
		if p := board.PieceAt(s); p != chess.NoPiece && p.Color() != color {
			k.own.SetPiece(s, chess.NoPiece)
			k.lastSeen[s] = seenPiece{piece: p, turn: 0}
		}
	}
	ours := chess.WhiteKingside | chess.WhiteQueenside
	if color == chess.Black {
		ours = chess.BlackKingside | chess.BlackQueenside
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
var homeRights = func() (m [64]chess.Castling) {
	m[chess.E1], m[chess.H1], m[chess.A1] = chess.WhiteKingside|chess.WhiteQueenside, chess.WhiteKingside, chess.WhiteQueenside
	m[chess.E8], m[chess.H8], m[chess.A8] = chess.BlackKingside|chess.BlackQueenside, chess.BlackKingside, chess.BlackQueenside
	return m
}()

func (k *knowledge) onNotice(square chess.Square) {
	if k.stage == oppToMove {
		k.own.Apply(chess.Move{}) // the opponent moved: our turn
		k.stage = usToMove
	}
	k.turn++
	k.notice = square
	k.sensed = false
	k.mustEmpty, k.mustOpp = 0, 0
	if square.Valid() {
		k.own.SetPiece(square, chess.NoPiece)
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
		if p != chess.NoPiece && p.Color() != k.color {
			k.lastSeen[s] = seenPiece{piece: p, turn: k.turn}
		} else {
			k.lastSeen[s] = seenPiece{}
		}
		// A home square seen without its king or rook ends those rights.
		if r := homeRights[s] & k.oppRights; r != 0 {
			want := chess.Rook
			if s == chess.E1 || s == chess.E8 {
				want = chess.King
			}
			if p != chess.MakePiece(k.color.Other(), want) {
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
		t := chess.NoPieceType
		if k.sensed && k.sense.window.Has(o.square) {
			t = k.sense.pieceAt(o.square).Type()
		} else if sp := k.lastSeen[o.square]; sp.piece != chess.NoPiece {
			t = sp.piece.Type()
		}
		if t != chess.NoPieceType {
			k.capturedTypes[t]++
		}
		k.lastSeen[o.square] = seenPiece{}
		k.oppRights &^= homeRights[o.square]
	}
	// What the move result shows about the squares it crossed.
	k.mustEmpty, k.mustOpp = 0, 0
	req := k.lastMove.requested
	if !o.taken.IsNull() {
		k.mustEmpty |= chess.Between(o.taken.From, o.taken.To)
	}
	if req.IsNull() || req == o.taken {
		return
	}
	isPush := req.From.File() == req.To.File()
	switch {
	case o.taken.IsNull() && !isPush && mover == chess.Pawn:
		// A pawn diagonal onto an empty square.
		k.mustEmpty |= req.To.Bit()
	case isPush && mover == chess.Pawn:
		// A blocked pawn push: the first square it could not enter is occupied.
		step := chess.Square(8)
		if k.color == chess.Black {
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
