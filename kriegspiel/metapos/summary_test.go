package metapos

import (
	"math"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestMetapositionGuesses: the summary of two boards, a black pawn on a4 in
// one and on h4 in the other, gives the rook's tries the answers the boards
// would: a1a8 is illegal half the time, a1a4 always legal and a capture
// half the time, worth a pawn more than the silent answer.
func TestSummaryGuesses(t *testing.T) {
	boards := []chess.Board{
		chess.MustParseFEN("4k3/8/8/8/p7/8/8/R3K3 w - - 0 1"),
		chess.MustParseFEN("4k3/8/8/8/7p/8/8/R3K3 w - - 0 1"),
	}
	m := Summarize(boards, chess.White)
	if got := m.Theirs[sq("a4")][chess.Pawn]; got != 0.5 {
		t.Fatalf("a4 holds a pawn with probability %v, want 0.5", got)
	}
	prob := func(gs []Guess, k AnswerKind) float64 {
		p := 0.0
		for _, g := range gs {
			if g.Kind == k {
				p += g.P
			}
		}
		return p
	}
	far := m.Guesses(chess.Move{From: sq("a1"), To: sq("a8")})
	if p := prob(far, AnswerIllegal); math.Abs(p-0.5) > 1e-9 {
		t.Errorf("a1a8 illegal with probability %v, want 0.5", p)
	}
	near := m.Guesses(chess.Move{From: sq("a1"), To: sq("a4")})
	if p := prob(near, AnswerIllegal); p != 0 {
		t.Errorf("a1a4 illegal with probability %v, want 0", p)
	}
	var capture, silent *Summary
	for _, g := range near {
		switch g.Kind {
		case AnswerCapture:
			capture = g.After
		case AnswerSilent:
			silent = g.After
		}
		if g.Kind != AnswerIllegal && math.Abs(g.P-0.5) > 1e-9 {
			t.Errorf("a1a4 answer %d with probability %v, want 0.5", g.Kind, g.P)
		}
	}
	if capture == nil || silent == nil {
		t.Fatalf("a1a4: want a capture and a silent answer, got %+v", near)
	}
	if d := capture.Evaluate() - silent.Evaluate(); math.Abs(d-PieceValue[chess.Pawn]) > 1e-6 {
		t.Errorf("the capture is worth %v more than the silent move, want a pawn (%v)", d, PieceValue[chess.Pawn])
	}
	// The opponent's move spreads its men but keeps their number.
	next := capture.OpponentMoves()
	before, after := 0.0, 0.0
	for s := range chess.Square(64) {
		before += capture.occupied(s)
		after += next.occupied(s)
	}
	if math.Abs(before-after) > 1e-4 || next.Mine.Turn() != chess.White {
		t.Errorf("after the opponent's move: %.4f men (want %.4f), %v to move (want white)", after, before, next.Mine.Turn())
	}
}

// TestSummaryOpponentMoveKeepsGain: the opponent's unseen move changes
// where its men may stand, not the material each answer won or lost: the
// capture keeps its whole pawn, and the silent answer (the pawn stood on
// h4) leaves the opponent the half pawn the summary had on a4. Dropping
// Gain there made a silent move onto a square that might hold a man look,
// one move later, as if it had taken that share of the man.
func TestSummaryOpponentMoveKeepsGain(t *testing.T) {
	m := Summarize([]chess.Board{
		chess.MustParseFEN("4k3/8/8/8/p7/8/8/R3K3 w - - 0 1"),
		chess.MustParseFEN("4k3/8/8/8/7p/8/8/R3K3 w - - 0 1"),
	}, chess.White)
	balance := func(s *Summary) float64 { return s.Gain - s.Material() }
	for _, g := range m.Guesses(chess.Move{From: sq("a1"), To: sq("a4")}) {
		if g.After == nil {
			continue
		}
		before, after := balance(g.After), balance(g.After.OpponentMoves())
		if math.Abs(before-after) > 1e-3 {
			t.Errorf("answer %d: material balance %.1f before the opponent's move, %.1f after", g.Kind, before, after)
		}
	}
}

// TestSummaryExpectedLoss: a knight a pawn certainly attacks, undefended,
// is expected lost whole; defended by a pawn, it loses the difference to
// the pawn; and a knight nothing attacks loses nothing.
func TestSummaryExpectedLoss(t *testing.T) {
	for _, c := range []struct {
		fen  string
		want float64
	}{
		{"4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1", PieceValue[chess.Knight]},
		{"4k3/8/8/3p4/4N3/5P2/8/4K3 b - - 0 1", PieceValue[chess.Knight] - PieceValue[chess.Pawn]},
		{"4k3/8/8/8/4N3/8/8/4K3 b - - 0 1", 0},
	} {
		m := Summarize([]chess.Board{chess.MustParseFEN(c.fen)}, chess.White)
		if got := m.ExpectedLoss(); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("%s: expected loss %v, want %v", c.fen, got, c.want)
		}
	}
}

// TestMetapositionKingRules: a king's move is refused where a line through
// its own square reaches the square it goes to, and a defended man next
// to the opponent's lone king is not counted as lost to that king (the
// mate Qg7 must not look 900 worse than Qg6).
func TestSummaryKingRules(t *testing.T) {
	m := Summarize([]chess.Board{chess.MustParseFEN("4k3/8/8/8/8/8/8/r3K3 w - - 0 1")}, chess.White)
	for _, g := range m.Guesses(chess.Move{From: sq("e1"), To: sq("f1")}) {
		if g.Kind != AnswerIllegal && g.P > 1e-9 {
			t.Errorf("Ke1-f1 along the rook's rank: answer %d with probability %v, want refused", g.Kind, g.P)
		}
	}
	mate := Summarize([]chess.Board{chess.MustParseFEN("7k/6Q1/5K2/8/8/8/8/8 w - - 0 1")}, chess.White)
	near := Summarize([]chess.Board{chess.MustParseFEN("7k/8/5KQ1/8/8/8/8/8 w - - 0 1")}, chess.White)
	if d := near.Evaluate() - mate.Evaluate(); d > 300 {
		t.Errorf("Qg7 (defended, next to the king) scores %v less than Qg6", d)
	}
}

// sq returns the square named s, which must be valid.
func sq(s string) chess.Square {
	q, err := chess.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}
