package kriegspiel

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// TestMoveFilterEqualsReferee: on the boards of random games (long ones, so
// that endings, promotions and bare kings come up), for every legal move and
// every answer some legal move of the board gets, the belief's move filter
// accepts exactly when the referee's own answer (Game.play) is that one.
func TestMoveFilterEqualsReferee(t *testing.T) {
	chessDraws := Wild16().WithChessDraws()
	games := 6
	if testing.Short() {
		games = 2
	}
	// Boards one move from each ending and from the corner cases of pawn
	// tries, which random games reach seldom.
	endings := []string{
		"8/8/8/4k3/8/8/4n3/4K3 w - - 0 60",        // Kxe2: bare kings
		"8/8/8/4k3/8/8/3Nn3/4K3 w - - 0 60",       // Kxe2: knight against a bare king
		"8/8/8/4k3/8/8/4R1P1/4K3 w - - 99 80",     // any rook or king move: fifty moves (+chessdraws)
		"8/6p1/8/4k3/8/8/4R3/4K3 b - - 1999 1000", // any king move: the reference's 2000 half-moves
		"r7/1P6/8/6k1/8/8/8/4K3 w - - 0 1",        // bxa8=B, =N: insufficient; =Q, =R: not
		"7k/8/5Q2/8/8/8/8/K7 w - - 0 1",           // Qf7, Qg6: stalemate
		"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",       // Ra8: mate
		"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",       // exd6 en passant
		"4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 2",       // exd6 en passant uncovers the rook's check
		"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",    // castling both ways, checks along the back rank
		"1k6/1p6/8/8/8/8/6p1/4K2R b K - 0 1",      // promotions that capture and give check
		"4k3/3P4/8/8/1b6/8/8/4K3 b - - 0 1",       // a pinned pawn's try, a bishop's check
		"3rk3/8/8/8/8/8/3PPP2/3QKB2 w - - 0 1",    // no king moves: mate by a bishop or queen shortly
	}
	compared, accepted := 0, 0
	for _, rules := range []Ruleset{Wild16(), Berkeley(), BerkeleyAny(), chessDraws} {
		var boards []chess.Board
		for _, fen := range endings {
			b, err := chess.ParseFEN(fen)
			if err != nil {
				t.Fatal(fen, err)
			}
			boards = append(boards, b)
		}
		for seed := range uint64(games) {
			rec := randomRecord(t, rules, 500+seed, 300)
			for _, turn := range rec.Turns {
				b, err := chess.ParseFEN(turn.FENAfter)
				if err != nil {
					t.Fatal(err)
				}
				boards = append(boards, b)
			}
		}
		for _, b := range boards {
			{
				moves := chess.LegalMoves(&b)
				answers := make([]Answer, len(moves))
				for i, m := range moves {
					g := Game{rules: rules, board: b}
					answers[i] = g.play(m)
				}
				heard := slices.Clone(answers)
				heard = append(heard, Answer{Verdict: Moved, Capture: chess.NoSquare, End: DrawRepetition, PawnTries: -1})
				for _, h := range heard {
					f := newMoveFilter(rules, h)
					for i, m := range moves {
						want := sameAnswer(answers[i], h)
						got := f.before(&b, m)
						if got {
							child := b
							child.Apply(m)
							got = f.after(&b, m, &child)
						}
						if got != want {
							t.Fatalf("%s %s, %s heard %s: filter %v, referee %v (answers %s)", rules.Name, b.FEN(), m, h, got, want, answers[i])
						}
						compared++
						if got {
							accepted++
						}
					}
				}
			}
		}
	}
	t.Logf("%d (move, answer) pairs compared, %d accepted", compared, accepted)
}

// beliefTrace follows rec from c's side with bl and returns its boards after
// each turn (nil after the belief stopped), and the error that stopped it.
func beliefTrace(t *testing.T, rec *Record, bl *Belief, c chess.Color, turns int) ([][]chess.Board, error) {
	t.Helper()
	var trace [][]chess.Board
	err := followBelief(rec, bl, c, turns, 0, func(_ int, bl *Belief, _ *chess.Board) error {
		trace = append(trace, slices.Clone(bl.Boards()))
		return nil
	})
	return trace, err
}

// TestBeliefSameWithWorkersAndSpill: the boards after every turn, in order,
// do not depend on the number of workers or on a memory budget that sends
// most of them to disk.
func TestBeliefSameWithWorkersAndSpill(t *testing.T) {
	turns := 12
	if testing.Short() {
		turns = 10
	}
	// A game whose exact set grows past a few thousand boards.
	var rec *Record
	var start chess.Board
	var want [][]chess.Board
	for seed := uint64(1); seed < 30; seed++ {
		rec = randomRecord(t, Wild16(), seed, turns)
		var err error
		if start, err = chess.ParseFEN(rec.StartFEN); err != nil {
			t.Fatal(err)
		}
		base := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
		base.SetLimit(200_000)
		want, err = beliefTrace(t, rec, base, chess.Black, turns)
		if err == nil && len(want[len(want)-1]) >= 5_000 {
			break
		}
		want = nil
	}
	if want == nil {
		t.Fatal("no random game grew a belief of 5,000 boards")
	}
	for _, workers := range []int{2, 3} {
		for _, budget := range []int64{0, 1000 * 80} {
			bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
			bl.SetWorkers(workers)
			bl.SetMemory(budget, t.TempDir())
			spilled := false
			err := followBelief(rec, bl, chess.Black, turns, 0, func(turn int, bl *Belief, truth *chess.Board) error {
				spilled = spilled || bl.big != nil
				if got := bl.Boards(); !slices.Equal(got, want[turn]) {
					return fmt.Errorf("%d boards, want the %d of one worker in memory", len(got), len(want[turn]))
				}
				if !bl.Contains(truth) || !bl.Exact() {
					return fmt.Errorf("exact %v, the true board is not among its %d boards", bl.Exact(), bl.Len())
				}
				return nil
			})
			if err != nil {
				t.Fatalf("workers %d, budget %d: %v", workers, budget, err)
			}
			if spilled != (budget > 0) {
				t.Errorf("workers %d, budget %d: spilled %v", workers, budget, spilled)
			}
			bl.Close()
		}
	}
}

// cutGame returns a random wild16 game of turns turns, its start and the
// exact belief's boards of Black at each turn of it (beliefTrace): the
// game the cut tests cut.
func cutGame(t *testing.T, turns int) (*Record, chess.Board, [][]chess.Board) {
	t.Helper()
	rec := randomRecord(t, Wild16(), 3, turns)
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := beliefTrace(t, rec, NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries), chess.Black, turns)
	if err != nil {
		t.Fatal(err)
	}
	return rec, start, exact
}

// TestBeliefCut: with SetCut, an opponent's turn past the limit keeps a
// sample of at most the limit whose every board is one the exact set holds,
// and the belief says it is no longer exact. Without it the turn is
// ErrBeliefTooLarge and the belief unchanged.
func TestBeliefCut(t *testing.T) {
	const turns, limit = 10, 2_000
	rec, start, exact := cutGame(t, turns)
	bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
	bl.SetLimit(limit)
	if _, err := beliefTrace(t, rec, bl, chess.Black, turns); !errors.Is(err, ErrBeliefTooLarge) {
		t.Fatalf("past the limit without a cut: %v, want ErrBeliefTooLarge", err)
	}
	bl = NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
	bl.SetLimit(limit)
	bl.SetCut(true)
	bl.SetWorkers(2)
	cutAt := -1
	err := followBelief(rec, bl, chess.Black, turns, 0, func(turn int, bl *Belief, _ *chess.Board) error {
		if bl.Len() > limit {
			return fmt.Errorf("%d boards, over the limit", bl.Len())
		}
		if !bl.Exact() {
			if cutAt < 0 {
				cutAt = turn
				if bl.Len() < limit/2 || bl.Weight() < 2 {
					return fmt.Errorf("the first cut kept %d boards of weight %.1f", bl.Len(), bl.Weight())
				}
				if n := len(exact[turn]); float64(bl.Len())*bl.Weight() < float64(n)/2 || float64(bl.Len())*bl.Weight() > 2*float64(n) {
					return fmt.Errorf("%d boards of weight %.1f stand for %d", bl.Len(), bl.Weight(), n)
				}
			}
			in := setOf(exact[turn])
			full := &Belief{big: in}
			for _, b := range bl.Boards() {
				if !full.Contains(&b) {
					return fmt.Errorf("kept %s, which the exact set does not hold", b.FEN())
				}
			}
			return nil
		}
		if !slices.Equal(bl.Boards(), exact[turn]) {
			return fmt.Errorf("exact, but %d boards where the exact set has %d", bl.Len(), len(exact[turn]))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cutAt < 0 || bl.Cuts() == 0 {
		t.Fatalf("never cut (largest exact set %d)", len(exact[len(exact)-1]))
	}
	t.Logf("first cut after turn %d, %d cuts, %d boards of weight %.0f", cutAt, bl.Cuts(), bl.Len(), bl.Weight())
}

// TestBeliefRefsEqualBoards: an opponent's turn that keeps its boards as
// refs (a belief in memory that may not spill) keeps the same boards, in the
// same order, cuts them the same way when it passes the limit, and fails the
// same way without a cut, as one that stores every board as it goes (a
// budget too large to spill).
func TestBeliefRefsEqualBoards(t *testing.T) {
	const turns = 10
	rec, start, _ := cutGame(t, turns)
	follow := func(limit int, cut, weighted bool, workers int, budget int64) refsTrace {
		bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
		bl.SetLimit(limit)
		bl.SetCut(cut)
		bl.SetWeightedCut(weighted)
		bl.SetWorkers(workers)
		bl.SetMemory(budget, t.TempDir())
		defer bl.Close()
		var r refsTrace
		r.err = followBelief(rec, bl, chess.Black, turns, 0, func(_ int, bl *Belief, _ *chess.Board) error {
			r.boards = append(r.boards, slices.Clone(bl.Boards()))
			r.weight = append(r.weight, bl.Weight())
			r.spilled = r.spilled || bl.big != nil
			return nil
		})
		r.cuts = bl.Cuts()
		return r
	}
	// Several limits, so that many turns reach theirs: a board lost or
	// misplaced there shows only if the cut keeps it.
	for _, limit := range []int{500, 700, 1_000, 1_500, 2_000} {
		for _, c := range []struct{ cut, weighted bool }{{false, false}, {true, false}, {true, true}} {
			for _, workers := range []int{1, 2} {
				name := fmt.Sprintf("limit %d, cut %v, weighted %v, workers %d", limit, c.cut, c.weighted, workers)
				refs, boards := follow(limit, c.cut, c.weighted, workers, 0), follow(limit, c.cut, c.weighted, workers, 1<<40)
				if err := refs.same(boards, c.cut); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
}

// refsTrace is what TestBeliefRefsEqualBoards records of a belief followed
// over a game: its boards and weight after each turn, its cuts, and the
// error that stopped it.
type refsTrace struct {
	boards  [][]chess.Board
	weight  []float64
	cuts    int
	err     error
	spilled bool
}

// same returns what tells r, kept as refs, from want, stored, or from what a
// belief that may (cut) or may not be cut must do.
func (r refsTrace) same(want refsTrace, cut bool) error {
	if (r.err == nil) != (want.err == nil) || r.err != nil && r.err.Error() != want.err.Error() {
		return fmt.Errorf("kept as refs: %v; stored: %v", r.err, want.err)
	}
	if !cut && !errors.Is(r.err, ErrBeliefTooLarge) {
		return fmt.Errorf("%v, want ErrBeliefTooLarge", r.err)
	}
	if cut && r.cuts == 0 {
		return errors.New("never cut")
	}
	if r.spilled || want.spilled || r.cuts != want.cuts || len(r.boards) != len(want.boards) {
		return fmt.Errorf("kept as refs: spilled %v, %d cuts, %d turns; stored: spilled %v, %d cuts, %d turns",
			r.spilled, r.cuts, len(r.boards), want.spilled, want.cuts, len(want.boards))
	}
	for turn := range r.boards {
		if !slices.Equal(r.boards[turn], want.boards[turn]) || r.weight[turn] != want.weight[turn] {
			return fmt.Errorf("after turn %d, %d boards of weight %g kept as refs, %d of weight %g stored",
				turn, len(r.boards[turn]), r.weight[turn], len(want.boards[turn]), want.weight[turn])
		}
	}
	return nil
}

// TestBeliefSpillFailsCleanly: a spill folder that does not exist is an
// error of the update, and the belief is left as it was.
func TestBeliefSpillFailsCleanly(t *testing.T) {
	rec := randomRecord(t, Wild16(), 3, 8)
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
	bl.SetMemory(100*80, t.TempDir()+"/missing")
	err = followBelief(rec, bl, chess.Black, 8, 0, func(int, *Belief, *chess.Board) error { return nil })
	if err == nil {
		t.Fatal("a spill into a missing folder succeeded")
	}
	if bl.Len() == 0 {
		t.Error("the failed update emptied the belief")
	}
}

// TestBeliefSeenFilterChangesNothing: the workers' seen filter in Opponent
// (see maxSeenBits) skips children, and opponentTurn.judge judges only
// children no earlier one duplicates; neither changes the boards: after every
// turn they are the same, in order, with the filter as without it, for
// each ruleset, colour, number of workers and with a cut.
func TestBeliefSeenFilterChangesNothing(t *testing.T) {
	turns := 10
	if testing.Short() {
		turns = 8
	}
	rulesets := map[string]Ruleset{"wild16": Wild16(), "berkeley": Berkeley(), "berkeley-any": BerkeleyAny()}
	for name, rules := range rulesets {
		for seed := uint64(1); seed <= 2; seed++ {
			rec := randomRecord(t, rules, seed, turns)
			start, err := chess.ParseFEN(rec.StartFEN)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []chess.Color{chess.White, chess.Black} {
				for _, workers := range []int{1, 3} {
					for _, limit := range []int{200_000, 2_000} {
						trace := func(filter bool) ([][]chess.Board, error) {
							bl := NewBelief(c, rec.Ruleset, start, rec.PawnTries)
							bl.SetWorkers(workers)
							bl.SetLimit(limit)
							bl.SetCut(limit < 200_000)
							bl.noSeenFilter = !filter
							return beliefTrace(t, rec, bl, c, turns)
						}
						want, werr := trace(false)
						got, gerr := trace(true)
						if (werr == nil) != (gerr == nil) || len(got) != len(want) {
							t.Fatalf("%s seed %d %s workers %d limit %d: %d turns (%v), want %d (%v)",
								name, seed, c, workers, limit, len(got), gerr, len(want), werr)
						}
						for turn := range want {
							if !slices.Equal(got[turn], want[turn]) {
								t.Fatalf("%s seed %d %s workers %d limit %d, turn %d: %d boards, want %d in the same order",
									name, seed, c, workers, limit, turn, len(got[turn]), len(want[turn]))
							}
						}
					}
				}
			}
		}
	}
}

// TestOpponentJudgesEachChildOnce: on the fast path Opponent builds and
// judges each distinct child that can announce what was heard exactly once,
// however often its key comes up and whatever its seen filter misses: a
// duplicate waits for the dedup and is never judged.
func TestOpponentJudgesEachChildOnce(t *testing.T) {
	for _, rules := range []Ruleset{Wild16(), BerkeleyAny()} {
		for seed := uint64(1); seed <= 2; seed++ {
			rec := randomRecord(t, rules, seed, 8)
			start, err := chess.ParseFEN(rec.StartFEN)
			if err != nil {
				t.Fatal(err)
			}
			bl := NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries)
			before := slices.Clone(bl.Boards())
			judged := 0
			err = followBelief(rec, bl, chess.Black, 8, 0, func(turn int, bl *Belief, _ *chess.Board) error {
				defer func() { before = slices.Clone(bl.Boards()) }()
				if rec.Turns[turn].Color == chess.Black {
					return nil
				}
				want, fast := distinctChildren(rec, turn, before)
				if !fast {
					return nil
				}
				if bl.judged != want {
					return fmt.Errorf("%d children judged, want the %d distinct ones", bl.judged, want)
				}
				judged += want
				return nil
			})
			if err != nil {
				t.Fatalf("%s seed %d: %v", rules.Name, seed, err)
			}
			if judged == 0 {
				t.Fatalf("%s seed %d: no turn took the fast path, so nothing was checked", rules.Name, seed)
			}
			t.Logf("%s seed %d: %d children judged", rules.Name, seed, judged)
		}
	}
}

// distinctChildren returns the number of distinct children (by key) of
// parents that the opponent's move of the record's turn can have made by
// what was heard before the child is judged (any?, the capture), and
// whether the move's answer puts Opponent on its fast path.
func distinctChildren(rec *Record, turn int, parents []chess.Board) (int, bool) {
	heard := rec.Turns[turn].Overheard()
	move, anyAsked, anyYes, err := opponentMove(heard)
	if err != nil || move == nil {
		return 0, false
	}
	f := newMoveFilter(rec.Ruleset, *move)
	keys := map[uint64]bool{}
	for i := range parents {
		b := &parents[i]
		if b.KingSquare(b.Turn().Other()) == chess.NoSquare {
			return 0, false
		}
		if anyAsked && (countPawnCaptures(b) > 0) != anyYes {
			continue
		}
		for _, m := range chess.AppendLegalMoves(b, nil) {
			if (!anyAsked || isPawnCapture(b, m) == anyYes) && f.before(b, m) {
				keys[childSetKey(b, m)] = true
			}
		}
	}
	return len(keys), f.fast
}

// TestChildSetKeyMatchesApply: childSetKey gives every legal move the key
// that copying the board, applying the move and taking setKey gives, on
// boards with castling, en passant and promotions and on every board of
// random games' beliefs.
func TestChildSetKeyMatchesApply(t *testing.T) {
	var boards []chess.Board
	for _, fen := range []string{
		chess.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 7 1",
		"r3k2r/pPp1pppp/8/8/8/8/PpP1PPPP/R3K2R b Kq - 3 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 12 40",
	} {
		b, err := chess.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		boards = append(boards, b)
	}
	for _, rules := range []Ruleset{Wild16(), Berkeley()} {
		rec := randomRecord(t, rules, 2, 8)
		start, err := chess.ParseFEN(rec.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		trace, err := beliefTrace(t, rec, NewBelief(chess.Black, rec.Ruleset, start, rec.PawnTries), chess.Black, 8)
		if err != nil {
			t.Fatal(err)
		}
		for _, bs := range trace {
			boards = append(boards, bs...)
		}
	}
	for i := range boards {
		b := &boards[i]
		for _, m := range chess.AppendLegalMoves(b, nil) {
			c := *b
			c.Apply(m)
			if got, want := childSetKey(b, m), setKey(&c); got != want {
				t.Fatalf("%s, %v: childSetKey %x, want %x", b.FEN(), m, got, want)
			}
		}
	}
	t.Logf("%d boards", len(boards))
}
