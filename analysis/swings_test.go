package analysis

import (
	"context"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// TestScoresFollowTheGame: one ply a move, in the order of play, each board
// scored from White's side, the board after a move scored as the one before
// the next, and the king capture that ends the game at the win value.
func TestScoresFollowTheGame(t *testing.T) {
	h, err := record.LoadHistoryFile("../testdata/histories/attacker_bot-random_bot-3-000.json")
	if err != nil {
		t.Fatal(err)
	}
	e := evaluator.NewEmbedded()
	defer e.Close()
	plies, err := Scores(context.Background(), e, h, evaluator.Limits{Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for c := range h.Turns {
		for _, r := range h.Turns[c] {
			if r.HasMove {
				moves++
			}
		}
	}
	if len(plies) != moves {
		t.Fatalf("%d plies, want %d (one a move)", len(plies), moves)
	}
	for i, p := range plies {
		if want := chess.Color(i % 2); p.Color != want || p.Turn != i/2+1 {
			t.Fatalf("ply %d is %s's turn %d", i, p.Color, p.Turn)
		}
		if i > 0 && p.Before != plies[i-1].After {
			t.Errorf("ply %d starts at %d, the ply before ended at %d", i, p.Before, plies[i-1].After)
		}
		if p.Swing() != p.After-p.Before {
			t.Errorf("ply %d: swing %d", i, p.Swing())
		}
	}
	last := plies[len(plies)-1]
	win := evaluator.WinValue
	if h.Outcome.Winner == chess.Black {
		win = -win
	}
	if h.Outcome.Reason != rbc.KingCapture || last.After != win {
		t.Errorf("the game ends %v with a score of %d, want %d", h.Outcome, last.After, win)
	}
	// The score is White's: the start position is about even, and a
	// board with Black's queen gone is far better for White.
	start := chess.StartBoard()
	noQueen, err := chess.ParseFEN("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	one := &rbc.History{Turns: [2][]rbc.TurnRecord{{{HasMove: true, FENBefore: start.FEN(), FENAfter: noQueen.FEN()}}}}
	p, err := Scores(context.Background(), e, one, evaluator.Limits{Depth: 1})
	if err != nil || len(p) != 1 {
		t.Fatalf("%v %v", p, err)
	}
	if p[0].Before < -100 || p[0].Before > 100 || p[0].Swing() < 600 {
		t.Errorf("start %d, swing %d: want about 0 and a queen for White", p[0].Before, p[0].Swing())
	}
}

// TestScoresBadRecord: a board that does not parse is an error naming the turn.
func TestScoresBadRecord(t *testing.T) {
	h := &rbc.History{Turns: [2][]rbc.TurnRecord{{{HasMove: true, FENBefore: "not a fen", FENAfter: "x"}}}}
	e := evaluator.NewEmbedded()
	defer e.Close()
	if _, err := Scores(context.Background(), e, h, evaluator.Limits{Depth: 1}); err == nil {
		t.Error("no error for a record whose board does not parse")
	}
}

func TestMoveText(t *testing.T) {
	if got := MoveText(chess.Move{}); got != "pass" {
		t.Errorf("null move: %q", got)
	}
	m, err := chess.ParseMove("a7a8q")
	if err != nil {
		t.Fatal(err)
	}
	if got := MoveText(m); got != "a7a8q" {
		t.Errorf("a7a8q: %q", got)
	}
}
