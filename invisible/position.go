package invisible

import (
	"github.com/blindfish-rbc/blindfish/chess"
)

// Placement is where one side's invisible pieces stand, by identity;
// chess.NoSquare for a piece that was captured (or that the side does not
// have). A fixed-size array, so that a belief's placements are map keys and
// copy without allocating.
type Placement [MaxPieces]chess.Square

// EmptyPlacement has no piece.
var EmptyPlacement = Placement{chess.NoSquare, chess.NoSquare}

// Has reports whether a piece of the placement stands on s, and its id.
func (p Placement) Has(s chess.Square) (int, bool) {
	for i, q := range p {
		if q == s && s != chess.NoSquare {
			return i, true
		}
	}
	return -1, false
}

// Bits returns the placement's squares as a bitboard.
func (p Placement) Bits() chess.Bitboard {
	var b chess.Bitboard
	for _, q := range p {
		if q != chess.NoSquare {
			b |= q.Bit()
		}
	}
	return b
}

// Position is the true state of a game: the board with every piece on it,
// and where each side's invisible pieces are.
type Position struct {
	Board chess.Board
	Inv   [2]Placement
	// Kinds are the piece types of each side's invisible pieces by id:
	// what they are never changes (pawns are never invisible, so no
	// invisible piece promotes).
	Kinds [2][MaxPieces]chess.PieceType
}

// Start is the starting position of a game between the two configurations.
func Start(cfg [2]Config) Position {
	p := Position{Board: chess.StartBoard(), Inv: [2]Placement{EmptyPlacement, EmptyPlacement}}
	for c := chess.White; c <= chess.Black; c++ {
		for i, s := range cfg[c].Starts(c) {
			p.Inv[c][i] = s
			p.Kinds[c][i] = p.Board.PieceAt(s).Type()
		}
	}
	return p
}

// View is what side c sees of the board: everything but the opponent's
// invisible pieces.
func (p *Position) View(c chess.Color) chess.Board {
	v := p.Board
	for _, s := range p.Inv[c.Other()] {
		if s != chess.NoSquare {
			v.SetPiece(s, chess.NoPiece)
		}
	}
	return v
}

// Outcome is the referee's verdict on a try.
type Outcome uint8

// The three outcomes of the paper.
const (
	// Possible: legal on the true board; it is played.
	Possible Outcome = iota + 1
	// Impossible: not playable on the true board because of an invisible
	// piece (a path through it, a pawn's capture of nothing, a pawn's push
	// onto it); the turn is forfeited.
	Impossible
	// Illegal: a try that would leave the mover's king in check (or
	// castles out of, through or into check), or any rejected try while the
	// mover is in check; the mover learns the reason and tries again.
	Illegal
)

func (o Outcome) String() string {
	switch o {
	case Possible:
		return "possible"
	case Impossible:
		return "impossible"
	case Illegal:
		return "illegal"
	}
	return "?"
}

// Reason is what an illegal try's mover learns of why.
type Reason uint8

// The reasons of an illegal try.
const (
	NoReason Reason = iota
	// Blocked: the try was impossible, but the mover is in check, and a
	// forfeited turn would leave its king capturable (ruling R3).
	Blocked
	// Check: the king would be in check after the try (or, castling, is in
	// check or crosses an attacked square); Answer.Checkers names the
	// opponent's invisible pieces among the attackers (ruling R4).
	Check
)

func (r Reason) String() string {
	switch r {
	case Blocked:
		return "blocked"
	case Check:
		return "check"
	}
	return ""
}

// Answer is what the mover is told of a try. It is comparable: a belief
// keeps the placements under which the referee would have said the same.
type Answer struct {
	Outcome Outcome
	Reason  Reason // of an Illegal try
	// Checkers is the set (bit i: id i) of the opponent's invisible pieces
	// that attack the mover's king after an Illegal/Check try.
	Checkers uint8
	// Captured is the id of the opponent's invisible piece a possible try
	// captured, -1 for none (ruling R6: the capturer learns which).
	Captured int8
}

// Seen is what a player is told of its opponent's turn (rulings R2, R5, R7).
type Seen struct {
	// Forfeit: the opponent's try was impossible and its turn forfeited.
	Forfeit bool
	// Move is the opponent's move when the piece moved is visible (a
	// castling is the king's move, and visible), the null move otherwise.
	Move chess.Move
	// Moved is the id of the opponent's invisible piece that moved, -1 for
	// none.
	Moved int8
	// Capture is the square where the opponent's invisible piece captured
	// one of the player's men, chess.NoSquare for none: the player sees its
	// own man vanish.
	Capture chess.Square
	// Checkers is the set of the opponent's invisible pieces that give
	// check to the player's king after the move: check is announced, with
	// the checkers' identities but not their squares.
	Checkers uint8
}

// castling is one castling of the chess core's four, as the referee needs it.
type castling struct {
	right      chess.Castling
	king       chess.Move
	rook, dest chess.Square
	empty      chess.Bitboard // must be empty
	safe       chess.Bitboard // the king's squares, which must not be attacked
}

var castlings = [4]castling{
	{chess.WhiteKingside, chess.Move{From: chess.E1, To: chess.G1}, chess.H1, chess.F1, chess.F1.Bit() | chess.G1.Bit(), chess.E1.Bit() | chess.F1.Bit() | chess.G1.Bit()},
	{chess.WhiteQueenside, chess.Move{From: chess.E1, To: chess.C1}, chess.A1, chess.D1, chess.B1.Bit() | chess.C1.Bit() | chess.D1.Bit(), chess.E1.Bit() | chess.C1.Bit() | chess.D1.Bit()},
	{chess.BlackKingside, chess.Move{From: chess.E8, To: chess.G8}, chess.H8, chess.F8, chess.F8.Bit() | chess.G8.Bit(), chess.E8.Bit() | chess.F8.Bit() | chess.G8.Bit()},
	{chess.BlackQueenside, chess.Move{From: chess.E8, To: chess.C8}, chess.A8, chess.D8, chess.B8.Bit() | chess.C8.Bit() | chess.D8.Bit(), chess.E8.Bit() | chess.C8.Bit() | chess.D8.Bit()},
}

// castlingOf returns the castling m is on board b (its king on the king's
// square), or nil.
func castlingOf(b *chess.Board, m chess.Move) *castling {
	if b.PieceAt(m.From).Type() != chess.King {
		return nil
	}
	for i := range castlings {
		if castlings[i].king == m {
			return &castlings[i]
		}
	}
	return nil
}

// AppendTries appends the tries a side may make on its view v (its side to
// move): every move of its men that the men it sees allow, with no regard
// to check — sliders stop at the men it sees, pawns push onto squares it
// sees empty and try every diagonal (an invisible man may stand there),
// castling with the right held and the squares it sees between empty. The
// referee refuses any other try (ruling R1): a try is a question about the
// unseen men, not about what the mover can see.
func AppendTries(v *chess.Board, dst []chess.Move) []chess.Move {
	us := v.Turn()
	ours, occ := v.Pieces(us), v.Occupied()
	for bb := ours; bb != 0; {
		from := bb.PopFirst()
		var targets chess.Bitboard
		switch v.PieceAt(from).Type() {
		case chess.Pawn:
			dst = appendPawnTries(v, dst, from, us, occ)
			continue
		case chess.Knight:
			targets = chess.KnightAttacks(from)
		case chess.Bishop:
			targets = chess.BishopAttacks(from, occ)
		case chess.Rook:
			targets = chess.RookAttacks(from, occ)
		case chess.Queen:
			targets = chess.QueenAttacks(from, occ)
		case chess.King:
			targets = chess.KingAttacks(from)
			for i := range castlings {
				c := &castlings[i]
				if c.king.From == from && v.Castling()&c.right != 0 && occ&c.empty == 0 && ours.Has(c.rook) {
					dst = append(dst, c.king)
				}
			}
		}
		for t := targets &^ ours; t != 0; {
			dst = append(dst, chess.Move{From: from, To: t.PopFirst()})
		}
	}
	return dst
}

// appendPawnTries appends a pawn's pushes onto squares seen empty and its
// two diagonals (any square not its own side's), with the promotions.
func appendPawnTries(v *chess.Board, dst []chess.Move, from chess.Square, us chess.Color, occ chess.Bitboard) []chess.Move {
	dir, startRank := chess.Square(8), 1
	if us == chess.Black {
		dir, startRank = -8, 6
	}
	one := from + dir
	if !occ.Has(one) {
		dst = chess.AppendPawnMove(dst, from, one)
		if from.Rank() == startRank && !occ.Has(one+dir) {
			dst = chess.AppendPawnMove(dst, from, one+dir)
		}
	}
	for t := chess.PawnAttacks(us, from) &^ v.Pieces(us); t != 0; {
		dst = chess.AppendPawnMove(dst, from, t.PopFirst())
	}
	return dst
}

// IsTry reports whether m is one of AppendTries' tries on v.
func IsTry(v *chess.Board, m chess.Move) bool {
	var buf [256]chess.Move
	for _, t := range AppendTries(v, buf[:0]) {
		if t == m {
			return true
		}
	}
	return false
}

// invisibleSet returns the set of the placement's pieces on the squares bb.
func invisibleSet(inv Placement, bb chess.Bitboard) uint8 {
	var set uint8
	for i, s := range inv {
		if s != chess.NoSquare && bb.Has(s) {
			set |= 1 << i
		}
	}
	return set
}

// Classify is the referee's verdict on try m of the side to move on the true
// board b, whose opponent's invisible pieces stand at inv. m must be a try
// (IsTry on the mover's view). It decides on b alone, so that a belief can
// ask it of every placement it holds and keep those that agree.
func Classify(b *chess.Board, inv Placement, m chess.Move) Answer {
	us := b.Turn()
	them := us.Other()
	occ := b.Occupied()
	k := b.KingSquare(us)
	reject := func() Answer {
		if k != chess.NoSquare && b.Attacked(k, them) {
			return Answer{Outcome: Illegal, Reason: Blocked, Captured: -1}
		}
		return Answer{Outcome: Impossible, Captured: -1}
	}
	if c := castlingOf(b, m); c != nil {
		if occ&c.empty != 0 {
			return reject()
		}
		var attackers chess.Bitboard
		for s := c.safe; s != 0; {
			attackers |= chess.Attackers(b, s.PopFirst(), them)
		}
		if attackers != 0 {
			return Answer{Outcome: Illegal, Reason: Check, Checkers: invisibleSet(inv, attackers), Captured: -1}
		}
		return Answer{Outcome: Possible, Captured: -1}
	}
	p := b.PieceAt(m.From)
	switch p.Type() {
	case chess.Pawn:
		if m.From.File() == m.To.File() {
			if occ.Has(m.To) || (absDiff(m.From, m.To) == 16 && occ.Has((m.From+m.To)/2)) {
				return reject()
			}
		} else if !b.Pieces(them).Has(m.To) && !(m.To == b.EnPassant() && b.EnPassantTaken() != chess.NoSquare) {
			return reject()
		}
	case chess.Bishop, chess.Rook, chess.Queen:
		if chess.Between(m.From, m.To)&occ != 0 {
			return reject()
		}
	}
	after := *b
	after.Apply(m)
	if k2 := after.KingSquare(us); k2 != chess.NoSquare {
		if att := chess.Attackers(&after, k2, them); att != 0 {
			return Answer{Outcome: Illegal, Reason: Check, Checkers: invisibleSet(inv, att), Captured: -1}
		}
	}
	a := Answer{Outcome: Possible, Captured: -1}
	if id, ok := inv.Has(m.To); ok {
		a.Captured = int8(id)
	}
	return a
}

func absDiff(a, b chess.Square) chess.Square {
	if a > b {
		return a - b
	}
	return b - a
}

// Play plays the possible try m of the side to move and returns what its
// opponent is told. The invisible pieces move with the board: the mover's
// own if it moved one (or castled with one), the opponent's if captured.
func (p *Position) Play(m chess.Move) Seen {
	us := p.Board.Turn()
	them := us.Other()
	seen := Seen{Moved: -1, Capture: chess.NoSquare}
	c := castlingOf(&p.Board, m)
	moved, isInv := p.Inv[us].Has(m.From)
	captured := p.Board.Apply(m)
	if captured != chess.NoSquare {
		if id, ok := p.Inv[them].Has(captured); ok {
			p.Inv[them][id] = chess.NoSquare
		}
	}
	switch {
	case c != nil:
		if id, ok := p.Inv[us].Has(c.rook); ok {
			p.Inv[us][id] = c.dest
		}
		seen.Move = m
	case isInv:
		p.Inv[us][moved] = m.To
		seen.Moved = int8(moved)
		seen.Capture = captured
	default:
		seen.Move = m
	}
	seen.Checkers = checkersOf(&p.Board, p.Inv[us])
	return seen
}

// Forfeit passes the side to move's turn (an impossible try).
func (p *Position) Forfeit() Seen {
	p.Board.Apply(chess.Move{})
	return Seen{Forfeit: true, Moved: -1, Capture: chess.NoSquare}
}

// checkersOf is the set of the pieces at inv (of the side not to move) that
// give check to the side to move's king on b.
func checkersOf(b *chess.Board, inv Placement) uint8 {
	k := b.KingSquare(b.Turn())
	if k == chess.NoSquare {
		return 0
	}
	return invisibleSet(inv, chess.Attackers(b, k, b.Turn().Other()))
}
