package rbc

import (
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Unit tests, one per rule of ../shared/docs/rbc-rules.md. Each names the rule.

func mustMove(t *testing.T, uci string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func resolve(t *testing.T, fen, req string) (string, chess.Square) {
	t.Helper()
	b := chess.MustParseFEN(fen)
	m := WithQueenDefault(&b, mustMove(t, req))
	if !b.IsMoveAction(m) {
		t.Fatalf("%s is not a move action on %s", req, fen)
	}
	taken, capture := Resolve(&b, m)
	return taken.String(), capture
}

func TestBarePromotionDefaultsToQueen(t *testing.T) {
	b := chess.MustParseFEN("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	if got := WithQueenDefault(&b, mustMove(t, "b7b8")); got.String() != "b7b8q" {
		t.Fatalf("got %v, want b7b8q", got)
	}
	if got := WithQueenDefault(&b, mustMove(t, "b7b8n")); got.String() != "b7b8n" {
		t.Fatalf("an explicit promotion must be kept, got %v", got)
	}
}

func TestSliderStopsOnFirstOpponentPieceAndCapturesIt(t *testing.T) {
	taken, capture := resolve(t, "4k3/p7/8/p7/8/8/8/R3K3 w Q - 0 1", "a1a8")
	if taken != "a1a5" || capture != chess.A5 {
		t.Fatalf("a1a8 became %s ×%v, want a1a5 ×a5", taken, capture)
	}
}

func TestPseudoLegalRequestIsTakenAsRequested(t *testing.T) {
	taken, capture := resolve(t, chess.StartFEN, "g1f3")
	if taken != "g1f3" || capture != chess.NoSquare {
		t.Fatalf("got %s ×%v", taken, capture)
	}
}

func TestBlockedDoublePushBecomesSinglePush(t *testing.T) {
	taken, capture := resolve(t, "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e2e4")
	if taken != "e2e3" || capture != chess.NoSquare {
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
	if taken != "0000" || capture != chess.NoSquare {
		t.Fatalf("got %s ×%v, want no move", taken, capture)
	}
}

func TestPawnDiagonalOntoEmptySquareIsNoMove(t *testing.T) {
	taken, _ := resolve(t, chess.StartFEN, "e2d3")
	if taken != "0000" {
		t.Fatalf("got %s, want no move", taken)
	}
}

func TestEnPassantReportsTheCapturedPawnsSquare(t *testing.T) {
	taken, capture := resolve(t, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6")
	if taken != "e5d6" || capture != chess.D5 {
		t.Fatalf("got %s ×%v, want e5d6 ×d5", taken, capture)
	}
	b := chess.MustParseFEN("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2")
	Play(&b, mustMove(t, "e5d6"))
	if b.PieceAt(chess.D5) != chess.NoPiece || b.PieceAt(chess.D6) != chess.MakePiece(chess.White, chess.Pawn) {
		t.Fatal("en passant must remove the pawn on d5")
	}
}

func TestCastlingWithAnyPieceBetweenIsNoMove(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4Kn1R w K - 0 1", // opponent piece between
		"4k3/8/8/8/8/8/8/R2nK3 w Q - 0 1",
	} {
		b := chess.MustParseFEN(fen)
		for _, req := range []string{"e1g1", "e1c1"} {
			m := mustMove(t, req)
			if !b.IsMoveAction(m) {
				continue
			}
			if taken, capture := Resolve(&b, m); !taken.IsNull() || capture != chess.NoSquare {
				t.Errorf("%s %s: got %v ×%v, want no move and no capture", fen, req, taken, capture)
			}
		}
	}
}

func TestCastlingOutOfThroughAndIntoCheckIsAllowed(t *testing.T) {
	b := chess.MustParseFEN("4rrr1/k7/8/8/8/8/8/4K2R w K - 0 1")
	taken, _ := Play(&b, mustMove(t, "e1g1"))
	if taken.String() != "e1g1" || b.PieceAt(chess.G1).Type() != chess.King || b.PieceAt(chess.F1).Type() != chess.Rook {
		t.Fatalf("castling must happen: %v %s", taken, b.FEN())
	}
	if b.Castling()&(chess.WhiteKingside|chess.WhiteQueenside) != 0 {
		t.Fatal("castling must clear White's rights")
	}
}

func TestPromotionIsKeptAndApplied(t *testing.T) {
	b := chess.MustParseFEN("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
	taken, capture := Play(&b, mustMove(t, "b7a8n"))
	if taken.String() != "b7a8n" || capture != chess.A8 || b.PieceAt(chess.A8) != chess.MakePiece(chess.White, chess.Knight) {
		t.Fatalf("got %v ×%v %s", taken, capture, b.FEN())
	}
}

func TestDoublePushAlwaysRecordsEnPassantSquare(t *testing.T) {
	b := chess.StartBoard()
	Play(&b, mustMove(t, "e2e4"))
	if b.FEN() != "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" {
		t.Fatalf("got %s", b.FEN())
	}
}

func TestSenseWindowOrderAndClipping(t *testing.T) {
	b := chess.StartBoard()
	for _, c := range []struct {
		center chess.Square
		want   []chess.Square
	}{
		{chess.A1, []chess.Square{chess.A2, chess.B2, chess.A1, chess.B1}},
		{chess.H5, []chess.Square{chess.G6, chess.H6, chess.G5, chess.H5, chess.G4, chess.H4}},
		{chess.B2, []chess.Square{chess.A3, chess.B3, chess.C3, chess.A2, chess.B2, chess.C2, chess.A1, chess.B1, chess.C1}},
	} {
		var got []chess.Square
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
	if len(Sense(&b, chess.NoSquare)) != 0 {
		t.Error("a passed sense shows nothing")
	}
}

func TestSenseKeyIdentifiesWhatTheWindowShows(t *testing.T) {
	a := chess.StartBoard()
	b := chess.MustParseFEN("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if SenseKey(&a, chess.B7) != SenseKey(&b, chess.B7) {
		t.Error("windows away from the change must agree")
	}
	if SenseKey(&a, chess.E3) == SenseKey(&b, chess.E3) {
		t.Error("the window over e2–e4 must tell the boards apart")
	}
}

func TestKingCaptureDetection(t *testing.T) {
	b := chess.MustParseFEN("4k3/8/8/8/8/8/8/4RK2 w - - 0 1")
	if !b.KingCapturable() {
		t.Error("the rook on e1 can take the king on e8")
	}
	Play(&b, mustMove(t, "e1e8"))
	if !b.KingMissing(chess.Black) || b.KingMissing(chess.White) {
		t.Error("after e1e8 Black has no king")
	}
	if start := chess.StartBoard(); start.KingCapturable() {
		t.Error("no king is capturable at the start")
	}
}
