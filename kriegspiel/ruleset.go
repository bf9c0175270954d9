package kriegspiel

import (
	"fmt"
	"strings"
)

// Ruleset is one set of Kriegspiel rules: what the referee announces, to
// whom, and which questions a player may ask. The named rulesets (Wild16,
// Berkeley, BerkeleyAny) are the reference referee's; their fields are
// exported so that a test or an experiment can vary one rule at a time.
type Ruleset struct {
	// Name is the ruleset's name as ParseRuleset reads it.
	Name string
	// AskAny allows the question "any?" once a turn (berkeley_any).
	AskAny bool
	// TypedCaptures announces whether a captured man was a pawn or a piece
	// (wild16); otherwise only its square is announced.
	TypedCaptures bool
	// PawnTries announces, after each move, how many legal pawn captures the
	// player to move has (wild16); pawn captures may then be tried only when
	// that number is not zero.
	PawnTries bool
	// PublicIllegal tells the opponent about each illegal try (berkeley);
	// otherwise only the player who tried hears "illegal" (wild16).
	PublicIllegal bool
	// UnaskableIsIllegal answers a move the player could not have asked
	// (impossible for its own men, refused before this turn, a pawn capture
	// when none is announced) with "illegal", as wild16 does; otherwise the
	// referee refuses to consider it (Impossible).
	UnaskableIsIllegal bool
	// HalfmoveLimit draws the game when the half-move clock (moves since the
	// last capture or pawn move) reaches it. The reference referee uses
	// 2000; the fifty-move rule is 100. 0 means no limit.
	HalfmoveLimit int
	// Repetitions draws the game when one position (placement, side to move,
	// castling rights and a legal en-passant capture) has arisen this many
	// times; 3 is chess's threefold repetition. The reference referee has no
	// repetition rule (0).
	Repetitions int
}

// ReferenceHalfmoveLimit is the reference referee's limit on the half-move
// clock: 2000 half-moves without a capture or pawn move draw the game.
const ReferenceHalfmoveLimit = 2000

// ChessDrawsSuffix, appended to a ruleset's name, replaces the reference's
// draw rules with chess's: the fifty-move rule and threefold repetition,
// both applied by the referee at once (nobody can claim in Kriegspiel).
const ChessDrawsSuffix = "+chessdraws"

// Wild16 returns the rules of the Internet Chess Club's Kriegspiel (its
// "wild 16"), which the Computer Olympiad uses: a player hears "illegal"
// alone, captures are announced as pawn or piece, and the number of pawn
// tries is announced at the start of each turn.
func Wild16() Ruleset {
	return Ruleset{Name: "wild16", TypedCaptures: true, PawnTries: true, UnaskableIsIllegal: true,
		HalfmoveLimit: ReferenceHalfmoveLimit}
}

// Berkeley returns the Berkeley rules without "any?": illegal tries are
// announced to both players, captures by square only, no pawn tries.
func Berkeley() Ruleset {
	return Ruleset{Name: "berkeley", PublicIllegal: true, HalfmoveLimit: ReferenceHalfmoveLimit}
}

// BerkeleyAny returns the Berkeley rules with "any?": once a turn a player may
// ask whether any pawn capture is legal; after "yes" it must try pawn
// captures until one is made, after "no" it may try none.
func BerkeleyAny() Ruleset {
	r := Berkeley()
	r.Name, r.AskAny = "berkeley_any", true
	return r
}

// RulesetNames lists the names ParseRuleset reads without a suffix.
func RulesetNames() []string { return []string{"wild16", "berkeley", "berkeley_any"} }

// ParseRuleset returns the ruleset of the given name: wild16, berkeley or
// berkeley_any, optionally followed by ChessDrawsSuffix.
func ParseRuleset(name string) (Ruleset, error) {
	base, chessDraws := strings.CutSuffix(name, ChessDrawsSuffix)
	var r Ruleset
	switch base {
	case "wild16":
		r = Wild16()
	case "berkeley":
		r = Berkeley()
	case "berkeley_any":
		r = BerkeleyAny()
	default:
		return Ruleset{}, fmt.Errorf("kriegspiel: unknown ruleset %q (want %s, optionally with %s)",
			name, strings.Join(RulesetNames(), ", "), ChessDrawsSuffix)
	}
	if chessDraws {
		r = r.WithChessDraws()
	}
	return r, nil
}

// WithChessDraws returns the ruleset with chess's draw rules in place of the
// reference's: the fifty-move rule (100 half-moves) and threefold repetition.
func (r Ruleset) WithChessDraws() Ruleset {
	if !strings.HasSuffix(r.Name, ChessDrawsSuffix) {
		r.Name += ChessDrawsSuffix
	}
	r.HalfmoveLimit, r.Repetitions = 100, 3
	return r
}

// HeardByOpponent reports whether the opponent of the player who asked hears
// the answer: every move made and every "any?" answer; an illegal try only
// when PublicIllegal; an impossible question never.
func (r Ruleset) HeardByOpponent(a Answer) bool {
	switch a.Verdict {
	case Impossible:
		return false
	case Illegal:
		return r.PublicIllegal
	}
	return true
}
