package kriegspiel

import (
	"errors"
	"fmt"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
)

// ErrGameOver is returned by Game.Ask once the game has ended.
var ErrGameOver = errors.New("kriegspiel: the game is over")

// Event is one question asked and its answer, as the referee logs it.
type Event struct {
	// Mover is the player who asked.
	Mover    chess.Color
	Question Question
	Answer   Answer
}

// Game is the referee's side of one Kriegspiel game: it holds the true board,
// answers the questions of the player to move, and keeps the log of every
// question and answer. It is not safe for concurrent use.
type Game struct {
	rules Ruleset
	board chess.Board
	start string // the starting FEN
	end   Ending
	// tries is the number of legal pawn captures of the player to move.
	tries int
	// The state of the current turn: the moves refused as illegal, whether
	// "any?" was asked, and whether its answer was "yes" (pawn captures
	// must be tried) or "no" (pawn captures may not be tried).
	refused  []chess.Move
	anyAsked bool
	anyYes   bool
	seen     map[uint64]int // positions seen, for the repetition rule
	log      []Event
	moves    []chess.Move
}

// NewGame starts a game from the standard position.
func NewGame(rules Ruleset) *Game {
	g, err := NewGameFromFEN(rules, chess.StartFEN)
	if err != nil {
		panic("kriegspiel: the start position is refused: " + err.Error())
	}
	return g
}

// NewGameFromFEN starts a game from a position. The position must be one
// chess can reach in spirit: one a game can reach (chess's Board.Validate:
// one king a side, no pawn on a back rank, no more men than a side can have)
// and the player not to move not in check. A position that is already
// mate, stalemate or a dead draw starts over (see Ending).
func NewGameFromFEN(rules Ruleset, fen string) (*Game, error) {
	b, err := chess.ParsePosition(fen)
	if err != nil {
		return nil, fmt.Errorf("kriegspiel: %w", err)
	}
	them := b.Turn().Other()
	if chess.Attackers(&b, b.KingSquare(them), b.Turn()) != 0 {
		return nil, fmt.Errorf("kriegspiel: position %q: %s, not to move, is in check", fen, them)
	}
	g := &Game{rules: rules, board: b, start: b.FEN()}
	if rules.Repetitions > 0 {
		g.seen = map[uint64]int{positionKey(&b): 1}
	}
	switch {
	case chess.IsStalemate(&b):
		g.end = DrawStalemate
	case InsufficientMaterial(&b):
		g.end = DrawInsufficient
	case chess.IsCheckmate(&b):
		g.end = CheckmateWhiteWins
		if b.Turn() == chess.White {
			g.end = CheckmateBlackWins
		}
	}
	g.tries = countPawnCaptures(&b)
	return g, nil
}

// Rules returns the game's ruleset.
func (g *Game) Rules() Ruleset { return g.rules }

// Board returns the true board. Only the referee may look at it.
func (g *Game) Board() chess.Board { return g.board }

// StartFEN returns the position the game started from.
func (g *Game) StartFEN() string { return g.start }

// Turn returns the player to move.
func (g *Game) Turn() chess.Color { return g.board.Turn() }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.end != NotOver }

// Ending returns how the game ended, or NotOver.
func (g *Game) Ending() Ending { return g.end }

// Moves returns the moves made so far, White's first.
func (g *Game) Moves() []chess.Move { return slices.Clone(g.moves) }

// Log returns every question asked so far and its answer, in order.
func (g *Game) Log() []Event { return slices.Clone(g.log) }

// PawnTries returns the number of pawn tries announced to the player to move
// at the start of its turn, or -1 when the ruleset announces none or the
// game is over. The last answer carries the same number; this is also the
// announcement before the first move.
func (g *Game) PawnTries() int {
	if !g.rules.PawnTries || g.Over() {
		return -1
	}
	return g.tries
}

// Questions appends to dst every question the player to move may ask now
// (see CanAsk), moves in the order of its pieces' generation, "any?" last.
// A player knows its own men, so it can compute this list itself; the
// referee's list is the authority.
func (g *Game) Questions(dst []Question) []Question {
	if g.Over() {
		return dst
	}
	var buf [256]chess.Move
	for _, m := range g.askableMoves(buf[:0]) {
		dst = append(dst, TryMove(m))
	}
	if g.rules.AskAny && !g.anyAsked {
		dst = append(dst, Any())
	}
	return dst
}

// CanAsk reports whether the player to move may ask q now. A move may be
// asked when it is possible for the player's own men as if the board held
// nothing else (castling as its rights and own men allow; a pawn push only
// as far as its own men allow, onto the back rank with a promotion piece; a
// pawn capture onto any square without one of its own men, promotion piece
// required on the back rank), unless it was already refused this turn. A
// pawn capture may not be asked when the ruleset announces pawn tries and
// there are none, or after "no" to "any?"; after "yes" only pawn captures
// may be asked. "any?" may be asked once a turn where the ruleset allows it.
func (g *Game) CanAsk(q Question) bool {
	if g.Over() {
		return false
	}
	if q.AskAny {
		return g.rules.AskAny && !g.anyAsked
	}
	m := q.Move
	if m.IsNull() || !m.From.Valid() || !m.To.Valid() {
		return false
	}
	return g.askable(m, g.isOwnMove)
}

// askable is CanAsk for a move on the board: own reports whether the move
// is one of ownMoves (a function, as it is the costly part and often not needed).
func (g *Game) askable(m chess.Move, own func(chess.Move) bool) bool {
	if slices.Contains(g.refused, m) {
		return false
	}
	capture := g.isPawnCaptureTry(m)
	switch {
	case g.anyAsked && g.anyYes:
		return capture
	case g.anyAsked && capture:
		// After "no", every pawn capture is gone, the en-passant capture
		// that ownMoves lists included.
		return false
	case capture && g.pawnCapturesOpen():
		return true
	}
	return own(m)
}

// pawnCapturesOpen reports whether pawn captures may be tried before "any?"
// is asked: always, unless the ruleset announces pawn tries and there are none.
func (g *Game) pawnCapturesOpen() bool { return !g.rules.PawnTries || g.tries > 0 }

// askableMoves appends the moves CanAsk allows, without duplicates.
func (g *Game) askableMoves(dst []chess.Move) []chess.Move {
	n := len(dst)
	var buf [256]chess.Move
	yes := func(chess.Move) bool { return true }
	no := func(chess.Move) bool { return false }
	for _, m := range g.ownMoves(buf[:0]) {
		if g.askable(m, yes) {
			dst = append(dst, m)
		}
	}
	b := &g.board
	us := b.Turn()
	for bb := b.PiecesOf(us, chess.Pawn); bb != 0; {
		from := bb.PopFirst()
		for t := chess.PawnAttacks(us, from) &^ b.Pieces(us); t != 0; {
			to := t.PopFirst()
			var one [4]chess.Move
			for _, m := range chess.AppendPawnMove(one[:0], from, to) {
				if g.askable(m, no) && !slices.Contains(dst[n:], m) {
					dst = append(dst, m)
				}
			}
		}
	}
	return dst
}

// ownMoves appends the moves the player's own men allow on a board that
// holds nothing else: rbc's move actions (computed from our men alone)
// without the pawn diagonals, plus the en-passant capture onto the square
// behind a double push, which chess allows on such a board too.
func (g *Game) ownMoves(dst []chess.Move) []chess.Move {
	b := &g.board
	n := len(dst)
	dst = b.AppendMoveActions(dst)
	out := dst[:n]
	for _, m := range dst[n:] {
		if !g.isPawnDiagonal(m) {
			out = append(out, m)
		}
	}
	us := b.Turn()
	if ep := b.EnPassant(); ep != chess.NoSquare && !b.Pieces(us).Has(ep) {
		for bb := chess.PawnAttacks(us.Other(), ep) & b.PiecesOf(us, chess.Pawn); bb != 0; {
			out = append(out, chess.Move{From: bb.PopFirst(), To: ep})
		}
	}
	return out
}

// isOwnMove reports whether m is one of ownMoves.
func (g *Game) isOwnMove(m chess.Move) bool {
	var buf [256]chess.Move
	return slices.Contains(g.ownMoves(buf[:0]), m)
}

// isPawnDiagonal reports whether m moves one of our pawns one step diagonally forward.
func (g *Game) isPawnDiagonal(m chess.Move) bool {
	b := &g.board
	us := b.Turn()
	return m.From.Valid() && m.To.Valid() && b.PiecesOf(us, chess.Pawn).Has(m.From) && chess.PawnAttacks(us, m.From).Has(m.To)
}

// isPawnCaptureTry reports whether m is a pawn capture a player may try: a
// diagonal step onto a square without one of our men, with a promotion
// piece exactly when it reaches the back rank.
func (g *Game) isPawnCaptureTry(m chess.Move) bool {
	if !g.isPawnDiagonal(m) || g.board.Pieces(g.board.Turn()).Has(m.To) {
		return false
	}
	if chess.BackRanks.Has(m.To) {
		return m.Promotion >= chess.Knight && m.Promotion <= chess.Queen
	}
	return m.Promotion == chess.NoPieceType
}

// countPawnCaptures counts the legal pawn captures of the side to move, en
// passant included, once per pawn and target square.
func countPawnCaptures(b *chess.Board) int {
	us := b.Turn()
	pawns, theirs := b.PiecesOf(us, chess.Pawn), b.Pieces(us.Other())
	var buf [256]chess.Move
	n := 0
	for _, m := range chess.AppendLegalMoves(b, buf[:0]) {
		if !pawns.Has(m.From) || m.From.File() == m.To.File() || (m.Promotion != chess.NoPieceType && m.Promotion != chess.Queen) {
			continue
		}
		if theirs.Has(m.To) || m.To == b.EnPassant() {
			n++
		}
	}
	return n
}

// Ask answers the question of the player to move, logs it, and makes the
// move when it is legal. The error is non-nil only when the game is over.
func (g *Game) Ask(q Question) (Answer, error) {
	if g.Over() {
		return Answer{}, ErrGameOver
	}
	mover := g.board.Turn()
	a := g.answer(q)
	g.log = append(g.log, Event{Mover: mover, Question: q, Answer: a})
	return a, nil
}

func (g *Game) answer(q Question) Answer {
	if !g.CanAsk(q) {
		if q.AskAny || (g.anyAsked && g.anyYes) || !g.rules.UnaskableIsIllegal {
			return VerdictOnly(Impossible)
		}
		return VerdictOnly(Illegal)
	}
	if q.AskAny {
		g.anyAsked = true
		g.anyYes = countPawnCaptures(&g.board) > 0
		if g.anyYes {
			return VerdictOnly(HasAny)
		}
		return VerdictOnly(NoAny)
	}
	if !chess.IsLegal(&g.board, q.Move) {
		g.refused = append(g.refused, q.Move)
		return VerdictOnly(Illegal)
	}
	return g.play(q.Move)
}

// Announce returns what the referee announces when the legal move m is
// made on b under rules, and the board after it: the answer a player would
// hear, as far as the board alone decides it (a repetition, which needs
// the game's history, is not seen). A player uses it to tell its belief's
// boards apart by the answers they would give.
func Announce(rules Ruleset, b chess.Board, m chess.Move) (Answer, chess.Board) {
	g := Game{rules: rules, board: b}
	a := g.play(m)
	return a, g.board
}

// play makes the legal move m and returns its announcements.
func (g *Game) play(m chess.Move) Answer {
	b := &g.board
	a := VerdictOnly(Moved)
	captured := b.PieceAt(m.To)
	a.Capture = b.Apply(m)
	if a.Capture != chess.NoSquare {
		a.Verdict = Captured
		if g.rules.TypedCaptures {
			a.Captured = CapturedPiece
			if captured == chess.NoPiece || captured.Type() == chess.Pawn { // empty: en passant
				a.Captured = CapturedPawn
			}
		}
	}
	g.moves = append(g.moves, m)
	g.refused, g.anyAsked, g.anyYes = g.refused[:0], false, false
	repeated := false
	if g.seen != nil {
		k := positionKey(b)
		g.seen[k]++
		repeated = g.seen[k] >= g.rules.Repetitions
	}

	// The endings, in the reference's order of precedence, then ours.
	checkers := chess.Checkers(b)
	noMoves := !chess.HasLegalMove(b)
	switch {
	case noMoves && checkers == 0:
		g.end = DrawStalemate
	case InsufficientMaterial(b):
		g.end = DrawInsufficient
	case noMoves:
		g.end = CheckmateWhiteWins
		if b.Turn() == chess.White {
			g.end = CheckmateBlackWins
		}
	case g.rules.HalfmoveLimit > 0 && b.HalfmoveClock() >= g.rules.HalfmoveLimit:
		g.end = DrawReversible
	case repeated:
		g.end = DrawRepetition
	}
	a.End = g.end
	if g.Over() {
		return a
	}
	k := b.KingSquare(b.Turn())
	for i := 0; checkers != 0 && i < 2; i++ {
		a.Checks[i] = checkDirection(checkers.PopFirst(), k)
	}
	g.tries = countPawnCaptures(b)
	a.PawnTries = g.PawnTries()
	return a
}

// CheckDirection is the direction the referee announces for a check by the
// piece on from to the king on k (as Answer.Checks holds it), for a player
// that predicts the answers its tries would get.
func CheckDirection(from, k chess.Square) Check { return checkDirection(from, k) }

// checkDirection names the line from a checking piece on from to the king on k.
func checkDirection(from, k chess.Square) Check {
	df, dr := from.File()-k.File(), from.Rank()-k.Rank()
	switch {
	case df == 0:
		return CheckFile
	case dr == 0:
		return CheckRank
	case df == dr || df == -dr:
		// The diagonal through k that rises to the right (a1–h8's way) has
		// 8-|f-r| squares, the other 8-|f+r-7|.
		f, r := k.File(), k.Rank()
		rising, falling := 8-abs(f-r), 8-abs(f+r-7)
		long := rising > falling
		if df != dr {
			long = falling > rising
		}
		if long {
			return CheckLongDiagonal
		}
		return CheckShortDiagonal
	}
	return CheckKnight
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
