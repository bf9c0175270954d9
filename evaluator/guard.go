package evaluator

import (
	"fmt"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Stockfish (measured on 15.1) segfaults when the side to move
// can capture the enemy king, when a king is missing, and on castling rights
// whose rook has left its home square; it answers nonsense with doubled kings
// or impossible checks. All of these are ordinary RBC boards. The guard looks
// at every board before it can reach an engine and decides, cheaply and
// without allocation beyond the FEN, one of three routes.

// Route is where the guard sends a board.
type Route uint8

// The guard's routes.
const (
	// RouteEngine: the board is safe for a chess engine once cleaned; send
	// Guarded.FEN.
	RouteEngine Route = iota
	// RouteTerminal: the game is decided on the board; Guarded.Score is final.
	RouteTerminal
	// RouteEmbedded: the board is possible in RBC but not in chess in a way
	// that confuses engines; score it with the embedded search.
	RouteEmbedded
)

// String names the route.
func (r Route) String() string {
	switch r {
	case RouteEngine:
		return "engine"
	case RouteTerminal:
		return "terminal"
	case RouteEmbedded:
		return "embedded"
	}
	return fmt.Sprintf("Route(%d)", r)
}

// GuardRule names the guard rule that decided a board's route.
type GuardRule uint8

// The guard rules, in the order they are checked.
const (
	// RuleNone: no rule fired; the board goes to the engine (perhaps cleaned).
	RuleNone GuardRule = iota
	// RuleNoKings: neither side has a king → terminal draw.
	RuleNoKings
	// RuleOwnKingMissing: the side to move has no king → terminal loss.
	RuleOwnKingMissing
	// RuleEnemyKingMissing: the opponent has no king → terminal win.
	RuleEnemyKingMissing
	// RuleKingCapturable: the side to move can capture the enemy king →
	// terminal win. Stockfish crashes on about 2 of 3 such boards.
	RuleKingCapturable
	// RuleExtraKings: a side has more than one king → embedded.
	RuleExtraKings
	// RuleImpossibleMaterial: more pieces than promotions allow (a hand-made
	// board; engines keep fixed-size piece lists) → embedded.
	RuleImpossibleMaterial
	// RuleTooManyCheckers: three or more pieces attack the side to move's
	// king (common in RBC, impossible in chess) → embedded.
	RuleTooManyCheckers
	// RuleImpossibleCheck: two checkers that no chess move can produce
	// together (neither is a bishop, rook or queen, so neither check can
	// have been discovered) → embedded.
	RuleImpossibleCheck
)

var guardRuleNames = [...]string{
	"none", "no kings", "own king missing", "enemy king missing",
	"side to move can capture the king", "more than one king of a colour",
	"impossible material", "three or more checkers", "impossible double check",
}

// String describes the rule.
func (r GuardRule) String() string {
	if int(r) < len(guardRuleNames) {
		return guardRuleNames[r]
	}
	return fmt.Sprintf("GuardRule(%d)", r)
}

// Fix is a set of cleanings the guard applied to a board bound for the engine.
type Fix uint8

// The cleanings.
const (
	// FixCastling: castling rights were dropped because the king or the rook
	// is not on its home square (Stockfish crashes on such rights).
	FixCastling Fix = 1 << iota
	// FixEnPassant: the en-passant square was dropped because no pawn can
	// capture there (the harness shows it after every double push).
	FixEnPassant
)

// String lists the cleanings ("castling,en-passant", "" for none).
func (f Fix) String() string {
	var parts []string
	if f&FixCastling != 0 {
		parts = append(parts, "castling")
	}
	if f&FixEnPassant != 0 {
		parts = append(parts, "en-passant")
	}
	return strings.Join(parts, ",")
}

// Guarded is the guard's decision for one board.
type Guarded struct {
	// Route is where the board goes.
	Route Route
	// Rule is the rule that decided the route (RuleNone for RouteEngine).
	Rule GuardRule
	// Score is the final score when Route is RouteTerminal.
	Score Score
	// FEN is the cleaned position for the engine when Route is RouteEngine:
	// castling rights only with king and rook at home, the en-passant square
	// only if a pawn can use it, and the move counters reset to "0 1" so that
	// the score depends only on what the board's Key covers (which makes
	// Key-based caching exact).
	FEN string
	// Fixes lists the cleanings applied to FEN.
	Fixes Fix
}

// String says what the guard does with the board, for people: "terminal:
// RULE", "embedded search: RULE", or "engine-safe (FEN)" with the
// cleanings it took ("after dropping castling and en-passant").
func (g Guarded) String() string {
	switch g.Route {
	case RouteTerminal:
		return "terminal: " + g.Rule.String()
	case RouteEmbedded:
		return "embedded search: " + g.Rule.String()
	}
	s := "engine-safe"
	if g.Fixes != 0 {
		s += " after dropping " + strings.ReplaceAll(g.Fixes.String(), ",", " and ")
	}
	return s + " (" + g.FEN + ")"
}

// Guard decides how the board b may be scored. It never fails: every board
// that ParseFEN accepts or Apply produces gets a route.
func Guard(b *chess.Board) Guarded {
	us := b.Turn()
	them := us.Other()
	terminal := func(rule GuardRule, t Terminal, mate int) Guarded {
		return Guarded{Route: RouteTerminal, Rule: rule, Score: Score{Mate: mate, Terminal: t, Source: FromGuard, Rule: rule}}
	}
	ownMissing, enemyMissing := b.KingMissing(us), b.KingMissing(them)
	switch {
	case ownMissing && enemyMissing:
		return terminal(RuleNoKings, NoKings, 0)
	case ownMissing:
		return terminal(RuleOwnKingMissing, OwnKingMissing, 0)
	case enemyMissing:
		return terminal(RuleEnemyKingMissing, EnemyKingMissing, 0)
	case b.KingCapturable():
		return terminal(RuleKingCapturable, CanCaptureKing, 1)
	}
	embedded := func(rule GuardRule) Guarded { return Guarded{Route: RouteEmbedded, Rule: rule} }
	if b.PiecesOf(chess.White, chess.King).Count() > 1 || b.PiecesOf(chess.Black, chess.King).Count() > 1 {
		return embedded(RuleExtraKings)
	}
	if !possibleMaterial(b, chess.White) || !possibleMaterial(b, chess.Black) {
		return embedded(RuleImpossibleMaterial)
	}
	checkers := Checkers(b)
	switch n := checkers.Count(); {
	case n >= 3:
		return embedded(RuleTooManyCheckers)
	case n == 2:
		sliders := b.PiecesOf(them, chess.Bishop) | b.PiecesOf(them, chess.Rook) | b.PiecesOf(them, chess.Queen)
		if checkers&sliders == 0 {
			return embedded(RuleImpossibleCheck)
		}
	}
	fen, fixes := engineFEN(b)
	return Guarded{Route: RouteEngine, FEN: fen, Fixes: fixes}
}

// Checkers returns the opponent's pieces that attack the side to move's king
// (its lowest king, if it has several), or 0 without a king.
func Checkers(b *chess.Board) chess.Bitboard {
	us := b.Turn()
	them := us.Other()
	k := b.KingSquare(us)
	if k == chess.NoSquare {
		return 0
	}
	occ := b.Occupied()
	diag := b.PiecesOf(them, chess.Bishop) | b.PiecesOf(them, chess.Queen)
	straight := b.PiecesOf(them, chess.Rook) | b.PiecesOf(them, chess.Queen)
	return chess.PawnAttacks(us, k)&b.PiecesOf(them, chess.Pawn) |
		chess.KnightAttacks(k)&b.PiecesOf(them, chess.Knight) |
		chess.KingAttacks(k)&b.PiecesOf(them, chess.King) |
		chess.BishopAttacks(k, occ)&diag |
		chess.RookAttacks(k, occ)&straight
}

// possibleMaterial reports whether colour c's pieces could come from the
// start position by promotions: at most 8 pawns, and no more extra knights,
// bishops, rooks and queens than pawns that have gone.
func possibleMaterial(b *chess.Board, c chess.Color) bool {
	pawns := b.PiecesOf(c, chess.Pawn).Count()
	extra := max(b.PiecesOf(c, chess.Knight).Count()-2, 0) +
		max(b.PiecesOf(c, chess.Bishop).Count()-2, 0) +
		max(b.PiecesOf(c, chess.Rook).Count()-2, 0) +
		max(b.PiecesOf(c, chess.Queen).Count()-1, 0)
	return pawns <= 8 && extra <= 8-pawns
}

// castlingHome lists, per right, the king's and the rook's home squares.
var castlingHome = [4]struct {
	right      chess.Castling
	color      chess.Color
	king, rook chess.Square
}{
	{chess.WhiteKingside, chess.White, chess.E1, chess.H1},
	{chess.WhiteQueenside, chess.White, chess.E1, chess.A1},
	{chess.BlackKingside, chess.Black, chess.E8, chess.H8},
	{chess.BlackQueenside, chess.Black, chess.E8, chess.A8},
}

// CleanCastling returns the castling rights of b whose king and rook both
// stand on their home squares.
func CleanCastling(b *chess.Board) chess.Castling {
	c := b.Castling()
	for _, h := range castlingHome {
		if c&h.right != 0 && (!b.PiecesOf(h.color, chess.King).Has(h.king) || !b.PiecesOf(h.color, chess.Rook).Has(h.rook)) {
			c &^= h.right
		}
	}
	return c
}

// CleanEnPassant returns b's en-passant square if the side to move can
// capture there (a pawn of its attacks the square, the enemy pawn that just
// double-pushed stands in front of it, and the square and the one behind it
// are empty: the conditions under which Stockfish itself keeps it) and the
// side to move is not in check from any piece but that pawn, else NoSquare.
//
// The last condition matters: in chess, a side in check that can capture en
// passant was checked by the pawn that just moved (or by a discovered
// slider), and Stockfish's legality test for en passant relies on it. In RBC
// the check can come from anywhere (a pawn or knight that stood there for
// moves), and Stockfish then plays the en-passant capture while its king
// stays attacked (found by TestGuardAgainstStockfish).
func CleanEnPassant(b *chess.Board) chess.Square {
	ep := b.EnPassant()
	if !ep.Valid() {
		return chess.NoSquare
	}
	us := b.Turn()
	them := us.Other()
	front, behind, rank := ep-8, ep+8, 5 // White to move: the black pawn stands below the square
	if us == chess.Black {
		front, behind, rank = ep+8, ep-8, 2
	}
	if ep.Rank() != rank ||
		chess.PawnAttacks(them, ep)&b.PiecesOf(us, chess.Pawn) == 0 ||
		!b.PiecesOf(them, chess.Pawn).Has(front) ||
		b.Occupied()&(ep.Bit()|behind.Bit()) != 0 {
		return chess.NoSquare
	}
	if checkers := Checkers(b); checkers != 0 && checkers != front.Bit() {
		return chess.NoSquare
	}
	return ep
}

// engineFEN renders b for the engine with castling and en passant cleaned and
// the counters reset.
func engineFEN(b *chess.Board) (string, Fix) {
	var fixes Fix
	castling := CleanCastling(b)
	if castling != b.Castling() {
		fixes |= FixCastling
	}
	ep := CleanEnPassant(b)
	if ep != b.EnPassant() {
		fixes |= FixEnPassant
	}
	full := b.FEN()
	placement := full[:strings.IndexByte(full, ' ')]
	side := "w"
	if b.Turn() == chess.Black {
		side = "b"
	}
	return placement + " " + side + " " + castling.String() + " " + ep.String() + " 0 1", fixes
}
