package sampler

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestMoveResultFilter checks the move-result filter case by case: each
// board (us to move) is kept iff the request resolves on it to the observed
// taken move and capture square, and is then played.
func TestMoveResultFilter(t *testing.T) {
	for _, tc := range append(pieceMoveCases(), pawnMoveCases()...) {
		t.Run(tc.name, func(t *testing.T) { checkMoveResult(t, tc) })
	}
}

// moveResultCase is one case of TestMoveResultFilter.
type moveResultCase struct {
	name       string
	boards     []string
	req, taken string
	capture    string
	want       []int  // indices of the boards kept
	after0     string // FEN of the first kept board after the move (optional)
}

// pieceMoveCases are TestMoveResultFilter's cases of slides, castling,
// knights and the pass.
func pieceMoveCases() []moveResultCase {
	return []moveResultCase{
		{
			name: "slide revised to the first enemy piece",
			boards: []string{
				"4k3/8/8/p7/8/8/8/R3K3 w - - 0 1",
				"4k3/p7/8/8/8/8/8/R3K3 w - - 0 1",
				"4k3/p7/8/p7/8/8/8/R3K3 w - - 0 1",
				"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
			},
			req: "a1a8", taken: "a1a5", capture: "a5", want: []int{0, 2},
			after0: "4k3/8/8/R7/8/8/8/4K3 b - - 0 1",
		},
		{
			name: "slide revised further",
			boards: []string{
				"4k3/8/8/p7/8/8/8/R3K3 w - - 0 1",
				"4k3/p7/8/8/8/8/8/R3K3 w - - 0 1",
				"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
			},
			req: "a1a8", taken: "a1a7", capture: "a7", want: []int{1},
		},
		{
			name: "slide taken as requested",
			boards: []string{
				"4k3/8/8/p7/8/8/8/R3K3 w - - 0 1",
				"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
				"n3k3/8/8/8/8/8/8/R3K3 w - - 0 1",
			},
			req: "a1a8", taken: "a1a8", capture: "-", want: []int{1},
		},
		{
			name: "castling blocked by an enemy piece",
			boards: []string{
				"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
				"r3k2r/8/8/8/8/8/8/R3Kb1R w KQkq - 0 1",
				"r3k2r/8/8/8/8/8/8/R3K1nR w KQkq - 0 1",
			},
			req: "e1g1", taken: "0000", capture: "-", want: []int{1, 2},
		},
		{
			name: "castling through attack happens",
			boards: []string{
				"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
				"r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1",
				"r3k2r/8/8/8/8/8/8/R3Kb1R w KQkq - 0 1",
			},
			req: "e1g1", taken: "e1g1", capture: "-", want: []int{0, 1},
			after0: "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1",
		},
		{
			name: "pass",
			boards: []string{
				"4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
				"4k3/p7/8/8/8/8/8/R3K3 w - - 0 1",
			},
			req: "0000", taken: "0000", capture: "-", want: []int{0, 1},
			after0: "4k3/8/8/8/8/8/8/R3K3 b - - 1 1",
		},
		{
			name: "knight capture",
			boards: []string{
				"4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1",
				"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1",
			},
			req: "g1f3", taken: "g1f3", capture: "f3", want: []int{0},
		},
		{
			name: "black's slide revised",
			boards: []string{
				"r3k3/8/8/8/P7/8/8/4K3 b - - 0 1",
				"r3k3/8/8/8/8/8/P7/4K3 b - - 0 1",
			},
			req: "a8a1", taken: "a8a2", capture: "a2", want: []int{1},
		},
	}
}

// pawnMoveCases are TestMoveResultFilter's cases of pawn moves: captures,
// en passant, promotions and pushes.
func pawnMoveCases() []moveResultCase {
	return []moveResultCase{
		{
			name: "pawn diagonal onto an empty square is no move",
			boards: []string{
				"4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1",
				"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
			},
			req: "e2d3", taken: "0000", capture: "-", want: []int{1},
		},
		{
			name: "pawn diagonal captures",
			boards: []string{
				"4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1",
				"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
			},
			req: "e2d3", taken: "e2d3", capture: "d3", want: []int{0},
		},
		{
			name: "en passant reports the pawn's square",
			boards: []string{
				"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
				"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2",
				"4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 2",
			},
			req: "e5d6", taken: "e5d6", capture: "d5", want: []int{0},
			after0: "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2",
		},
		{
			name: "en passant not available is no move",
			boards: []string{
				"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
				"4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2",
			},
			req: "e5d6", taken: "0000", capture: "-", want: []int{1},
		},
		{
			name: "promotion with the queen default",
			boards: []string{
				"8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
				"4r3/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			},
			req: "e7e8", taken: "e7e8q", capture: "-", want: []int{0},
			after0: "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1",
		},
		{
			name: "promotion push blocked",
			boards: []string{
				"8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
				"4r3/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			},
			req: "e7e8n", taken: "0000", capture: "-", want: []int{1},
		},
		{
			name: "promotion by capture keeps the piece",
			boards: []string{
				"3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1",
				"8/4P3/8/8/8/8/k7/4K3 w - - 0 1",
			},
			req: "e7d8n", taken: "e7d8n", capture: "d8", want: []int{0},
			after0: "3N4/8/8/8/8/8/k7/4K3 b - - 0 1",
		},
		{
			name: "double push cut to a single push",
			boards: []string{
				"4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1",
				"4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1",
				"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
			},
			req: "e2e4", taken: "e2e3", capture: "-", want: []int{0},
		},
		{
			name: "double push blocked at once",
			boards: []string{
				"4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1",
				"4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1",
			},
			req: "e2e4", taken: "0000", capture: "-", want: []int{1},
		},
	}
}

// checkMoveResult filters tc's boards board by board and through a layer.
func checkMoveResult(t *testing.T, tc moveResultCase) {
	req, _ := chess.ParseMove(tc.req)
	taken, _ := chess.ParseMove(tc.taken)
	capture := chess.NoSquare
	if tc.capture != "-" {
		capture, _ = chess.ParseSquare(tc.capture)
	}
	o := observation{kind: obsMove, requested: req, taken: taken, square: capture}
	var boards []chess.Board
	var kept []int
	var first chess.Board
	for i, f := range tc.boards {
		b := chess.MustParseFEN(f)
		if !b.IsMoveAction(rbc.WithQueenDefault(&b, req)) && !req.IsNull() {
			t.Fatalf("%s is not a move action on %s", tc.req, f)
		}
		boards = append(boards, b)
		before := b
		next, ok := o.applyMove(&b)
		if b != before {
			t.Fatalf("applyMove changed its input board")
		}
		if ok {
			if len(kept) == 0 {
				first = next
			}
			kept = append(kept, i)
		}
	}
	if !slices.Equal(kept, tc.want) {
		t.Fatalf("kept boards %v, want %v", kept, tc.want)
	}
	if tc.after0 != "" && first.FEN() != tc.after0 {
		t.Errorf("after the move: %s, want %s", first.FEN(), tc.after0)
	}
	// The same through a layer, as exact runs it (in chunks, in parallel).
	l := layerOf(storeOf(boards))
	s, rest, err := l.applyMove(context.Background(), 2, &o, 1<<20)
	if err != nil || rest.n != 0 || s.n != len(tc.want) {
		t.Fatalf("layer applyMove: %d boards (rest %d, err %v), want %d", s.n, rest.n, err, len(tc.want))
	}
}

// someBoards returns the distinct boards two plies after the boards given,
// a varied set to filter.
func someBoards(t *testing.T, fens ...string) []chess.Board {
	t.Helper()
	var out []chess.Board
	seen := map[uint64]bool{}
	for _, f := range fens {
		b := chess.MustParseFEN(f)
		for _, m := range b.AppendOptions(nil) {
			c := b
			c.Apply(m)
			for _, m2 := range c.AppendOptions(nil) {
				d := c
				d.Apply(m2)
				if !seen[d.Key()] {
					seen[d.Key()] = true
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// beliefLike returns boards as a belief holds them: the side to move (the
// opponent) varies its pieces by two moves of its own, with no capture, while
// the other side's pieces stay exactly as given (they are the player's own,
// known exactly).
func beliefLike(t *testing.T, fens ...string) []chess.Board {
	t.Helper()
	var out []chess.Board
	seen := map[uint64]bool{}
	for _, f := range fens {
		b := chess.MustParseFEN(f)
		for _, m := range b.AppendOptions(nil) {
			c := b
			if c.Apply(m) != chess.NoSquare {
				continue
			}
			c.Apply(chess.Move{})
			for _, m2 := range c.AppendOptions(nil) {
				d := c
				if d.Apply(m2) != chess.NoSquare {
					continue
				}
				d.Apply(chess.Move{})
				if !seen[d.Key()] {
					seen[d.Key()] = true
					out = append(out, d)
				}
			}
		}
	}
	return out
}

// TestSenseFilter checks the sense filter against the harness's list form
// (rbc.Sense) for windows in the middle, on edges and in corners, and
// for a passed sense.
func TestSenseFilter(t *testing.T) {
	boards := someBoards(t, chess.StartFEN, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
	rng := rand.New(rand.NewPCG(1, 2))
	centers := []chess.Square{chess.A1, chess.H8, chess.A5, chess.H4, chess.E1, chess.D8, chess.B2, chess.E4, chess.F6, chess.C7}
	for _, center := range centers {
		for range 5 {
			truth := boards[rng.IntN(len(boards))]
			result := rbc.Sense(&truth, center)
			f, err := newSenseFilter(result)
			if err != nil {
				t.Fatal(err)
			}
			if f.window != rbc.SenseWindow(center) {
				t.Fatalf("window of %v: %x, want %x", center, f.window, rbc.SenseWindow(center))
			}
			for i := range boards {
				want := slices.Equal(rbc.Sense(&boards[i], center), result)
				if got := f.match(&boards[i]); got != want {
					t.Fatalf("sense %v: match %v on %s, want %v", center, got, boards[i].FEN(), want)
				}
				if rbc.SenseKey(&boards[i], center) == rbc.SenseKey(&truth, center) != want {
					t.Fatalf("SenseKey disagrees with the sense result")
				}
			}
		}
	}
	pass, err := newSenseFilter(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range boards {
		if !pass.match(&boards[i]) {
			t.Fatal("a passed sense rejected a board")
		}
	}
	if _, err := newSenseFilter([]rbc.SquarePiece{{Square: 70}}); err == nil {
		t.Error("a bad square was accepted")
	}
	if _, err := newSenseFilter([]rbc.SquarePiece{{Square: 3}, {Square: 3}}); err == nil {
		t.Error("a repeated square was accepted")
	}
}

// TestExpansionGroups checks expansion against a plain enumeration: every
// distinct child once, in the group of the capture square it announces,
// whether all groups are kept or only one. (In a belief every board has the
// same pieces of ours, so a child's group follows from the child itself.)
func TestExpansionGroups(t *testing.T) {
	fens := []string{
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
		"r3k2r/pPp1pppp/8/8/8/8/PpP1PPPP/R3K2R w KQkq - 0 1",
	}
	parents := beliefLike(t, fens...)
	base := storeOf(parents)
	want := map[uint64]int{} // key -> group
	for _, p := range parents {
		for _, m := range p.AppendOptions(nil) {
			c := p
			g := groupOf(c.Apply(m))
			want[c.Key()] = g
		}
	}
	for _, workers := range []int{1, 3} {
		exp, err := expand(context.Background(), workers, base, 0, base.n, -1, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if exp.rest.n != 0 {
			t.Fatalf("%d parents deferred with a large budget", exp.rest.n)
		}
		got := map[uint64]int{}
		for g := range exp.groups {
			var l layer
			l.add(exp.groups[g])
			_ = l.forEach(context.Background(), 1, func(_ int, boards []chess.Board) error {
				for i := range boards {
					if _, dup := got[boards[i].Key()]; dup {
						t.Fatalf("child %s appears twice", boards[i].FEN())
					}
					got[boards[i].Key()] = g
				}
				return nil
			})
			if g > 0 {
				only, err := expand(context.Background(), workers, base, 0, base.n, g, 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				if only.groups[g].n != exp.groups[g].n {
					t.Fatalf("group %d: %d children alone, %d with all groups", g, only.groups[g].n, exp.groups[g].n)
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d distinct children, want %d", len(got), len(want))
		}
		for k, g := range want {
			if got[k] != g {
				t.Fatalf("a child is in group %d, want %d", got[k], g)
			}
		}
	}
}

// TestCaptureNotice checks that the notice keeps exactly the children that
// announce it, and that after a capture on our piece the piece is gone from
// every board.
func TestCaptureNotice(t *testing.T) {
	// White pieces hang on d5 and h5; Black, to move, may take either.
	start := chess.MustParseFEN("4k3/8/4p3/3N3Q/8/8/8/4K3 b - - 0 1")
	ctx := context.Background()
	for _, square := range []chess.Square{chess.D5, chess.NoSquare} {
		s := mustNew(t, "exact", Options{})
		if err := s.HandleGameStart(ctx, chess.White, start); err != nil {
			t.Fatal(err)
		}
		if err := s.HandleOpponentMoveResult(ctx, square.Valid(), square); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range start.AppendOptions(nil) {
			c := start
			if c.Apply(m) == square {
				n++
				if !s.Contains(&c) {
					t.Errorf("notice %v: child %s missing", square, c.FEN())
				}
			} else if s.Contains(&c) {
				t.Errorf("notice %v: child %s should be gone", square, c.FEN())
			}
		}
		if s.Size().Boards != n {
			t.Errorf("notice %v: %d boards, want %d", square, s.Size().Boards, n)
		}
		_ = s.ForEach(ctx, func(_ int, boards []chess.Board, _ []float64) error {
			for i := range boards {
				if square.Valid() && boards[i].PieceAt(square).Color() != chess.Black {
					t.Errorf("our piece on %v survived on %s", square, boards[i].FEN())
				}
			}
			return nil
		})
	}
}

// TestExpansionKeepsFirstChild checks that of the children sharing a key the
// expansion keeps the first in parent and option order, with any number of
// workers, so that the belief's boards (and what a seeded sampler draws from
// them) do not depend on how the work was split; that each group lists its
// children in parent order; and that every child made is counted, dropped
// duplicates included.
func TestExpansionKeepsFirstChild(t *testing.T) {
	parents := beliefLike(t,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 4 4",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
		"r3k2r/pPp1pppp/8/8/8/8/PpP1PPPP/R3K2R w KQkq - 0 1",
		"r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 7",
	)
	if len(parents) < 3*runLen {
		t.Fatalf("%d parents: too few for several runs", len(parents))
	}
	base := storeOf(parents)
	want := map[uint64]bool{}
	seen := map[uint64]bool{}
	dups, made := 0, int64(0)
	for i := range parents {
		p := &parents[i]
		for _, m := range p.AppendOptions(nil) {
			made++
			c := *p
			g := groupOf(c.Apply(m))
			if seen[c.Key()] {
				dups++
				continue
			}
			seen[c.Key()] = true
			want[makeRef(i, g, m)] = true
		}
	}
	if dups == 0 {
		t.Fatal("no duplicate children: the test shows nothing")
	}
	for _, workers := range []int{1, 2, 3, 8} {
		for range 3 {
			exp, err := expand(context.Background(), workers, base, 0, base.n, -1, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if exp.children != made {
				t.Fatalf("workers=%d: %d children counted, %d made", workers, exp.children, made)
			}
			n := 0
			for g := range exp.groups {
				last := -1
				for _, chunk := range exp.groups[g].refs {
					for _, r := range chunk {
						n++
						if refParent(r) < last {
							t.Fatalf("workers=%d: group %d is not in parent order", workers, g)
						}
						last = refParent(r)
						if !want[r] {
							t.Fatalf("workers=%d: kept %v of parent %d, not the first child with its key", workers, refMove(r), refParent(r))
						}
					}
				}
			}
			if n != len(want) {
				t.Fatalf("workers=%d: %d children, want %d", workers, n, len(want))
			}
		}
	}
}
