package terminal

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestScriptedHuman drives a game from scripted input: help texts, every
// kind of bad input with its explanation, a sense, a move, and the end of
// input, which resigns cleanly.
func TestScriptedHuman(t *testing.T) {
	script := strings.Join([]string{
		"help", "e9", "E7", // sense: help, a bad square, then e7 (case-insensitive)
		"help", "xyz", "e3e4", "e2e5", "e1e2", "e2e4", // move: help, junk, no piece, not an action, blocked king, then e2e4
	}, "\n") + "\n"
	var out bytes.Buffer
	h, err := Play(context.Background(), Game{Color: chess.White, Opponent: randbot.New(7), OpponentName: "random",
		Initial: 60 * time.Second, Increment: time.Second, In: strings.NewReader(script), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"You play white against random, clock 60+1 s.",
		"Opponent: random.",
		"   a  b  c  d  e  f  g  h",
		"Name a square: you will see the 3×3 window",
		`"e9" is not a square`,
		"Sense: opponent's",
		"[k]", // e8's king in the window around e7
		"Your move actions",
		"  P e2: e3 e4 d3 f3",
		`"xyz" is not a move`,
		"You have no piece on e3.",
		"e2e5 is not one of your move actions. Your pawn on e2 may request: e2e3 e2e4 e2d3 e2f3.",
		"Your king on e1 has no move actions now.",
		"You played e2e4.",
		"End of input: you resign.",
		"You lose: you resigned (end of input).",
		"The real board at the end:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(text, "failed") || strings.Contains(text, "ChooseSense") {
		t.Error("the end of input is told as the referee's internal detail")
	}
	if t.Failed() {
		t.Log(text)
	}
	if h.WhiteName != "you" || h.BlackName != "random" {
		t.Errorf("record names %q, %q", h.WhiteName, h.BlackName)
	}
	w := h.Turns[chess.White]
	if len(w) != 1 || w[0].Sense != chess.E7 || w[0].Requested != (chess.Move{From: chess.E2, To: chess.E4}) {
		t.Fatalf("White's record: %+v", w)
	}
	if o := h.Outcome; !o.HasWinner || o.Winner != chess.Black || o.Reason != rbc.Resign {
		t.Errorf("outcome %v, want Black wins by resignation", o)
	}
}

// TestPassingHumanLosesToARaid: as Black, passing every sense and move, the
// human loses to a knight raid by king capture, and is shown its view from
// Black's side.
func TestPassingHumanLosesToARaid(t *testing.T) {
	script := strings.Repeat("pass\n", 200)
	var out bytes.Buffer
	raid := &scripted{moves: []chess.Move{{From: chess.B1, To: chess.C3}, {From: chess.C3, To: chess.D5}, {From: chess.D5, To: chess.F6}, {From: chess.F6, To: chess.E8}}}
	h, err := Play(context.Background(), Game{Color: chess.Black, Opponent: raid, OpponentName: "raid",
		Initial: 60 * time.Second, Increment: time.Second, In: strings.NewReader(script), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if o := h.Outcome; o.Winner != chess.White || o.Reason != rbc.KingCapture {
		t.Fatalf("outcome %v\n%s", o, text)
	}
	for _, want := range []string{"You play black against raid", "    h  g  f  e  d  c  b  a", "You passed.",
		"The opponent moved; none of your pieces was captured.", "You lose by KING_CAPTURE."} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q\n%s", want, text)
		}
	}
	if strings.Contains(text, "End of input") {
		t.Error("the game outlasted the script")
	}
}

// TestOwnPiecesFollowTheMoves: the board the person is shown follows its
// own moves, castling's rook and promotion included, and drops a piece the
// opponent captured.
func TestOwnPiecesFollowTheMoves(t *testing.T) {
	var out bytes.Buffer
	h := NewPlayer(strings.NewReader(""), &out)
	b, err := chess.ParseFEN("r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := h.HandleGameStart(ctx, chess.White, b, "x"); err != nil {
		t.Fatal(err)
	}
	if h.own.PieceAt(chess.A8) != chess.NoPiece || h.own.PieceAt(chess.E8) != chess.NoPiece {
		t.Fatal("the opponent's pieces are on our board")
	}
	castle := chess.Move{From: chess.E1, To: chess.G1}
	promote := chess.Move{From: chess.B7, To: chess.B8}
	for _, m := range []chess.Move{castle, promote} {
		taken := m
		if m == promote {
			taken.Promotion = chess.Queen
		}
		if err := h.HandleMoveResult(ctx, m, taken, false, chess.NoSquare); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.HandleOpponentMoveResult(ctx, true, chess.A1); err != nil {
		t.Fatal(err)
	}
	want := map[chess.Square]chess.Piece{
		chess.G1: chess.MakePiece(chess.White, chess.King), chess.F1: chess.MakePiece(chess.White, chess.Rook),
		chess.B8: chess.MakePiece(chess.White, chess.Queen), chess.E1: chess.NoPiece, chess.H1: chess.NoPiece, chess.A1: chess.NoPiece,
	}
	for s, p := range want {
		if got := h.own.PieceAt(s); got != p {
			t.Errorf("%s holds %v, want %v", s, got, p)
		}
	}
	if !strings.Contains(out.String(), "The opponent captured your rook on a1.") {
		t.Errorf("no capture notice:\n%s", out.String())
	}
}

// TestResignByCommand: 'resign' ends the game with a plain message, not
// the referee's detail about a failed callback.
func TestResignByCommand(t *testing.T) {
	var out bytes.Buffer
	h, err := Play(context.Background(), Game{Color: chess.Black, Opponent: &scripted{}, OpponentName: "passer",
		Initial: 60 * time.Second, Increment: time.Second, In: strings.NewReader("resign\n"), Out: &out})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if o := h.Outcome; o.Winner != chess.White || o.Reason != rbc.Resign {
		t.Fatalf("outcome %v\n%s", o, text)
	}
	if !strings.Contains(text, "You lose: you resigned.\n") || strings.Contains(text, "failed") {
		t.Errorf("output:\n%s", text)
	}
}

// scripted plays its moves in order, then passes, and never senses: a
// predictable opponent for the tests.
type scripted struct {
	moves []chess.Move
	next  int
}

func (s *scripted) HandleGameStart(context.Context, chess.Color, chess.Board, string) error {
	return nil
}
func (s *scripted) HandleOpponentMoveResult(context.Context, bool, chess.Square) error { return nil }
func (s *scripted) ChooseSense(context.Context, []chess.Square, []chess.Move, time.Duration) (chess.Square, error) {
	return chess.NoSquare, nil
}
func (s *scripted) HandleSenseResult(context.Context, []rbc.SquarePiece) error { return nil }
func (s *scripted) ChooseMove(context.Context, []chess.Move, time.Duration) (chess.Move, error) {
	if s.next >= len(s.moves) {
		return chess.Move{}, nil
	}
	s.next++
	return s.moves[s.next-1], nil
}
func (s *scripted) HandleMoveResult(context.Context, chess.Move, chess.Move, bool, chess.Square) error {
	return nil
}
func (s *scripted) HandleGameEnd(context.Context, rbc.Outcome, *rbc.History) error { return nil }
