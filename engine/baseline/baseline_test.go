package baseline

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

func mustMoves(t *testing.T, uci ...string) []chess.Move {
	t.Helper()
	out := make([]chess.Move, len(uci))
	for i, s := range uci {
		m, err := chess.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = m
	}
	return out
}

func allSquares() []chess.Square {
	s := make([]chess.Square, 64)
	for i := range s {
		s[i] = chess.Square(i)
	}
	return s
}

// TestRandomMoveIsUniformOverActionsAndPass: like random.choice(move_actions
// + [None]), each of the n moves and the pass has chance 1/(n+1).
func TestRandomMoveIsUniformOverActionsAndPass(t *testing.T) {
	ctx := context.Background()
	b := NewRandom(newRand(1))
	actions := mustMoves(t, "e2e4", "d2d4", "g1f3")
	counts := map[string]int{}
	const n = 40000
	for range n {
		m, err := b.ChooseMove(ctx, actions, 0)
		if err != nil {
			t.Fatal(err)
		}
		counts[m.String()]++
	}
	for _, k := range []string{"e2e4", "d2d4", "g1f3", "0000"} {
		if c := counts[k]; c < n/4-600 || c > n/4+600 { // ±6σ
			t.Errorf("%s chosen %d times of %d, want about %d", k, c, n, n/4)
		}
	}
	if len(counts) != 4 {
		t.Errorf("choices outside the actions: %v", counts)
	}
	// With no move actions it can only pass.
	if m, _ := b.ChooseMove(ctx, nil, 0); !m.IsNull() {
		t.Errorf("no actions: got %v", m)
	}
}

// TestRandomSenseCoversEverySquare: senses are drawn from all 64 squares.
func TestRandomSenseCoversEverySquare(t *testing.T) {
	b := NewRandom(newRand(2))
	seen := map[chess.Square]int{}
	for range 6400 {
		s, _ := b.ChooseSense(context.Background(), allSquares(), nil, 0)
		seen[s]++
	}
	if len(seen) != 64 {
		t.Errorf("%d squares sensed, want 64", len(seen))
	}
	for s, c := range seen {
		if c < 40 || c > 180 {
			t.Errorf("square %v sensed %d times of 6400", s, c)
		}
	}
}

// TestRandomIsReproducibleFromSeed: the same seed makes the same choices.
func TestRandomIsReproducibleFromSeed(t *testing.T) {
	a, b := NewRandom(newRand(7)), NewRandom(newRand(7))
	board := chess.StartBoard()
	actions := board.MoveActions()
	for range 100 {
		ma, _ := a.ChooseMove(context.Background(), actions, 0)
		mb, _ := b.ChooseMove(context.Background(), actions, 0)
		sa, _ := a.ChooseSense(context.Background(), allSquares(), actions, 0)
		sb, _ := b.ChooseSense(context.Background(), allSquares(), actions, 0)
		if ma != mb || sa != sb {
			t.Fatal("same seed, different choices")
		}
	}
}

// TestAttackerPlaysRushThenKingCapture: the e4/Bc4/Qh5/Bxf7 rush against a
// passing opponent ends by taking the king on e8.
func TestAttackerPlaysRushThenKingCapture(t *testing.T) {
	ctx := context.Background()
	a := NewAttacker(newRand(1))
	a.rush = 3
	a.HandleGameStart(ctx, chess.White, chess.StartBoard(), "x")
	board := chess.StartBoard()
	var got []string
	for !board.KingMissing(chess.Black) && len(got) < 10 {
		m, _ := a.ChooseMove(ctx, board.MoveActions(), 0)
		got = append(got, m.String())
		rbc.Play(&board, m)
		rbc.Play(&board, chess.Move{}) // black passes
	}
	if want := []string{"e2e4", "f1c4", "d1h5", "c4f7", "f7e8"}; !slices.Equal(got, want) {
		t.Errorf("moves %v, want %v", got, want)
	}
}

// TestAttackerMirrorsForBlackAndSkipsMissingMoves: as Black the script is
// mirrored; scripted moves not in the actions are dropped; then it passes.
func TestAttackerMirrorsForBlackAndSkipsMissingMoves(t *testing.T) {
	ctx := context.Background()
	a := NewAttacker(newRand(1))
	a.rush = 0
	a.HandleGameStart(ctx, chess.Black, chess.StartBoard(), "x")
	steps := []struct {
		actions []string
		want    string
	}{
		{[]string{"a7a6", "b8c6", "b8a6"}, "b8c6"},
		{[]string{"a7a6", "d3e1"}, "d3e1"}, // c6b4 and b4d3 are dropped
		{[]string{"a7a6", "b8c6"}, "0000"}, // script used up
	}
	for i, s := range steps {
		m, err := a.ChooseMove(ctx, mustMoves(t, s.actions...), 0)
		if err != nil || m.String() != s.want {
			t.Errorf("step %d: got %v %v, want %s", i, m, err, s.want)
		}
	}
}

// TestAttackerPicksEachRushUniformly: the rush is drawn uniformly at creation.
func TestAttackerPicksEachRushUniformly(t *testing.T) {
	var counts [4]int
	rng := newRand(3)
	for range 4000 {
		counts[NewAttacker(rng).Rush()]++
	}
	for i, c := range counts {
		if c < 850 || c > 1150 {
			t.Errorf("rush %d picked %d times of 4000", i, c)
		}
	}
}

// TestAttackerRushesAreMoveActionsAtTheirTurn: each rush, played against a
// passing opponent, requests only move actions and never drops a move.
func TestAttackerRushesAreMoveActionsAtTheirTurn(t *testing.T) {
	for rush := range 4 {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			moves := rushMoves(rush, c)
			board := chess.StartBoard()
			if c == chess.Black {
				rbc.Play(&board, chess.Move{})
			}
			for i, m := range moves {
				if board.KingMissing(c.Other()) {
					break // the rush captured the king early (the last rush has a spare move)
				}
				if !board.IsMoveAction(m) {
					t.Errorf("rush %d as %v: move %d %v is not a move action", rush, c, i, m)
				}
				rbc.Play(&board, m)
				rbc.Play(&board, chess.Move{})
			}
			if !board.KingMissing(c.Other()) {
				t.Errorf("rush %d as %v does not take a passive king", rush, c)
			}
		}
	}
}
