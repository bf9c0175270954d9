package kriegspiel

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Hand-made positions for every message the referee sends. Each case plays
// some questions from a position and checks every field of the last answer.

func mustGame(t *testing.T, rules Ruleset, fen string) *Game {
	t.Helper()
	g, err := NewGameFromFEN(rules, fen)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustAsk(t *testing.T, g *Game, q string) Answer {
	t.Helper()
	question, err := ParseQuestion(q)
	if err != nil {
		t.Fatal(err)
	}
	a, err := g.Ask(question)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return a
}

// moved returns the answer to a move made without capture, with the given
// checks and pawn tries.
func moved(tries int, checks ...Check) Answer {
	a := VerdictOnly(Moved)
	a.PawnTries = tries
	copy(a.Checks[:], checks)
	return a
}

func captured(sq chess.Square, kind CaptureKind, tries int, checks ...Check) Answer {
	a := moved(tries, checks...)
	a.Verdict, a.Capture, a.Captured = Captured, sq, kind
	return a
}

func ended(a Answer, e Ending) Answer {
	a.End, a.PawnTries, a.Checks = e, -1, [2]Check{}
	return a
}

// announcementCase is a position, the questions asked from it, and the
// answer expected to the last one.
type announcementCase struct {
	name  string
	rules Ruleset
	fen   string
	asks  []string
	want  Answer
}

func announcementCases() []announcementCase {
	wild16, berkeley, berkeleyAny := Wild16(), Berkeley(), BerkeleyAny()
	chessDraws := Wild16().WithChessDraws()
	return []announcementCase{
		// Checks, by direction.
		{"check rank", wild16, "7k/8/8/8/8/8/8/K5R1 w - - 0 1", []string{"g1g8"}, moved(0, CheckRank)},
		{"check file", wild16, "7k/8/8/8/8/8/8/K5R1 w - - 0 1", []string{"g1h1"}, moved(0, CheckFile)},
		{"check knight", wild16, "7k/8/8/4N3/8/8/7P/K7 w - - 0 1", []string{"e5g6"}, moved(0, CheckKnight)},
		// h8's rising diagonal (a1–h8) has 8 squares, its falling one 1.
		{"check long diagonal, corner", wild16, "7k/8/8/8/8/8/7P/K1B5 w - - 0 1", []string{"c1b2"}, moved(0, CheckLongDiagonal)},
		// e8's rising diagonal (a4–e8) has 5 squares, its falling one (e8–h5) 4.
		{"check long diagonal, 5 squares", wild16, "4k3/8/8/8/8/8/7P/K2B4 w - - 0 1", []string{"d1a4"}, moved(0, CheckLongDiagonal)},
		{"check short diagonal", wild16, "4k3/8/8/8/8/8/7P/K2B4 w - - 0 1", []string{"d1h5"}, moved(0, CheckShortDiagonal)},
		{"check by a pawn is diagonal", wild16, "8/8/8/4k3/8/3P4/8/K7 w - - 0 1", []string{"d3d4"}, moved(0, CheckLongDiagonal)},
		{"black checks white", wild16, "k5r1/8/8/8/8/8/8/7K b - - 0 1", []string{"g8h8"}, moved(0, CheckFile)},
		// Double checks: the two directions in the order of the checkers' squares.
		{"double check knight and file", wild16, "4k3/8/8/8/4N3/8/4R3/K7 w - - 0 1", []string{"e4d6"}, moved(0, CheckFile, CheckKnight)},
		{"double check diagonal and file", wild16, "4k3/8/8/8/8/8/4B3/K3R3 w - - 0 1", []string{"e2b5"}, moved(0, CheckFile, CheckLongDiagonal)},
		{"double check by black", wild16, "4r3/8/8/4n3/8/8/8/k3K3 b - - 0 1", []string{"e5d3"}, moved(0, CheckKnight, CheckFile)},
		{"discovered check only", wild16, "4k3/8/8/8/8/8/4B3/K3R3 w - - 0 1", []string{"e2a6"}, moved(0, CheckFile)},

		// Captures: the square, and pawn or piece under wild16.
		{"capture of a piece", wild16, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", []string{"d1d5"}, captured(chess.D5, CapturedPiece, 0)},
		{"capture of a pawn", wild16, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", []string{"e4d5"}, captured(chess.D5, CapturedPawn, 0)},
		{"capture, berkeley: square only", berkeley, "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", []string{"d1d5"}, captured(chess.D5, Unannounced, -1)},
		// A pawn capture that promotes: a piece taken, a check by the new queen.
		{"promotion with capture and check", wild16, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8q"}, captured(chess.B8, CapturedPiece, 0, CheckRank)},
		{"underpromotion with capture", wild16, "1n2k3/P6p/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8n"}, captured(chess.B8, CapturedPiece, 0)},
		{"underpromotion to a lone knight", wild16, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8n"}, ended(captured(chess.B8, CapturedPiece, 0), DrawInsufficient)},
		{"bare promotion is not a move, wild16", wild16, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8"}, VerdictOnly(Illegal)},
		{"bare promotion is not a move, berkeley", berkeley, "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", []string{"a7b8"}, VerdictOnly(Impossible)},

		// Pawn tries, en passant included.
		{"pawn tries count en passant", wild16, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", []string{"d7d5"}, moved(1)},
		{"en passant capture announced on the pawn's square", wild16, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", []string{"d7d5", "e5d6"}, captured(chess.D5, CapturedPawn, 0)},
		{"pinned en passant is no try", wild16, "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1", []string{"d2d4"}, moved(0)},
		{"en passant without the pin is a try", wild16, "8/8/8/8/k3p3/8/3P4/3K4 w - - 0 1", []string{"d2d4"}, moved(1)},
		{"pinned en passant is illegal", berkeley, "8/8/8/8/k3p2Q/8/3P4/3K4 w - - 0 1", []string{"d2d4", "e4d3"}, VerdictOnly(Illegal)},
		// d2-d4 blocks the bishop's check; taking it en passant uncovers it again.
		{"en passant uncovers a check", wild16, "8/b7/8/8/2p5/8/3P4/k5K1 w - - 0 1", []string{"d2d4", "c4d3"}, captured(chess.D4, CapturedPawn, 0, CheckLongDiagonal)},
		{"promotion captures count once", wild16, "4k3/8/8/8/8/8/1p1p4/R1N1K3 w - - 0 1", []string{"e1f2"}, moved(3)},

		// Castling.
		{"castling through an attacked square", wild16, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", []string{"e1g1"}, VerdictOnly(Illegal)},
		{"castling the other way", wild16, "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", []string{"e1g1", "e1c1"}, moved(0)},
		{"castling out of check", wild16, "4k3/8/8/8/8/8/8/R3K2r w Q - 0 1", []string{"e1c1"}, VerdictOnly(Illegal)},
		{"castling into check", wild16, "2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1", []string{"e1c1"}, VerdictOnly(Illegal)},
		{"castling past an attacked b-file", wild16, "1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", []string{"e1c1"}, moved(0)},
		{"castling blocked by a hidden piece", berkeley, "4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1", []string{"e1g1"}, VerdictOnly(Illegal)},
		{"castling without the right, wild16", wild16, "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", []string{"e1g1"}, VerdictOnly(Illegal)},
		{"castling without the right, berkeley", berkeley, "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", []string{"e1g1"}, VerdictOnly(Impossible)},
		{"castling gives check", wild16, "5k2/8/8/8/8/8/8/4K2R w K - 0 1", []string{"e1g1"}, moved(0, CheckFile)},

		// Endings.
		{"checkmate by white", wild16, "7k/8/6K1/8/8/8/8/R7 w - - 0 1", []string{"a1a8"}, ended(moved(0), CheckmateWhiteWins)},
		{"checkmate by black", berkeley, "r7/8/8/8/8/6k1/8/7K b - - 0 1", []string{"a8a1"}, ended(moved(0), CheckmateBlackWins)},
		{"checkmate with a capture", wild16, "4r2k/6pp/8/8/8/8/8/K3R3 w - - 0 1", []string{"e1e8"}, ended(captured(chess.E8, CapturedPiece, 0), CheckmateWhiteWins)},
		{"stalemate", wild16, "k7/8/1Q6/8/8/8/8/7K w - - 0 1", []string{"h1g1"}, ended(moved(0), DrawStalemate)},
		{"insufficient: bare kings", wild16, "8/8/8/4k3/8/8/3q4/4K3 w - - 0 1", []string{"e1d2"}, ended(captured(chess.D2, CapturedPiece, 0), DrawInsufficient)},
		{"insufficient: king and knight", wild16, "8/8/8/4k3/8/8/3p4/4K1N1 w - - 0 1", []string{"e1d2"}, ended(captured(chess.D2, CapturedPawn, 0), DrawInsufficient)},
		{"insufficient: bishops of one colour", wild16, "8/8/4b3/4k3/8/8/3p4/4KB2 w - - 0 1", []string{"e1d2"}, ended(captured(chess.D2, CapturedPawn, 0), DrawInsufficient)},
		{"sufficient: bishops of both colours", wild16, "8/8/3b4/4k3/8/8/3p4/4KB2 w - - 0 1", []string{"e1d2"}, captured(chess.D2, CapturedPawn, 0)},
		{"sufficient: knight against rook", wild16, "8/8/r7/4k3/8/8/3p4/4K1N1 w - - 0 1", []string{"e1d2"}, captured(chess.D2, CapturedPawn, 0)},
		{"reference half-move limit", wild16, "4k3/8/8/8/8/8/8/R3K3 w - - 1999 1000", []string{"a1a2"}, ended(moved(0), DrawReversible)},
		{"fifty-move rule", chessDraws, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60", []string{"a1a2"}, ended(moved(0), DrawReversible)},
		{"no fifty-move rule in the reference", wild16, "4k3/8/8/8/8/8/8/R3K3 w - - 99 60", []string{"a1a2"}, moved(0)},
		{"mate beats the fifty-move rule", chessDraws, "7k/8/6K1/8/8/8/8/R7 w - - 99 60", []string{"a1a8"}, ended(moved(0), CheckmateWhiteWins)},
		{"threefold repetition", chessDraws, chess.StartFEN,
			[]string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, ended(moved(0), DrawRepetition)},
		{"no repetition rule in the reference", wild16, chess.StartFEN,
			[]string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, moved(0)},

		// Refused questions: who hears what is checked in TestHeardByOpponent.
		{"impossible move, wild16", wild16, chess.StartFEN, []string{"e2e5"}, VerdictOnly(Illegal)},
		{"impossible move, berkeley", berkeley, chess.StartFEN, []string{"e2e5"}, VerdictOnly(Impossible)},
		{"move through a hidden piece", wild16, "4k3/8/8/8/8/8/3n4/2B1K3 w - - 0 1", []string{"c1h6"}, VerdictOnly(Illegal)},
		{"refused again, wild16", wild16, "4k3/8/8/8/8/8/3n4/2B1K3 w - - 0 1", []string{"c1h6", "c1h6"}, VerdictOnly(Illegal)},
		{"refused again, berkeley", berkeley, "4k3/8/8/8/8/8/3n4/2B1K3 w - - 0 1", []string{"c1h6", "c1h6"}, VerdictOnly(Impossible)},
		{"pawn capture without tries, wild16", wild16, chess.StartFEN, []string{"e2e4", "e7e5", "e4d5"}, VerdictOnly(Illegal)},
		{"pawn capture onto nothing, berkeley", berkeley, chess.StartFEN, []string{"e2e4", "e7e5", "e4d5"}, VerdictOnly(Illegal)},
		{"any? in wild16", wild16, chess.StartFEN, []string{"any"}, VerdictOnly(Impossible)},
		{"any? in berkeley", berkeley, chess.StartFEN, []string{"any"}, VerdictOnly(Impossible)},
		{"any? no", berkeleyAny, chess.StartFEN, []string{"any"}, VerdictOnly(NoAny)},
		{"any? twice", berkeleyAny, chess.StartFEN, []string{"any", "any"}, VerdictOnly(Impossible)},
		{"pawn capture after no", berkeleyAny, chess.StartFEN, []string{"any", "e2d3"}, VerdictOnly(Impossible)},
		{"any? yes", berkeleyAny, chess.StartFEN, []string{"e2e4", "d7d5", "any"}, VerdictOnly(HasAny)},
		{"only pawn captures after yes", berkeleyAny, chess.StartFEN, []string{"e2e4", "d7d5", "any", "b1c3"}, VerdictOnly(Impossible)},
		{"a wrong pawn capture after yes", berkeleyAny, chess.StartFEN, []string{"e2e4", "d7d5", "any", "e4f5"}, VerdictOnly(Illegal)},
		{"the right pawn capture after yes", berkeleyAny, chess.StartFEN, []string{"e2e4", "d7d5", "any", "e4f5", "e4d5"}, captured(chess.D5, Unannounced, -1)},
		{"any? again next turn", berkeleyAny, chess.StartFEN, []string{"any", "e2e4", "any"}, VerdictOnly(NoAny)},
	}
}

// TestAnnouncements plays the hand-made cases. The reference referee
// answers them too (the ones under its rules): testdata/kriegspiel/
// handmade.jsonl.gz holds its answers, which TestAnswersEqualReference
// replays, and TestWriteHandmadeScript writes the questions it was asked.
func TestAnnouncements(t *testing.T) {
	for _, c := range announcementCases() {
		t.Run(c.name, func(t *testing.T) {
			g := mustGame(t, c.rules, c.fen)
			var a Answer
			for _, q := range c.asks {
				a = mustAsk(t, g, q)
			}
			if a != c.want {
				t.Errorf("after %v: %q, want %q", c.asks, a, c.want)
			}
			if g.Over() != (c.want.End != NotOver) || g.Ending() != c.want.End {
				t.Errorf("game over %v (%v), want ending %v", g.Over(), g.Ending(), c.want.End)
			}
		})
	}
}

// TestAnnounceEqualsAsk: for every hand-made case whose last question is
// a move that is made, Announce on the board before it gives the answer the
// game gave, and the board after it.
func TestAnnounceEqualsAsk(t *testing.T) {
	n := 0
	for _, c := range announcementCases() {
		g := mustGame(t, c.rules, c.fen)
		for _, q := range c.asks[:len(c.asks)-1] {
			mustAsk(t, g, q)
		}
		before := g.Board()
		last, err := ParseQuestion(c.asks[len(c.asks)-1])
		if err != nil {
			t.Fatal(err)
		}
		a := mustAsk(t, g, c.asks[len(c.asks)-1])
		if !a.Verdict.Done() || a.End == DrawRepetition {
			continue // a repetition needs the game's history, which Announce does not have
		}
		n++
		got, after := Announce(c.rules, before, last.Move)
		want := g.Board()
		if got != a || after.FEN() != want.FEN() {
			t.Errorf("%s: Announce gives %q and %s, the game %q and %s", c.name, got, after.FEN(), a, want.FEN())
		}
	}
	if n < 10 {
		t.Errorf("only %d cases end with a move made", n)
	}
}

// TestPawnTriesAtStart checks the announcement before the first move.
func TestPawnTriesAtStart(t *testing.T) {
	for _, c := range []struct {
		rules Ruleset
		fen   string
		want  int
	}{
		{Wild16(), chess.StartFEN, 0},
		{Berkeley(), chess.StartFEN, -1},
		{Wild16(), "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", 1},
		{Wild16(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 1},
		// In check from a1: taking the bishop does not help, so it is no try.
		{Wild16(), "4k3/8/8/8/8/4b3/3P4/r3K3 w - - 0 1", 0},
	} {
		if got := mustGame(t, c.rules, c.fen).PawnTries(); got != c.want {
			t.Errorf("%s %s: %d pawn tries, want %d", c.rules.Name, c.fen, got, c.want)
		}
	}
}

// TestQuestions checks the lists of questions a player may ask, as the
// reference counts them.
func TestQuestions(t *testing.T) {
	for _, c := range []struct {
		rules Ruleset
		fen   string
		asks  []string
		want  int
	}{
		{Wild16(), chess.StartFEN, nil, 20},
		{Berkeley(), chess.StartFEN, nil, 20 + 14},
		{BerkeleyAny(), chess.StartFEN, nil, 20 + 14 + 1},
		{BerkeleyAny(), chess.StartFEN, []string{"any"}, 20},
		{BerkeleyAny(), chess.StartFEN, []string{"e2e4", "d7d5", "any"}, 14},
		{BerkeleyAny(), chess.StartFEN, []string{"e2e4", "d7d5", "any", "e4f5"}, 13},
		// King a1 (3 steps), a7 pawn: a8 and b8 with four promotions each, "any?".
		{BerkeleyAny(), "8/P7/8/8/8/8/8/K6k w - - 0 1", nil, 12},
		{Wild16(), "8/P7/8/8/8/8/8/K6k w - - 0 1", nil, 7},
		{Wild16(), "1n6/P7/8/8/8/8/8/K6k w - - 0 1", nil, 11},
		{Wild16(), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", nil, 26},
		{Wild16(), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", []string{"e1g1"}, 5},
	} {
		g := mustGame(t, c.rules, c.fen)
		for _, q := range c.asks {
			mustAsk(t, g, q)
		}
		qs := g.Questions(nil)
		if len(qs) != c.want {
			t.Errorf("%s %s after %v: %d questions %v, want %d", c.rules.Name, c.fen, c.asks, len(qs), qs, c.want)
		}
		for _, q := range qs {
			if !g.CanAsk(q) {
				t.Errorf("%s %s: %s listed but CanAsk is false", c.rules.Name, c.fen, q)
			}
		}
	}
}

// TestHeardByOpponent checks who hears each verdict under each ruleset.
func TestHeardByOpponent(t *testing.T) {
	for _, c := range []struct {
		rules Ruleset
		v     Verdict
		want  bool
	}{
		{Wild16(), Impossible, false}, {Wild16(), Illegal, false}, {Wild16(), Moved, true}, {Wild16(), Captured, true},
		{Berkeley(), Impossible, false}, {Berkeley(), Illegal, true}, {Berkeley(), Moved, true},
		{BerkeleyAny(), HasAny, true}, {BerkeleyAny(), NoAny, true}, {BerkeleyAny(), Illegal, true},
	} {
		if got := c.rules.HeardByOpponent(VerdictOnly(c.v)); got != c.want {
			t.Errorf("%s %s: heard by opponent %v, want %v", c.rules.Name, c.v, got, c.want)
		}
	}
}

// TestGameOverRefusesQuestions checks that a finished game answers nothing.
func TestGameOverRefusesQuestions(t *testing.T) {
	g := mustGame(t, Wild16(), "7k/8/6K1/8/8/8/8/R7 w - - 0 1")
	mustAsk(t, g, "a1a8")
	if _, err := g.Ask(TryMove(chess.Move{From: chess.H8, To: chess.G8})); !errors.Is(err, ErrGameOver) {
		t.Errorf("Ask after mate: %v, want ErrGameOver", err)
	}
	if len(g.Questions(nil)) != 0 || g.PawnTries() != -1 {
		t.Errorf("after mate: questions %v, pawn tries %d", g.Questions(nil), g.PawnTries())
	}
	if len(g.Moves()) != 1 || len(g.Log()) != 1 {
		t.Errorf("moves %v, log %v", g.Moves(), g.Log())
	}
}

// TestNewGameFromFEN checks the positions a game may start from.
func TestNewGameFromFEN(t *testing.T) {
	for _, fen := range []string{
		"8/8/8/8/8/8/8/K7 w - - 0 1",           // no black king
		"k7/8/8/8/8/8/8/KK6 w - - 0 1",         // two white kings
		"k6R/8/8/8/8/8/8/K7 w - - 0 1",         // black, not to move, in check
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w", // not a FEN
	} {
		if _, err := NewGameFromFEN(Wild16(), fen); err == nil {
			t.Errorf("%s: accepted", fen)
		}
	}
	for _, c := range []struct {
		fen  string
		want Ending
	}{
		{"R6k/8/6K1/8/8/8/8/8 b - - 0 1", CheckmateWhiteWins},
		{"k7/8/1Q6/8/8/8/8/7K b - - 0 1", DrawStalemate},
		{"k7/8/8/8/8/8/8/7K w - - 0 1", DrawInsufficient},
	} {
		if g := mustGame(t, Wild16(), c.fen); g.Ending() != c.want {
			t.Errorf("%s: ending %v, want %v", c.fen, g.Ending(), c.want)
		}
	}
}

// TestPositionKeyEnPassant checks that an en-passant square counts for
// repetition only when the capture is legal.
func TestPositionKeyEnPassant(t *testing.T) {
	key := func(fen string) uint64 {
		b := chess.MustParseFEN(fen)
		return positionKey(&b)
	}
	if key("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1") != key("8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1") {
		t.Error("a pinned en-passant capture changes the key")
	}
	if key("8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1") == key("8/8/8/8/k2Pp3/8/8/3K4 b - - 0 1") {
		t.Error("a legal en-passant capture does not change the key")
	}
}

// TestParseRuleset checks the ruleset names.
func TestParseRuleset(t *testing.T) {
	for _, name := range append(RulesetNames(), "wild16+chessdraws", "berkeley_any+chessdraws") {
		r, err := ParseRuleset(name)
		if err != nil || r.Name != name {
			t.Errorf("ParseRuleset(%q) = %+v, %v", name, r, err)
		}
	}
	if _, err := ParseRuleset("cincinnati"); err == nil {
		t.Error("cincinnati accepted")
	}
	if r := Wild16().WithChessDraws().WithChessDraws(); r.Name != "wild16+chessdraws" || r.HalfmoveLimit != 100 || r.Repetitions != 3 {
		t.Errorf("WithChessDraws twice: %+v", r)
	}
}

// TestWriteHandmadeScript writes the hand-made cases under the reference's
// rulesets as a script for the reference dump
// (scripts/kriegspiel/dump_reference.py --script FILE), when
// BLINDFISH_KRIEGSPIEL_WRITE_SCRIPT names the file to write.
func TestWriteHandmadeScript(t *testing.T) {
	path := os.Getenv("BLINDFISH_KRIEGSPIEL_WRITE_SCRIPT")
	if path == "" {
		t.Skip("BLINDFISH_KRIEGSPIEL_WRITE_SCRIPT is not set")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i, c := range announcementCases() {
		if c.rules.Repetitions != 0 || c.rules.HalfmoveLimit != ReferenceHalfmoveLimit {
			continue // our draw rules; the reference has none
		}
		line := map[string]any{"ruleset": c.rules.Name, "fen": c.fen, "asks": c.asks, "seed": i, "name": c.name}
		if err := enc.Encode(line); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
