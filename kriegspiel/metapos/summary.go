package metapos

import (
	"math/bits"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Summary is the probabilistic metaposition of approaches B and C of the
// MCTS paper, a summary of a Kriegspiel belief: our own men exactly (every board of a belief
// agrees on them), the opponent's as the probability of each kind of man on
// each square. It forgets how the opponent's men go together (which boards
// hold them), and in exchange it is small and cheap to move forward, which
// is what a tree search over several of our turns needs: a belief of boards
// cannot be carried through moves whose answers are only guessed.
type Summary struct {
	// Mine holds our men only; its turn is ours.
	Mine chess.Board
	Us   chess.Color
	// Theirs[s][t] is the probability that the opponent's man of type t
	// stands on s (index 0 unused). The sum over types is at most 1.
	Theirs [64][chess.King + 1]float32
	// Gain is material (centipawns, for us) that the probabilities do not
	// show: a capture takes a whole man where the square held a fraction of
	// one, and a move onto a square found empty leaves the opponent the
	// fraction of a man the summary had there (it stands elsewhere).
	Gain float64
}

// PieceValue is the material value of a man of each type in centipawns
// (the king 0: it is never taken in Kriegspiel, the rules mate it).
var PieceValue = [chess.King + 1]float64{0, 100, 300, 310, 500, 900, 0}

// Summarize returns the Summary of boards (each with us to move): the
// share of the boards with each opponent man on each square. boards must
// not be empty.
func Summarize(boards []chess.Board, us chess.Color) *Summary {
	m := &Summary{Us: us, Mine: ownMen(&boards[0], us)}
	w := 1 / float32(len(boards))
	for i := range boards {
		b := &boards[i]
		for bb := b.Pieces(us.Other()); bb != 0; {
			s := bb.PopFirst()
			m.Theirs[s][b.PieceAt(s).Type()] += w
		}
	}
	return m
}

// SummarizeMetaposition returns a Summary of the metaposition m (us to
// move), for a player whose belief of boards has lost the true board: the
// metaposition never does. The king is spread evenly over the squares it
// may stand on. The other men, m.Left of them, fill first the squares that
// certainly hold a man (less the king's share there), then spread what is
// left evenly over the squares that may hold one. On each square a man is
// a pawn with the share of pawns among the men left (PawnsAtMost of Left,
// at most), and the rest is shared evenly by the kinds of piece the
// square allows.
func SummarizeMetaposition(m *Metaposition) *Summary {
	out := &Summary{Us: m.Us, Mine: m.Mine}
	kings := m.Possible(chess.King)
	king := [64]float32{}
	if n := kings.Count(); n > 0 {
		for bb := kings; bb != 0; {
			king[bb.PopFirst()] = 1 / float32(n)
		}
	}
	const pieces = 1<<chess.Knight | 1<<chess.Bishop | 1<<chess.Rook | 1<<chess.Queen
	var certain, uncertain chess.Bitboard
	filled := 0.0
	for s := range chess.Square(64) {
		if m.Sq[s]&(pieces|KindOf(chess.Pawn)) == 0 {
			continue
		}
		if m.Sq[s].MayBeEmpty() {
			uncertain |= s.Bit()
		} else {
			certain |= s.Bit()
			filled += 1 - float64(king[s])
		}
	}
	spread := 0.0
	if n := uncertain.Count(); n > 0 {
		spread = max(float64(m.Left)-filled, 0) / float64(n)
	}
	pawnShare := 0.0
	if m.Left > 0 {
		pawnShare = min(float64(m.PawnsAtMost)/float64(m.Left), 1)
	}
	for s := range chess.Square(64) {
		k := m.Sq[s]
		out.Theirs[s][chess.King] = king[s]
		occ := 0.0
		switch {
		case certain.Has(s):
			occ = 1 - float64(king[s])
		case uncertain.Has(s):
			occ = min(spread, 1-float64(king[s]))
		default:
			continue
		}
		pawn := 0.0
		if k.Has(chess.Pawn) {
			pawn = pawnShare
			if k&pieces == 0 {
				pawn = 1
			}
		}
		out.Theirs[s][chess.Pawn] = float32(occ * pawn)
		if n := bits.OnesCount8(uint8(k & pieces)); n > 0 {
			each := float32(occ * (1 - pawn) / float64(n))
			for t := chess.Knight; t <= chess.Queen; t++ {
				if k.Has(t) {
					out.Theirs[s][t] = each
				}
			}
		}
	}
	return out
}

// ownMen returns b without the men of us's opponent.
func ownMen(b *chess.Board, us chess.Color) chess.Board {
	own := *b
	for bb := own.Pieces(us.Other()); bb != 0; {
		own.SetPiece(bb.PopFirst(), chess.NoPiece)
	}
	return own
}

// occupied is the probability that an opponent's man stands on s.
func (m *Summary) occupied(s chess.Square) float64 {
	var p float32
	for t := chess.Pawn; t <= chess.King; t++ {
		p += m.Theirs[s][t]
	}
	return min(float64(p), 1)
}

// clearPath is the probability that no opponent's man stands on any square
// of path, taking the squares as independent (the summary's one assumption).
func (m *Summary) clearPath(path chess.Bitboard) float64 {
	p := 1.0
	for path != 0 {
		p *= 1 - m.occupied(path.PopFirst())
	}
	return p
}

// attackedBy returns, for each type, the probability that at least one
// opponent's man of that type attacks s (our men on ownOcc block lines for
// certain, theirs with their probabilities). A king move passes our men
// without the king: a line through its square still reaches the square it
// goes to.
func (m *Summary) attackedBy(s chess.Square, ownOcc chess.Bitboard) (by [chess.King + 1]float64) {
	none := [chess.King + 1]float64{1, 1, 1, 1, 1, 1, 1}
	miss := func(from chess.Square, t chess.PieceType, reach float64) {
		if p := float64(m.Theirs[from][t]); p > 0 {
			none[t] *= 1 - p*reach
		}
	}
	for bb := chess.PawnAttacks(m.Us, s); bb != 0; {
		miss(bb.PopFirst(), chess.Pawn, 1)
	}
	for bb := chess.KnightAttacks(s); bb != 0; {
		miss(bb.PopFirst(), chess.Knight, 1)
	}
	for bb := chess.KingAttacks(s); bb != 0; {
		miss(bb.PopFirst(), chess.King, 1)
	}
	lines := chess.RookAttacks(s, ownOcc)
	diagonals := chess.BishopAttacks(s, ownOcc)
	for bb := (lines | diagonals) &^ ownOcc; bb != 0; {
		from := bb.PopFirst()
		reach := m.clearPath(chess.Between(from, s))
		if lines.Has(from) {
			miss(from, chess.Rook, reach)
		} else {
			miss(from, chess.Bishop, reach)
		}
		miss(from, chess.Queen, reach)
	}
	for t := chess.Pawn; t <= chess.King; t++ {
		by[t] = 1 - none[t]
	}
	return by
}

// Evaluate scores the Summary for us, in centipawns, with the opponent to
// move: the material, less what the opponent can expect to take at once
// (ExpectedLoss), plus the pawns' advance, and in an ending where the
// opponent has no more than a pawn, the mating pattern (its king to the
// edge, ours close).
func (m *Summary) Evaluate() float64 {
	us, them := m.Us, m.Us.Other()
	score := m.Gain
	for t := chess.Pawn; t < chess.King; t++ {
		score += PieceValue[t] * float64(m.Mine.PiecesOf(us, t).Count())
	}
	theirMaterial := 0.0
	for s := range chess.Square(64) {
		for t := chess.Pawn; t < chess.King; t++ {
			if p := m.Theirs[s][t]; p > 0 {
				theirMaterial += float64(p) * PieceValue[t]
				if t == chess.Pawn {
					score -= float64(p) * Advance(them, s)
				}
			}
		}
	}
	score -= theirMaterial
	for bb := m.Mine.PiecesOf(us, chess.Pawn); bb != 0; {
		score += Advance(us, bb.PopFirst())
	}
	score -= m.ExpectedLoss()
	if theirMaterial <= 150 {
		score += m.mating()
	} else {
		score += m.shape(theirMaterial)
	}
	return score
}

// ExpectedLoss is what the opponent, to move, can expect to take at once,
// in centipawns: approach C's quiescence, one capture deep. Each of our men
// loses its value times the chance it is attacked when undefended, or the
// difference to its cheapest attacker when defended; the most valuable
// expected loss counts in full and the others a little, since one move
// takes one man.
func (m *Summary) ExpectedLoss() float64 {
	us := m.Us
	worst, rest := 0.0, 0.0
	for bb := m.Mine.Pieces(us) &^ m.Mine.PiecesOf(us, chess.King); bb != 0; {
		s := bb.PopFirst()
		t := m.Mine.PieceAt(s).Type()
		by := m.attackedBy(s, m.Mine.Occupied())
		loss := 0.0
		if m.Mine.Attacked(s, us) {
			// Defended: the exchange loses the difference to the cheapest
			// attacker, if there is any (the king cannot take a defended man).
			left := 1.0
			for a := chess.Pawn; a < chess.King && left > 0; a++ {
				if by[a] > 0 {
					loss += left * by[a] * max(PieceValue[t]-PieceValue[a], 0)
					left *= 1 - by[a]
				}
			}
		} else {
			left := 1.0
			for a := chess.Pawn; a <= chess.King; a++ {
				left *= 1 - by[a]
			}
			loss = (1 - left) * PieceValue[t]
		}
		if loss > worst {
			worst, rest = loss, rest+worst
		} else {
			rest += loss
		}
	}
	return worst + rest/8
}

// centre is d4, e4, d5 and e5.
const centre chess.Bitboard = 1<<27 | 1<<28 | 1<<35 | 1<<36

// shape scores what a blind opponent's attacks punish, while it has more
// than a pawn: our king's lines (the squares a queen on the king's square
// would see past our men, the way to it for checks and mates nobody
// announces in advance), knights and bishops left at home while the
// opponent still has most of its men, and pawns in the centre.
func (m *Summary) shape(theirMaterial float64) float64 {
	us := m.Us
	occ := m.Mine.Occupied()
	v := 0.0
	if k := m.Mine.KingSquare(us); k.Valid() && theirMaterial > 1200 {
		v -= 6 * float64((chess.QueenAttacks(k, occ) &^ occ).Count())
	}
	if theirMaterial > 2500 {
		home := chess.Bitboard(1<<1 | 1<<2 | 1<<5 | 1<<6) // b1, c1, f1, g1
		if us == chess.Black {
			home <<= 56
		}
		minor := m.Mine.PiecesOf(us, chess.Knight) | m.Mine.PiecesOf(us, chess.Bishop)
		v -= 12 * float64((minor & home).Count())
	}
	v += 10 * float64((m.Mine.PiecesOf(us, chess.Pawn) & centre).Count())
	return v
}

// material is the opponent's expected material, its king left out.
func (m *Summary) Material() float64 {
	v := 0.0
	for s := range chess.Square(64) {
		for t := chess.Pawn; t < chess.King; t++ {
			v += float64(m.Theirs[s][t]) * PieceValue[t]
		}
	}
	return v
}

// Advance is what a pawn of colour c on s is worth beyond its material:
// more the nearer it is to promotion.
func Advance(c chess.Color, s chess.Square) float64 {
	r := s.Rank()
	if c == chess.Black {
		r = 7 - r
	}
	return [8]float64{0, 0, 0, 4, 12, 30, 60, 0}[r]
}

// mating scores an ending against a lone king (and perhaps a pawn), the
// pattern every mate with a heavy piece ends in: the opponent's king, by
// its probabilities, far from the centre, with few squares to go to that
// our men do not attack, and our king near it.
func (m *Summary) mating() float64 {
	ours := m.Mine.KingSquare(m.Us)
	occ := m.Mine.Pieces(m.Us)
	v := 0.0
	for s := range chess.Square(64) {
		p := float64(m.Theirs[s][chess.King])
		if p == 0 {
			continue
		}
		free := 0
		for f := chess.KingAttacks(s) &^ occ; f != 0; {
			if !m.Mine.Attacked(f.PopFirst(), m.Us) {
				free++
			}
		}
		v += p * (12*CentreDistance(s) - 6*Distance(s, ours) - 8*float64(free))
	}
	return v
}

// CentreDistance is how many king steps s is from the four centre squares.
func CentreDistance(s chess.Square) float64 {
	f, r := s.File(), s.Rank()
	return float64(max(3-f, f-4, 0) + max(3-r, r-4, 0))
}

// Distance is the king distance between a and b (0 when b is not a square).
func Distance(a, b chess.Square) float64 {
	if !b.Valid() {
		return 0
	}
	return float64(max(abs(a.File()-b.File()), abs(a.Rank()-b.Rank())))
}

// AnswerKind is what the referee says to a try, as the search tells them
// apart: illegal, made without a capture, or a capture of a man of a type.
type AnswerKind uint8

const (
	AnswerIllegal AnswerKind = iota
	AnswerSilent
	AnswerCapture
	AnswerMate // the move mates: the game is won
	AnswerDraw // the move ends the game drawn (stalemate, no material)
)

// Guess is one of the referee's answers to a try, with its probability
// and the Summary it leaves (the opponent to move) when the move is made.
type Guess struct {
	Kind  AnswerKind
	P     float64
	After *Summary
}

// guesses returns the answers to our try mv on the Summary alone,
// the squares taken as independent: a line move is legal when no man of
// theirs stands between (a pawn push also needs the square itself empty, a
// pawn capture a man there, a king move a square no man of theirs
// attacks); a legal move onto a square that may hold a man of theirs is a
// capture of that man with its probability. Pins and checks on our king
// are not seen here; the boards see them at the root.
func (m *Summary) Guesses(mv chess.Move) []Guess {
	piece := m.Mine.PieceAt(mv.From)
	t := piece.Type()
	to := mv.To
	legal := 1.0
	switch t {
	case chess.Knight:
	case chess.King:
		occ := m.Mine.Occupied() &^ mv.From.Bit()
		crossed := to.Bit()
		if d := int(to) - int(mv.From); d == 2 || d == -2 { // castling: the squares between king and rook empty, the king's not attacked
			legal = m.clearPath(castlePath(mv))
			crossed |= mv.From.Bit() | chess.Between(mv.From, to)
		}
		for crossed != 0 {
			by := m.attackedBy(crossed.PopFirst(), occ)
			for a := chess.Pawn; a <= chess.King; a++ {
				legal *= 1 - by[a]
			}
		}
	default:
		legal = m.clearPath(chess.Between(mv.From, to))
	}
	// A man of ours cannot move onto the opponent's king (it would have
	// been in check on the opponent's own move): the summary's share of
	// the king there counts as a refusal, and the men are the rest.
	king := float64(m.Theirs[to][chess.King])
	occ := m.occupied(to) - king
	pawnDiagonal := t == chess.Pawn && mv.From.File() != to.File()
	var out []Guess
	switch {
	case pawnDiagonal:
		legal *= occ
	case t == chess.Pawn:
		legal *= 1 - occ - king
	default:
		legal *= 1 - king
	}
	if legal < 1 {
		out = append(out, Guess{Kind: AnswerIllegal, P: 1 - legal})
	}
	if legal <= 0 {
		return out
	}
	after := *m
	after.Mine.Apply(mv)
	captured := 0.0
	switch {
	case pawnDiagonal:
		captured = 1 // the man is there when the capture is legal
	case t != chess.Pawn:
		captured = occ / (1 - king)
	}
	if king > 0 {
		after.moveKingMass(to, king)
	}
	after.Theirs[to] = [chess.King + 1]float32{}
	var there float64 // the material the summary has on to
	for c := chess.Pawn; c < chess.King; c++ {
		there += float64(m.Theirs[to][c]) * PieceValue[c]
	}
	if captured > 0 {
		cap := after
		cap.Gain += there/occ - there // what stood there, given that something did
		out = append(out, Guess{Kind: AnswerCapture, P: legal * captured, After: &cap})
	}
	if captured < 1 {
		silent := after
		silent.Gain -= there // nothing stood there: the opponent keeps that material elsewhere
		out = append(out, Guess{Kind: AnswerSilent, P: legal * (1 - captured), After: &silent})
	}
	return out
}

// moveKingMass takes the king's share p off s, where it cannot be, and
// spreads it over its other squares in proportion.
func (m *Summary) moveKingMass(s chess.Square, p float64) {
	m.Theirs[s][chess.King] = 0
	if p >= 1 {
		return
	}
	scale := float32(1 / (1 - p))
	for q := range chess.Square(64) {
		m.Theirs[q][chess.King] *= scale
	}
}

// castlePath returns the squares that must be empty for the castling mv:
// those between the king and its rook.
func castlePath(mv chess.Move) chess.Bitboard {
	rook := chess.Square(int(mv.From) + 3)
	if mv.To < mv.From {
		rook = chess.Square(int(mv.From) - 4)
	}
	return chess.Between(mv.From, rook)
}

// opponentMoves returns the Summary after the opponent's unseen
// move (m has the opponent to move; the result has us to move): each of
// its men moves with the probability 1/n, n the expected number of its men,
// spread evenly over the squares it could go to on a board that holds our
// men alone (captures of ours would have been heard, so none is assumed).
// This is the pseudo-move of the Summary papers.
func (m *Summary) OpponentMoves() *Summary {
	// Gain goes on: the material a capture won, or that a square found
	// empty left the opponent elsewhere, stays the same after its move.
	next := &Summary{Us: m.Us, Mine: m.Mine, Gain: m.Gain}
	next.Mine.Apply(chess.Move{}) // our turn again
	them := m.Us.Other()
	ownOcc := m.Mine.Occupied()
	n := 0.0
	for s := range chess.Square(64) {
		n += m.occupied(s)
	}
	move := 1 / max(n, 1)
	var attacked chess.Bitboard // the squares our men attack
	for q := range chess.Square(64) {
		if m.Mine.Attacked(q, m.Us) {
			attacked |= q.Bit()
		}
	}
	for s := range chess.Square(64) {
		for t := chess.Pawn; t <= chess.King; t++ {
			p := m.Theirs[s][t]
			if p == 0 {
				continue
			}
			targets := summaryReach(them, t, s, ownOcc)
			if t == chess.King {
				targets &^= attacked // the king does not step into check
			}
			if targets == 0 {
				next.Theirs[s][t] += p
				continue
			}
			moved := p * float32(move)
			next.Theirs[s][t] += p - moved
			share := moved / float32(targets.Count())
			for targets != 0 {
				d := targets.PopFirst()
				dt := t
				if t == chess.Pawn && (d.Rank() == 0 || d.Rank() == 7) {
					dt = chess.Queen
				}
				next.Theirs[d][dt] += share
			}
		}
	}
	// Where men pile up past certainty, scale the square back to 1.
	for s := range chess.Square(64) {
		if o := next.occupied(s); o >= 1 {
			var sum float32
			for t := chess.Pawn; t <= chess.King; t++ {
				sum += next.Theirs[s][t]
			}
			for t := chess.Pawn; t <= chess.King; t++ {
				next.Theirs[s][t] /= sum
			}
		}
	}
	return next
}

// reach returns the squares a man of colour c and type t on s may move to
// without a capture, with occ (our men) in the way: pushes for a pawn.
func summaryReach(c chess.Color, t chess.PieceType, s chess.Square, occ chess.Bitboard) chess.Bitboard {
	var to chess.Bitboard
	switch t {
	case chess.Pawn:
		step, start := 8, 1
		if c == chess.Black {
			step, start = -8, 6
		}
		one := chess.Square(int(s) + step)
		if one.Valid() && !occ.Has(one) {
			to |= one.Bit()
			two := chess.Square(int(one) + step)
			if s.Rank() == start && !occ.Has(two) {
				to |= two.Bit()
			}
		}
		return to
	case chess.Knight:
		to = chess.KnightAttacks(s)
	case chess.Bishop:
		to = chess.BishopAttacks(s, occ)
	case chess.Rook:
		to = chess.RookAttacks(s, occ)
	case chess.Queen:
		to = chess.QueenAttacks(s, occ)
	case chess.King:
		to = chess.KingAttacks(s)
	}
	return to &^ occ
}
