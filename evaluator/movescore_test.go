package evaluator

import (
	"context"
	"errors"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

func mustMove(t *testing.T, s string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMoveScoreRBCTerms(t *testing.T) {
	terms := DefaultMoveTerms()
	ms := NewMoveScorer(NewEmbedded(), terms, 100)
	ctx := context.Background()
	for _, c := range []struct {
		name, fen, move string
		kind            MoveKind
		value           int // checked when non-zero
	}{
		{"captures the king", "k7/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", MoveCapturesKing, terms.KingCapture},
		{"walks into the rook", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", "e1e2", MoveLeavesKingCapturable, -terms.KingCapturable},
		{"passes in check", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "0000", MoveLeavesKingCapturable, -terms.KingCapturable},
		{"castles through an attack into one", "4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", MoveLeavesKingCapturable, -terms.KingCapturable},
		{"back-rank mate", "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "e1e8", MoveMates, terms.Mate},
		{"quiet move", chess.StartFEN, "e2e4", MoveEngine, 0},
		{"pass is allowed", chess.StartFEN, "0000", MoveEngine, 0},
		{"own king already gone", "k7/8/8/8/8/8/8/R7 w - - 0 1", "a1a2", MoveAlreadyDecided, -terms.KingCapture},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := ms.ScoreTaken(ctx, chess.MustParseFEN(c.fen), mustMove(t, c.move), Limits{Depth: 2})
			if err != nil {
				t.Fatal(err)
			}
			if s.Kind != c.kind || (c.value != 0 && s.Value != c.value) {
				t.Fatalf("got %v %d, want %v %d", s.Kind, s.Value, c.kind, c.value)
			}
			if c.kind == MoveEngine && (s.Value > terms.MaxCP || s.Value < -terms.MaxCP) {
				t.Fatalf("engine value %d outside ±MaxCP", s.Value)
			}
		})
	}
}

func TestMoveTermsValue(t *testing.T) {
	terms := DefaultMoveTerms()
	before := chess.StartBoard()
	after := before
	cap := after.Apply(mustMove(t, "e2e4"))
	for _, c := range []struct {
		s    Score
		want int
		kind MoveKind
	}{
		{Score{CP: 35}, -35, MoveEngine},
		{Score{CP: -99999}, terms.MaxCP, MoveEngine},
		{Score{CP: 99999}, -terms.MaxCP, MoveEngine},
		{Score{Mate: -1, Terminal: Mated}, terms.Mate, MoveMates},
		{Score{Mate: -3}, terms.Mate - 2*terms.MateStep, MoveMates},
		{Score{Mate: -200}, terms.MaxCP + terms.MateStep, MoveMates},
		{Score{Mate: 2}, -terms.Mate, MoveMated},
		{Score{Mate: 4}, -(terms.Mate - 2*terms.MateStep), MoveMated},
		{Score{Mate: 1, Terminal: CanCaptureKing}, -terms.KingCapturable, MoveLeavesKingCapturable},
		{Score{Terminal: OwnKingMissing}, terms.KingCapture, MoveCapturesKing},
	} {
		got, kind := terms.Value(&before, &after, cap, c.s)
		if got != c.want || kind != c.kind {
			t.Errorf("%+v: got %d %v, want %d %v", c.s, got, kind, c.want, c.kind)
		}
	}
	// The ordering the terms exist for.
	if !(terms.KingCapture > terms.Mate && terms.Mate > terms.MaxCP && terms.KingCapturable > terms.MaxCP) {
		t.Fatalf("default terms out of order: %+v", terms)
	}
}

func TestScoreRequestResolves(t *testing.T) {
	ev := &countingEvaluator{}
	ms := NewMoveScorer(ev, DefaultMoveTerms(), 100)
	ctx := context.Background()
	// a1a8 is a move action; on the true board the rook stops on a5 and captures.
	b := chess.MustParseFEN("k7/8/8/p7/8/8/8/R3K3 w - - 0 1")
	s, err := ms.ScoreRequest(ctx, b, mustMove(t, "a1a8"), Limits{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Taken.String() != "a1a5" || s.Capture != chess.A5 {
		t.Fatalf("taken %v ×%v, want a1a5 ×a5", s.Taken, s.Capture)
	}
	// A second request resolving to the same taken move is a cache hit.
	if _, err := ms.ScoreRequest(ctx, b, mustMove(t, "a1a7"), Limits{Depth: 1}); err != nil {
		t.Fatal(err)
	}
	if ev.calls.Load() != 1 {
		t.Fatalf("%d evaluations, want 1 (a1a7 and a1a8 both take a1a5)", ev.calls.Load())
	}
	// A bare promotion request becomes a queen promotion.
	p := chess.MustParseFEN("7k/P7/8/8/8/8/8/4K3 w - - 0 1")
	s, err = ms.ScoreRequest(ctx, p, mustMove(t, "a7a8"), Limits{Depth: 1})
	if err != nil || s.Taken.String() != "a7a8q" {
		t.Fatalf("promotion: %v, %v", s.Taken, err)
	}
	// A blocked castling request is no move at all.
	c := chess.MustParseFEN("4k3/8/8/8/8/8/8/4K1nR w K - 0 1")
	s, err = ms.ScoreRequest(ctx, c, mustMove(t, "e1g1"), Limits{Depth: 1})
	if err != nil || !s.Taken.IsNull() {
		t.Fatalf("blocked castling: taken %v, %v", s.Taken, err)
	}
	// Not a move action.
	if _, err := ms.ScoreRequest(ctx, b, mustMove(t, "a1b3"), Limits{Depth: 1}); err == nil {
		t.Fatal("a1b3 accepted")
	}
	// A taken move that is not an option.
	if _, err := ms.ScoreTaken(ctx, b, mustMove(t, "a1a8"), Limits{Depth: 1}); !errors.Is(err, ErrNotOption) {
		t.Fatalf("err %v, want ErrNotOption", err)
	}
}
