package rbc

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

func resolve(t *testing.T, fen, req string) (string, Square) {
	t.Helper()
	b := MustParseFEN(fen)
	m := WithQueenDefault(&b, mustMove(t, req))
	if !b.IsMoveAction(m) {
		t.Fatalf("%s is not a move action on %s", req, fen)
	}
	taken, capture := Resolve(&b, m)
	return taken.String(), capture
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

func TestBarePromotionDefaultsToQueen(t *testing.T) {
	b := MustParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if got := WithQueenDefault(&b, mustMove(t, "b7b8")); got.String() != "b7b8q" {
		t.Fatalf("got %v, want b7b8q", got)
	}
	if got := WithQueenDefault(&b, mustMove(t, "b7b8n")); got.String() != "b7b8n" {
		t.Fatalf("an explicit promotion must be kept, got %v", got)
	}
}

func TestCastlingIsAMoveActionDespiteCheckAndOpponentPieces(t *testing.T) {
	// White is in check from the rook on e8 and a black knight stands on f1.
	b := MustParseFEN("4r1k1/8/8/8/8/8/8/4Kn1R w K - 0 1")
	if !b.IsMoveAction(mustMove(t, "e1g1")) {
		t.Fatal("castling needs only the right and no own piece between king and rook")
	}
}

func TestSliderStopsOnFirstOpponentPieceAndCapturesIt(t *testing.T) {
	taken, capture := resolve(t, "4k3/p7/8/p7/8/8/8/R3K3 w Q - 0 1", "a1a8")
	if taken != "a1a5" || capture != A5 {
		t.Fatalf("a1a8 became %s ×%v, want a1a5 ×a5", taken, capture)
	}
}

func TestPseudoLegalRequestIsTakenAsRequested(t *testing.T) {
	taken, capture := resolve(t, StartFEN, "g1f3")
	if taken != "g1f3" || capture != NoSquare {
		t.Fatalf("got %s ×%v", taken, capture)
	}
}

func TestBlockedDoublePushBecomesSinglePush(t *testing.T) {
	taken, capture := resolve(t, "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e2e4")
	if taken != "e2e3" || capture != NoSquare {
		t.Fatalf("got %s ×%v, want e2e3", taken, capture)
	}
}

func TestDoublePushBlockedOnFirstSquareIsNoMove(t *testing.T) {
	taken, _ := resolve(t, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e4")
	if taken != "0000" {
		t.Fatalf("got %s, want no move", taken)
	}
}

func TestPawnNeverCapturesStraightAhead(t *testing.T) {
	taken, capture := resolve(t, "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e3")
	if taken != "0000" || capture != NoSquare {
		t.Fatalf("got %s ×%v, want no move", taken, capture)
	}
}

func TestPawnDiagonalOntoEmptySquareIsNoMove(t *testing.T) {
	taken, _ := resolve(t, StartFEN, "e2d3")
	if taken != "0000" {
		t.Fatalf("got %s, want no move", taken)
	}
}

func TestEnPassantReportsTheCapturedPawnsSquare(t *testing.T) {
	taken, capture := resolve(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6")
	if taken != "e5d6" || capture != D5 {
		t.Fatalf("got %s ×%v, want e5d6 ×d5", taken, capture)
	}
	b := MustParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
	Play(&b, mustMove(t, "e5d6"))
	if b.PieceAt(D5) != NoPiece || b.PieceAt(D6) != MakePiece(White, Pawn) {
		t.Fatal("en passant must remove the pawn on d5")
	}
}

func TestCastlingWithAnyPieceBetweenIsNoMove(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4Kn1R w K - 0 1", // opponent piece between
		"4k3/8/8/8/8/8/8/R2nK3 w Q - 0 1",
	} {
		b := MustParseFEN(fen)
		for _, req := range []string{"e1g1", "e1c1"} {
			m := mustMove(t, req)
			if !b.IsMoveAction(m) {
				continue
			}
			if taken, capture := Resolve(&b, m); !taken.IsNull() || capture != NoSquare {
				t.Errorf("%s %s: got %v ×%v, want no move and no capture", fen, req, taken, capture)
			}
		}
	}
}

func TestCastlingOutOfThroughAndIntoCheckIsAllowed(t *testing.T) {
	b := MustParseFEN("4rrr1/k7/8/8/8/8/8/4K2R w K - 0 1")
	taken, _ := Play(&b, mustMove(t, "e1g1"))
	if taken.String() != "e1g1" || b.PieceAt(G1).Type() != King || b.PieceAt(F1).Type() != Rook {
		t.Fatalf("castling must happen: %v %s", taken, b.FEN())
	}
	if b.Castling()&(WhiteKingside|WhiteQueenside) != 0 {
		t.Fatal("castling must clear White's rights")
	}
}

func TestPromotionIsKeptAndApplied(t *testing.T) {
	b := MustParseFEN("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	taken, capture := Play(&b, mustMove(t, "b7a8n"))
	if taken.String() != "b7a8n" || capture != A8 || b.PieceAt(A8) != MakePiece(White, Knight) {
		t.Fatalf("got %v ×%v %s", taken, capture, b.FEN())
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

func TestDoublePushAlwaysRecordsEnPassantSquare(t *testing.T) {
	b := StartBoard()
	Play(&b, mustMove(t, "e2e4"))
	if b.FEN() != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Fatalf("got %s", b.FEN())
	}
}

func TestSenseWindowOrderAndClipping(t *testing.T) {
	b := StartBoard()
	for _, c := range []struct {
		center Square
		want   []Square
	}{
		{A1, []Square{A2, B2, A1, B1}},
		{H5, []Square{G6, H6, G5, H5, G4, H4}},
		{B2, []Square{A3, B3, C3, A2, B2, C2, A1, B1, C1}},
	} {
		var got []Square
		for _, sp := range Sense(&b, c.center) {
			got = append(got, sp.Square)
			if sp.Piece != b.PieceAt(sp.Square) {
				t.Errorf("sense %v: wrong piece on %v", c.center, sp.Square)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("sense %v: %v, want %v", c.center, got, c.want)
		}
	}
	if len(Sense(&b, NoSquare)) != 0 {
		t.Error("a passed sense shows nothing")
	}
}

func TestSenseKeyIdentifiesWhatTheWindowShows(t *testing.T) {
	a := StartBoard()
	b := MustParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if SenseKey(&a, B7) != SenseKey(&b, B7) {
		t.Error("windows away from the change must agree")
	}
	if SenseKey(&a, E3) == SenseKey(&b, E3) {
		t.Error("the window over e2–e4 must tell the boards apart")
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

func TestKingCaptureDetection(t *testing.T) {
	b := MustParseFEN("4k3/8/8/8/8/8/8/4RK2 w - - 0 1")
	if !b.KingCapturable() {
		t.Error("the rook on e1 can take the king on e8")
	}
	Play(&b, mustMove(t, "e1e8"))
	if !b.KingMissing(Black) || b.KingMissing(White) {
		t.Error("after e1e8 Black has no king")
	}
	if start := StartBoard(); start.KingCapturable() {
		t.Error("no king is capturable at the start")
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
