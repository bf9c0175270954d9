package chess

import (
	"errors"
	"slices"
	"testing"
	"unsafe"
)

// Unit tests, one per rule of ../shared/docs/rbc-rules.md. Each names the rule.

func moveStrings(ms []Move) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	slices.Sort(out)
	return out
}

func mustMove(t *testing.T, uci string) Move {
	t.Helper()
	m, err := ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStartPositionHas34MoveActions(t *testing.T) {
	b := StartBoard()
	if n := len(b.MoveActions()); n != 34 {
		t.Fatalf("start position: %d move actions, want 34 (20 moves + 14 pawn diagonals)", n)
	}
}

func TestMoveActionsIgnoreOpponentPieces(t *testing.T) {
	// The rook on a1 may request a1a8 although black pieces stand on a5 and a7.
	b := MustParseFEN("4k3/p7/8/p7/8/8/8/R3K3 w Q - 0 1")
	if !b.IsMoveAction(mustMove(t, "a1a8")) {
		t.Fatal("a1a8 must be a move action: opponent pieces are not seen")
	}
}

func TestMoveActionsDependOnOwnPiecesOnly(t *testing.T) {
	a := MustParseFEN("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
	b := MustParseFEN("4k3/8/8/3q4/1n6/8/PPPPPPPP/R3K2R w KQ - 0 1")
	if !slices.Equal(moveStrings(a.MoveActions()), moveStrings(b.MoveActions())) {
		t.Fatal("boards with the same white pieces must give White the same move actions")
	}
}

func TestMoveActionsIncludePawnDiagonalsOntoEmptySquares(t *testing.T) {
	b := StartBoard()
	for _, uci := range []string{"e2d3", "e2f3", "a2b3", "h2g3"} {
		if !b.IsMoveAction(mustMove(t, uci)) {
			t.Errorf("%s missing", uci)
		}
	}
	if b.IsMoveAction(mustMove(t, "b1d2")) {
		t.Error("b1d2 lands on an own piece and must not be a move action")
	}
}

func TestBackRankPawnDiagonalsComeBareAndWithEachPromotion(t *testing.T) {
	b := MustParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	got := moveStrings(b.MoveActions())
	for _, uci := range []string{"b7a8", "b7a8n", "b7a8b", "b7a8r", "b7a8q", "b7c8", "b7c8q", "b7b8q", "b7b8n"} {
		if !slices.Contains(got, uci) {
			t.Errorf("%s missing from %v", uci, got)
		}
	}
	if slices.Contains(got, "b7b8") {
		t.Error("a bare straight promotion is not listed by the harness")
	}
}

func TestCastlingIsAMoveActionDespiteCheckAndOpponentPieces(t *testing.T) {
	// White is in check from the rook on e8 and a black knight stands on f1.
	b := MustParseFEN("4r1k1/8/8/8/8/8/8/4Kn1R w K - 0 1")
	if !b.IsMoveAction(mustMove(t, "e1g1")) {
		t.Fatal("castling needs only the right and no own piece between king and rook")
	}
}

func TestNoMoveIsANullMove(t *testing.T) {
	b := MustParseFEN("4k3/8/8/8/4P3/8/8/4K3 b - e3 3 7")
	if c := b.Apply(Move{}); c != NoSquare {
		t.Fatalf("null move captured on %v", c)
	}
	if b.FEN() != "4k3/8/8/8/4P3/8/8/4K3 w - - 4 8" {
		t.Fatalf("null move: %s", b.FEN())
	}
}

func TestOptionsIncludePassAndCastlingThroughCheck(t *testing.T) {
	b := MustParseFEN("4rrr1/k7/8/8/8/8/8/4K2R w K - 0 1")
	opts := b.AppendOptions(nil)
	if !opts[len(opts)-1].IsNull() {
		t.Error("the pass must be an option")
	}
	if !slices.Contains(opts, mustMove(t, "e1g1")) {
		t.Error("castling through check is an RBC option")
	}
}

func TestOptionsAnnounceTheirCaptureSquares(t *testing.T) {
	b := MustParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
	for _, m := range b.AppendOptions(nil) {
		c := b
		got := c.Apply(m)
		if want := b.CaptureSquare(m); got != want {
			t.Errorf("%v: Apply reports %v, CaptureSquare %v", m, got, want)
		}
	}
}

func TestKeyIgnoresMoveCountersAndUnusableEnPassant(t *testing.T) {
	a := MustParseFEN("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1")
	b := MustParseFEN("4k3/8/8/8/4P3/8/8/4K3 b - - 17 40")
	if a.Key() != b.Key() {
		t.Error("an en-passant square no pawn can use, and the counters, must not change the key")
	}
	c := MustParseFEN("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
	d := MustParseFEN("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1")
	if c.Key() == d.Key() {
		t.Error("a usable en-passant square must change the key")
	}
	w := MustParseFEN("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
	bl := MustParseFEN("4k3/8/8/8/8/8/8/4K3 b - - 0 1")
	if w.Key() == bl.Key() {
		t.Error("the side to move must change the key")
	}
}

func TestFENErrorsNameTheField(t *testing.T) {
	for _, c := range []struct{ fen, field string }{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{"Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "placement"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "castling"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", "fullmove number"},
		{"", "fields"},
	} {
		_, err := ParseFEN(c.fen)
		var fe *FENError
		if !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("%q: got %v, want an error in the %s field", c.fen, err, c.field)
		}
	}
}

func TestFENAcceptsHarnessOnlyPositions(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4RK2 w - - 0 1",                           // side to move can take the king
		"8/8/8/8/8/8/8/4K3 b - - 0 30",                             // a king was captured
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", // start
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",     // counters left out
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
	} {
		b, err := ParseFEN(fen)
		if err != nil {
			t.Errorf("%q: %v", fen, err)
			continue
		}
		if _, err := ParseFEN(b.FEN()); err != nil {
			t.Errorf("%q does not round-trip: %v", fen, err)
		}
	}
}

func TestBoardIsAtMost96Bytes(t *testing.T) {
	if n := unsafe.Sizeof(Board{}); n > 96 {
		t.Fatalf("Board is %d bytes", n)
	}
}

// TestSlidingAttacksMatchRayWalk compares the magic tables with a plain ray
// walk on random occupancies, for every square.
func TestSlidingAttacksMatchRayWalk(t *testing.T) {
	seed := uint64(12345)
	for s := Square(0); s < 64; s++ {
		for i := 0; i < 200; i++ {
			r1, r2 := rand64(&seed), rand64(&seed)
			occ := Bitboard(r1 & r2)
			if got, want := RookAttacks(s, occ), slidingAttacks(s, occ, rookDirs); got != want {
				t.Fatalf("rook %v occ %#x: %#x want %#x", s, occ, got, want)
			}
			if got, want := BishopAttacks(s, occ), slidingAttacks(s, occ, bishopDirs); got != want {
				t.Fatalf("bishop %v occ %#x: %#x want %#x", s, occ, got, want)
			}
		}
	}
}

// TestEnPassantTaken: the pawn an en-passant capture takes stands behind the
// en-passant square, seen from the side to move; with no en-passant square
// there is none.
func TestEnPassantTaken(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want Square
	}{
		{"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", F5},
		{"rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2", D4},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", NoSquare},
	} {
		b, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.EnPassantTaken(); got != tc.want {
			t.Errorf("%s: EnPassantTaken %v, want %v", tc.fen, got, tc.want)
		}
	}
}
