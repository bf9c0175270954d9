// Package metapos holds Kriegspiel's metapositions, the one place both of
// the papers' programs keep what a player knows of the opponent's men.
//
// Metaposition is Darkboard's (Ciancarini and Favini, "Representing
// Kriegspiel states with metapositions", IJCAI 2007): our men exactly, and
// on each square a set of pseudopieces, the kinds of the opponent's men that
// may stand there (and whether it may be empty), with the age of what we
// know of the square and counters of the opponent's men. It is a superset of
// the information set: a pseudopiece absent from a square means that no
// board the player thinks possible has that man there. Its updates, Own
// (pseudo) and Opponent (meta), keep that so (the tests follow every
// committed record); the simulated referee (Simulate, Metamove) is the
// search's guess of what the next answers will be.
//
// Summary (summary.go) is the probabilistic metaposition of the MCTS
// paper's approaches B and C: the share of a belief's boards with each man
// on each square.
package metapos

import (
	"errors"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Kinds is a set of pseudopieces on one square: bit t for a man of type t
// (chess.Pawn … chess.King), bit 0 for "the square may be empty". A square
// that holds one of our men has the empty set: no man of the opponent's is
// there, and it is not empty.
type Kinds uint8

// Empty is the pseudopiece "the square may be empty".
const Empty Kinds = 1

// KindOf returns the pseudopiece of a man of type t.
func KindOf(t chess.PieceType) Kinds { return 1 << t }

// Men is every pseudopiece but Empty.
const Men Kinds = 0x7e

// Has reports whether a man of type t may stand on the square.
func (k Kinds) Has(t chess.PieceType) bool { return k&KindOf(t) != 0 }

// MayBeEmpty reports whether the square may be empty.
func (k Kinds) MayBeEmpty() bool { return k&Empty != 0 }

// promotions are the kinds a pawn may become.
const promotions = 1<<chess.Knight | 1<<chess.Bishop | 1<<chess.Rook | 1<<chess.Queen

// Metaposition is Darkboard's metaposition (see the package comment). It is
// a value: copying it copies the whole state, which is what the search does
// at each node (about 250 bytes).
type Metaposition struct {
	// Us is our colour; Mine holds our men only, with the side to move.
	Us   chess.Color
	Mine chess.Board
	// Sq holds each square's pseudopieces; Age how many of the
	// opponent's moves ago we last learned something of it (255 at most).
	Sq  [64]Kinds
	Age [64]uint8
	// Left is how many of the opponent's men other than its king are left
	// (exact: every capture is announced); PawnsAtMost bounds its pawns
	// (captures of pawns are announced under wild16, promotions are not).
	Left, PawnsAtMost int
	// Lost counts our men the opponent has taken, by type (index 0 unused).
	Lost [chess.King + 1]int
	// castle holds the opponent's castling rights still possible: a right
	// goes once its king or rook is certainly not on its square.
	castle chess.Castling
	// checked is whether the opponent's last move checked us: pawn
	// captures may then be refused for the check, and "no tries" proves
	// nothing.
	inCheck bool
	// double is the square of our pawn that just made a double push (an en
	// passant capture of it is possible on the opponent's move), or NoSquare.
	double chess.Square
}

// ErrInconsistent is Opponent's error when no man the metaposition allows
// could have made the announced capture: the answers are not this game's.
var ErrInconsistent = errors.New("metapos: no pseudopiece could have made the capture")

// New returns the metaposition of the player of colour us at the start of a
// game from start (both players know the starting position).
func New(us chess.Color, start chess.Board) Metaposition {
	m := Metaposition{Us: us, Mine: start, double: chess.NoSquare}
	them := us.Other()
	for s := range chess.Square(64) {
		p := start.PieceAt(s)
		switch {
		case p == chess.NoPiece:
			m.Sq[s] = Empty
		case p.Color() == them:
			m.Sq[s] = KindOf(p.Type())
			m.Mine.SetPiece(s, chess.NoPiece)
			if p.Type() != chess.King {
				m.Left++
			}
			if p.Type() == chess.Pawn {
				m.PawnsAtMost++
			}
		}
	}
	rights := chess.WhiteKingside | chess.WhiteQueenside
	if them == chess.Black {
		rights = chess.BlackKingside | chess.BlackQueenside
	}
	m.castle = start.Castling() & rights
	m.prune()
	return m
}

// Them is the opponent's colour.
func (m *Metaposition) Them() chess.Color { return m.Us.Other() }

// Possible returns the squares where a man of type t may stand.
func (m *Metaposition) Possible(t chess.PieceType) chess.Bitboard {
	var b chess.Bitboard
	k := KindOf(t)
	for s := range chess.Square(64) {
		if m.Sq[s]&k != 0 {
			b |= s.Bit()
		}
	}
	return b
}

// Certain returns the squares that certainly hold a man of the opponent's
// (they may not be empty, and hold none of ours).
func (m *Metaposition) Certain() chess.Bitboard {
	var b chess.Bitboard
	for s := range chess.Square(64) {
		if m.Sq[s] != 0 && !m.Sq[s].MayBeEmpty() {
			b |= s.Bit()
		}
	}
	return b
}

// emptyNow returns the squares certainly empty.
func (m *Metaposition) emptyNow() chess.Bitboard {
	var b chess.Bitboard
	for s := range chess.Square(64) {
		if m.Sq[s] == Empty {
			b |= s.Bit()
		}
	}
	return b
}

// mayBeEmpty returns the squares that may be empty (ours are not).
func (m *Metaposition) mayBeEmpty() chess.Bitboard {
	var b chess.Bitboard
	for s := range chess.Square(64) {
		if m.Sq[s]&Empty != 0 {
			b |= s.Bit()
		}
	}
	return b
}

// learn sets what the square now certainly holds, and that it was seen now.
func (m *Metaposition) learn(s chess.Square, k Kinds) {
	m.Sq[s] = k
	m.Age[s] = 0
}

// Own is the pseudo update: it takes the referee's answer a to our question
// q. An illegal try is not used: a pin by an unseen man or a check can
// refuse any move, so it proves nothing for certain (the search avoids
// asking it again through the referee's list). A move made clears the
// squares it crossed, takes the captured man off the counters, and reads the
// announcements: a check puts the opponent's king on a square our men check
// from that direction, no check takes it off the squares we certainly
// attack, and no pawn tries for the opponent take its pawns off the squares
// that would attack our men.
func (m *Metaposition) Own(q kriegspiel.Question, a kriegspiel.Answer) {
	if q.AskAny {
		if a.Verdict == kriegspiel.NoAny && !m.inCheck {
			m.noPawnTries()
		}
		return
	}
	if !a.Verdict.Done() {
		return
	}
	mv := q.Move
	piece := m.Mine.PieceAt(mv.From)
	for path := crossed(piece.Type(), mv); path != 0; {
		m.learn(path.PopFirst(), Empty)
	}
	if a.Verdict == kriegspiel.Captured {
		m.Left = max(m.Left-1, 0)
		if a.Captured == kriegspiel.CapturedPawn {
			m.PawnsAtMost = max(m.PawnsAtMost-1, 0)
		}
		if a.Capture.Valid() && a.Capture != mv.To { // en passant
			m.learn(a.Capture, Empty)
		}
	}
	m.double = chess.NoSquare
	if piece.Type() == chess.Pawn && abs(int(mv.To)-int(mv.From)) == 16 {
		m.double = mv.To
	}
	m.Mine.Apply(mv)
	m.learn(mv.To, 0)
	m.learn(mv.From, Empty)
	if d := int(mv.To) - int(mv.From); piece.Type() == chess.King && (d == 2 || d == -2) {
		m.learn(mv.From+chess.Square(d/2), 0) // the rook's new square
	}
	m.kingApart()
	if a.End == kriegspiel.NotOver {
		if a.Checks[0] != kriegspiel.NoCheck {
			m.checked(a.Checks)
		} else {
			m.unchecked()
			if a.PawnTries == 0 {
				m.theirPawnsCannotTake()
			}
		}
	}
	m.prune()
}

// crossed returns the squares a move of a man of type t crossed, which
// were empty since the move was made: between its squares for a slider or
// a pawn's double push, and for castling the squares between king and rook.
func crossed(t chess.PieceType, mv chess.Move) chess.Bitboard {
	switch t {
	case chess.Bishop, chess.Rook, chess.Queen, chess.Pawn:
		return chess.Between(mv.From, mv.To)
	case chess.King:
		if d := int(mv.To) - int(mv.From); d == 2 || d == -2 {
			rook := mv.From + 3
			if d < 0 {
				rook = mv.From - 4
			}
			return chess.Between(mv.From, rook)
		}
	}
	return 0
}

// kingApart takes the opponent's king off the squares next to ours: two
// kings never touch.
func (m *Metaposition) kingApart() {
	if k := m.Mine.KingSquare(m.Us); k.Valid() {
		for bb := chess.KingAttacks(k); bb != 0; {
			m.Sq[bb.PopFirst()] &^= KindOf(chess.King)
		}
	}
}

// attacks returns the squares our men attack, with blockers on occ.
func (m *Metaposition) attacks(occ chess.Bitboard) chess.Bitboard {
	var at chess.Bitboard
	for bb := m.Mine.Pieces(m.Us); bb != 0; {
		s := bb.PopFirst()
		at |= chess.AttacksFrom(m.Mine.PieceAt(s), s, occ)
	}
	return at
}

// unchecked takes the opponent's king off every square our men certainly
// attack (through squares certainly empty): our move gave no check.
func (m *Metaposition) unchecked() {
	for bb := m.attacks(^m.emptyNow()); bb != 0; {
		m.Sq[bb.PopFirst()] &^= KindOf(chess.King)
	}
}

// checked keeps the opponent's king on the squares one of our men may
// check it on from each announced direction (through squares that may be
// empty). Should none be left (the announcement is not this game's), the
// king's squares are kept.
func (m *Metaposition) checked(checks [2]kriegspiel.Check) {
	kings := m.Possible(chess.King)
	keep := kings
	occ := ^m.mayBeEmpty()
	for _, c := range checks {
		if c == kriegspiel.NoCheck {
			continue
		}
		var from chess.Bitboard
		for bb := m.Mine.Pieces(m.Us); bb != 0; {
			s := bb.PopFirst()
			p := m.Mine.PieceAt(s)
			var at chess.Bitboard
			switch c {
			case kriegspiel.CheckRank, kriegspiel.CheckFile:
				if p.Type() == chess.Rook || p.Type() == chess.Queen {
					at = chess.RookAttacks(s, occ)
					if c == kriegspiel.CheckRank {
						at &= rankOf(s)
					} else {
						at &= fileOf(s)
					}
				}
			case kriegspiel.CheckLongDiagonal, kriegspiel.CheckShortDiagonal:
				switch p.Type() {
				case chess.Bishop, chess.Queen:
					at = chess.BishopAttacks(s, occ)
				case chess.Pawn:
					at = chess.PawnAttacks(m.Us, s)
				}
			case kriegspiel.CheckKnight:
				if p.Type() == chess.Knight {
					at = chess.KnightAttacks(s)
				}
			}
			from |= at
		}
		keep &= from
	}
	if keep == 0 {
		return
	}
	for bb := kings &^ keep; bb != 0; {
		m.Sq[bb.PopFirst()] &^= KindOf(chess.King)
	}
	for bb := keep; bb != 0; {
		m.Age[bb.PopFirst()] = 0
	}
}

func rankOf(s chess.Square) chess.Bitboard { return chess.Bitboard(0xff) << (8 * uint(s.Rank())) }
func fileOf(s chess.Square) chess.Bitboard {
	return chess.Bitboard(0x0101010101010101) << uint(s.File())
}

// theirPawnsCannotTake reads "no pawn tries" for the opponent after our move
// (it is not in check): no pawn of theirs attacks one of our men, unless
// the pawn is pinned, which takes one of our line men attacking its square.
func (m *Metaposition) theirPawnsCannotTake() {
	own := m.Mine.Occupied()
	var lines chess.Bitboard
	for bb := m.Mine.PiecesOf(m.Us, chess.Bishop) | m.Mine.PiecesOf(m.Us, chess.Rook) | m.Mine.PiecesOf(m.Us, chess.Queen); bb != 0; {
		s := bb.PopFirst()
		lines |= chess.AttacksFrom(m.Mine.PieceAt(s), s, own)
	}
	for bb := m.Mine.Pieces(m.Us); bb != 0; {
		s := bb.PopFirst()
		for from := chess.PawnAttacks(m.Us, s) &^ lines; from != 0; {
			m.Sq[from.PopFirst()] &^= KindOf(chess.Pawn)
		}
	}
}

// noPawnTries reads "no pawn tries" for us (not in check): no man of theirs
// stands where one of our pawns could take it, unless the pawn is pinned,
// which takes it on a line from our king.
func (m *Metaposition) noPawnTries() {
	k := m.Mine.KingSquare(m.Us)
	var lines chess.Bitboard
	if k.Valid() {
		lines = chess.QueenAttacks(k, m.Mine.Occupied())
	}
	for bb := m.Mine.PiecesOf(m.Us, chess.Pawn) &^ lines; bb != 0; {
		s := bb.PopFirst()
		for to := chess.PawnAttacks(m.Us, s); to != 0; {
			t := to.PopFirst()
			if m.Sq[t] != 0 {
				m.learn(t, Empty)
			}
		}
	}
}

// prune applies the counters: with no men left but the king, every other
// pseudopiece goes; with no pawns, the pawns go. A square that may hold
// nothing else is empty, and one left with nothing at all (impossible in
// this game) gets every kind back, so that the metaposition stays a
// superset.
func (m *Metaposition) prune() {
	var drop Kinds
	if m.Left == 0 {
		drop = Men &^ KindOf(chess.King)
	}
	if m.PawnsAtMost == 0 {
		drop |= KindOf(chess.Pawn)
	}
	ours := m.Mine.Pieces(m.Us)
	for s := range chess.Square(64) {
		if ours.Has(s) {
			m.Sq[s] = 0
			continue
		}
		if k := m.Sq[s] &^ drop; k != 0 {
			m.Sq[s] = k
		} else {
			m.Sq[s] = Empty | (Men &^ drop)
		}
	}
	m.keepCastling()
}

// keepCastling drops the opponent's castling rights whose king or rook is
// certainly not on its square: it moved, so the right is gone for good.
func (m *Metaposition) keepCastling() {
	back := 0
	if m.Them() == chess.Black {
		back = 56
	}
	king := chess.Square(back + 4)
	for i, c := range castlingOf(m.Them()) {
		rook := chess.Square(back + 7)
		if i == 1 {
			rook = chess.Square(back)
		}
		if !m.Sq[king].Has(chess.King) || !m.Sq[rook].Has(chess.Rook) {
			m.castle &^= c
		}
	}
}

// castlingOf returns the kingside and queenside rights of c.
func castlingOf(c chess.Color) [2]chess.Castling {
	if c == chess.White {
		return [2]chess.Castling{chess.WhiteKingside, chess.WhiteQueenside}
	}
	return [2]chess.Castling{chess.BlackKingside, chess.BlackQueenside}
}

// Opponent is the meta update: it takes what we heard of the opponent's
// turn (the last answer is its move's). A capture of one of our men puts
// the capturer on its square, from one of the squares it could have come
// from, and nothing else moved; otherwise every pseudopiece spawns a copy
// on each square it could have moved to without a capture. Then our pawn
// tries are read as for the opponent's, the counters applied, and every
// square ages by one move.
func (m *Metaposition) Opponent(heard []kriegspiel.Heard) error {
	var mv *kriegspiel.Answer
	for i := range heard {
		if heard[i].Answer.Verdict.Done() {
			mv = &heard[i].Answer
		}
	}
	if mv == nil {
		return nil // no move made (the game ended before it): nothing changed
	}
	for s := range m.Age {
		m.Age[s] = min(m.Age[s], 254) + 1
	}
	m.Mine.Apply(chess.Move{}) // our turn
	var err error
	if mv.Verdict == kriegspiel.Captured && mv.Capture.Valid() && m.Mine.Pieces(m.Us).Has(mv.Capture) {
		err = m.captured(mv.Capture)
	} else {
		m.spawn()
	}
	m.double = chess.NoSquare
	m.inCheck = mv.Checks[0] != kriegspiel.NoCheck
	m.kingApart()
	if mv.End == kriegspiel.NotOver && mv.Checks[0] == kriegspiel.NoCheck && mv.PawnTries == 0 {
		m.noPawnTries()
	}
	m.prune()
	return err
}

// captured takes the opponent's capture of our man on c.
func (m *Metaposition) captured(c chess.Square) error {
	victim := m.Mine.PieceAt(c)
	m.Lost[victim.Type()]++
	m.Mine.SetPiece(c, chess.NoPiece)
	them := m.Them()
	mayEmpty := m.mayBeEmpty()
	occ := ^mayEmpty &^ c.Bit()
	var onC Kinds
	from := m.Sq
	for s := range chess.Square(64) {
		k := m.Sq[s] & Men
		for t := chess.Pawn; t <= chess.King; t++ {
			if !k.Has(t) || !chess.AttacksFrom(chess.MakePiece(them, t), s, occ).Has(c) {
				continue
			}
			from[s] |= Empty
			if t == chess.Pawn && (c.Rank() == 0 || c.Rank() == 7) {
				onC |= promotions
			} else {
				onC |= KindOf(t)
			}
		}
	}
	if victim.Type() == chess.Pawn && c == m.double {
		// En passant: a pawn beside ours takes it from behind.
		behind := c - 8
		if m.Us == chess.Black {
			behind = c + 8
		}
		for _, df := range []int{-1, 1} {
			f := c.File() + df
			if f < 0 || f > 7 {
				continue
			}
			s := chess.MakeSquare(f, c.Rank())
			if m.Sq[s].Has(chess.Pawn) {
				from[s] |= Empty
				from[behind] |= KindOf(chess.Pawn)
				onC |= Empty
			}
		}
	}
	m.Sq = from
	if onC == 0 {
		m.Sq[c] = Empty | Men
		return ErrInconsistent
	}
	m.learn(c, onC)
	return nil
}

// spawn moves every pseudopiece, as the opponent's move without a capture
// could have: each kind on each square copies itself to every square its
// man could reach (through squares that may be empty, onto one that may be
// empty), and the square it left may now be empty. The king does not step
// where our men certainly attack it; castling is spawned while its right
// may be there.
func (m *Metaposition) spawn() {
	them := m.Them()
	next := m.Sq
	mayEmpty := m.mayBeEmpty()
	occ := ^mayEmpty
	guarded := m.attacks(^m.emptyNow())
	for s := range chess.Square(64) {
		k := m.Sq[s] & Men
		if k == 0 {
			continue
		}
		for t := chess.Pawn; t <= chess.King; t++ {
			if !k.Has(t) {
				continue
			}
			to := reach(them, t, s, occ, mayEmpty)
			if t == chess.King {
				to &^= guarded
			}
			if to == 0 {
				continue
			}
			next[s] |= Empty
			for to != 0 {
				d := to.PopFirst()
				if t == chess.Pawn && (d.Rank() == 0 || d.Rank() == 7) {
					next[d] |= promotions
				} else {
					next[d] |= KindOf(t)
				}
			}
		}
	}
	m.spawnCastling(&next, mayEmpty)
	m.Sq = next
}

// spawnCastling adds the opponent's castling to next: king and rook on
// their new squares when the squares between may be empty.
func (m *Metaposition) spawnCastling(next *[64]Kinds, mayEmpty chess.Bitboard) {
	back := chess.Square(0)
	if m.Them() == chess.Black {
		back = 56
	}
	king := back + 4
	for i, c := range castlingOf(m.Them()) {
		if m.castle&c == 0 {
			continue
		}
		rook, kTo, rTo := back+7, back+6, back+5
		if i == 1 {
			rook, kTo, rTo = back, back+2, back+3
		}
		if chess.Between(king, rook)&^mayEmpty != 0 {
			continue
		}
		next[kTo] |= KindOf(chess.King)
		next[rTo] |= KindOf(chess.Rook)
		next[king] |= Empty
		next[rook] |= Empty
	}
}

// reach returns the squares a man of colour c and type t on s may move to
// without a capture: through squares not on occ, onto squares in free.
func reach(c chess.Color, t chess.PieceType, s chess.Square, occ, free chess.Bitboard) chess.Bitboard {
	if t != chess.Pawn {
		return chess.AttacksFrom(chess.MakePiece(c, t), s, occ) & free
	}
	step, start := 8, 1
	if c == chess.Black {
		step, start = -8, 6
	}
	var to chess.Bitboard
	one := chess.Square(int(s) + step)
	if one.Valid() && free.Has(one) {
		to |= one.Bit()
		if two := chess.Square(int(one) + step); s.Rank() == start && free.Has(two) {
			to |= two.Bit()
		}
	}
	return to
}

// Holds reports whether the true board b (with us to move or not) lies
// inside the metaposition: our men are Mine's, and every other square has
// the pseudopiece of what stands on it (Empty when nothing does). The
// first square that does not is returned with false.
func (m *Metaposition) Holds(b *chess.Board) (chess.Square, bool) {
	for s := range chess.Square(64) {
		p := b.PieceAt(s)
		switch {
		case p != chess.NoPiece && p.Color() == m.Us:
			if m.Mine.PieceAt(s) != p {
				return s, false
			}
		case m.Mine.PieceAt(s) != chess.NoPiece:
			return s, false
		case p == chess.NoPiece:
			if !m.Sq[s].MayBeEmpty() {
				return s, false
			}
		case !m.Sq[s].Has(p.Type()):
			return s, false
		}
	}
	return chess.NoSquare, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Simulate is the simulated referee's answer to our move mv, as Darkboard's
// search assumes it (one answer, never a branching over answers): the move
// is legal; it captures when it is a pawn's diagonal (the search asks those
// only when the referee announced pawn tries) or when its square cannot be
// empty; a capture takes a pawn unless no pawn can stand there. It returns
// the metaposition after the move, the opponent to move, and whether it
// captured.
func (m *Metaposition) Simulate(mv chess.Move) (Metaposition, bool) {
	n := *m
	piece := n.Mine.PieceAt(mv.From)
	for path := crossed(piece.Type(), mv); path != 0; {
		n.learn(path.PopFirst(), Empty)
	}
	target := n.Sq[mv.To]
	capture := target&Men != 0 && (!target.MayBeEmpty() || (piece.Type() == chess.Pawn && mv.From.File() != mv.To.File()))
	if capture {
		n.Left = max(n.Left-1, 0)
		if target.Has(chess.Pawn) {
			n.PawnsAtMost = max(n.PawnsAtMost-1, 0)
		}
	}
	n.Mine.Apply(mv)
	n.learn(mv.To, 0)
	n.learn(mv.From, Empty)
	if d := int(mv.To) - int(mv.From); piece.Type() == chess.King && (d == 2 || d == -2) {
		n.learn(mv.From+chess.Square(d/2), 0)
	}
	return n, capture
}

// Metamove is the simulated opponent's move: it never captures, never
// checks and never gives us pawn tries, so every pseudopiece spawns as in
// Opponent without a capture, and every square ages.
func (m *Metaposition) Metamove() Metaposition {
	n := *m
	for s := range n.Age {
		n.Age[s] = min(n.Age[s], 254) + 1
	}
	n.Mine.Apply(chess.Move{})
	n.spawn()
	n.double = chess.NoSquare
	n.kingApart()
	return n
}
