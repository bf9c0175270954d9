package kriegspiel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// randomRecord plays a game of random questions (as RandomPlayer asks them)
// for at most moves moves and returns its record.
func randomRecord(t testing.TB, rules Ruleset, seed uint64, moves int) *Record {
	t.Helper()
	g := NewGame(rules)
	rng := rand.New(rand.NewPCG(seed, 7))
	var qs []Question
	for made := 0; made < moves && !g.Over(); {
		qs = g.Questions(qs[:0])
		if len(qs) == 0 {
			t.Fatalf("seed %d: no question to ask", seed)
		}
		a, err := g.Ask(qs[rng.IntN(len(qs))])
		if err != nil {
			t.Fatal(err)
		}
		if a.Verdict.Done() {
			made++
		}
	}
	return NewRecord(g)
}

// followRecord feeds a record to the belief of player c, turn by turn, and
// calls check after each turn with the true board after it. When an
// opponent's turn would take the belief past limit and thin is positive,
// the belief is first cut to thin boards and the true one.
func followRecord(rec *Record, c chess.Color, turns, limit, thin int, check func(turn int, bl *Belief, truth *chess.Board) error) error {
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		return err
	}
	bl := NewBelief(c, rec.Ruleset, start, rec.PawnTries)
	bl.SetLimit(limit)
	return followBelief(rec, bl, c, turns, thin, check)
}

// followBelief is followRecord with the belief given (set up as the test
// wants it).
func followBelief(rec *Record, bl *Belief, c chess.Color, turns, thin int, check func(turn int, bl *Belief, truth *chess.Board) error) error {
	prev, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		return err
	}
	for i, turn := range rec.Turns {
		if i == turns || turn.Move.IsNull() {
			break
		}
		if turn.Color == c {
			for _, try := range turn.Tries {
				if err := bl.Own(context.Background(), try.Question, try.Answer); err != nil {
					return fmt.Errorf("turn %d, own %s: %w", i, try.Question, err)
				}
			}
		} else {
			heard := turn.Overheard()
			err := bl.Opponent(context.Background(), heard)
			if errors.Is(err, ErrBeliefTooLarge) && thin > 0 {
				// Keep the true board and a few others, as a sampling
				// player would, so that the rest of the game is tested too.
				bl.boards = thinned(bl.boards, &prev, thin)
				thinnings++
				err = bl.Opponent(context.Background(), heard)
			}
			if err != nil {
				return fmt.Errorf("turn %d, opponent: %w", i, err)
			}
		}
		truth, err := chess.ParseFEN(turn.FENAfter)
		if err != nil {
			return err
		}
		prev = truth
		if err := check(i, bl, &truth); err != nil {
			return fmt.Errorf("turn %d: %w", i, err)
		}
	}
	return nil
}

// thinnings counts the belief cuts of followRecord (tests run one at a time here).
var thinnings int

// thinned returns n boards of bs, the one equal to truth among them when it is there.
func thinned(bs []chess.Board, truth *chess.Board, n int) []chess.Board {
	out := make([]chess.Board, 0, n+1)
	for i := range bs {
		if sameBoard(&bs[i], truth) {
			out = append(out, bs[i])
		}
	}
	step := max(len(bs)/n, 1)
	for i := 0; i < len(bs) && len(out) < n; i += step {
		if !sameBoard(&bs[i], truth) {
			out = append(out, bs[i])
		}
	}
	return out
}

// TestBeliefKeepsTheTrueBoard follows random games of every ruleset from both
// sides: after every turn the true board is in the belief.
// BLINDFISH_FULL_TESTS=1 follows 20 games a ruleset with beliefs 20 times larger.
func TestBeliefKeepsTheTrueBoard(t *testing.T) {
	// The belief is cut to thin boards whenever the opponent's turn would
	// take it past limit: random players tell each other little, and the
	// exact set of a whole random game is millions of boards.
	games, limit, thin := 3, 5_000, 100
	switch {
	case os.Getenv("BLINDFISH_FULL_TESTS") != "":
		games, limit, thin = 20, 100_000, 2_000
	case testing.Short():
		// The race pass: three games at 5,000 boards took over two
		// minutes of it on a loaded machine.
		games, limit, thin = 1, 2_500, 50
	}
	checked := 0
	for _, rules := range []Ruleset{Wild16(), Berkeley(), BerkeleyAny()} {
		for seed := range uint64(games) {
			rec := randomRecord(t, rules, seed, 80)
			for _, c := range []chess.Color{chess.White, chess.Black} {
				largest := 0
				err := followRecord(rec, c, -1, limit, thin, func(_ int, bl *Belief, truth *chess.Board) error {
					largest = max(largest, bl.Len())
					checked++
					if !bl.Contains(truth) {
						return fmt.Errorf("the true board %s is not among %d boards", truth.FEN(), bl.Len())
					}
					return nil
				})
				if err != nil {
					t.Fatalf("%s seed %d as %s: %v", rules.Name, seed, c, err)
				}
				if largest < 2 {
					t.Errorf("%s seed %d as %s: the belief never held more than one board", rules.Name, seed, c)
				}
			}
		}
	}
	t.Logf("%d turns checked, the belief cut %d times", checked, thinnings)
	if checked < 3*2*games*60 {
		t.Errorf("only %d turns checked", checked)
	}
}

// bruteForce returns every board reachable after the first turns of rec by
// any sequence of legal opponent moves whose answers, asked of a fresh
// referee together with the player's own recorded questions, equal the
// record's: the exact belief computed the slow way, with the referee alone.
func bruteForce(t *testing.T, rec *Record, c chess.Color, turns int) map[[2]uint64]bool {
	t.Helper()
	out := map[[2]uint64]bool{}
	var walk func(path []chess.Move)
	walk = func(path []chess.Move) {
		g, err := NewGameFromFEN(rec.Ruleset, rec.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		used := 0
		for i := 0; i < turns; i++ {
			turn := rec.Turns[i]
			if turn.Color == c {
				for _, try := range turn.Tries {
					a, err := g.Ask(try.Question)
					if err != nil || a != try.Answer {
						return // this path makes the referee answer us otherwise
					}
				}
				continue
			}
			var moveAnswer Answer
			for _, try := range turn.Tries {
				switch {
				case try.Public && try.Question.AskAny:
					if a, _ := g.Ask(try.Question); a != try.Answer {
						return
					}
				case try.Answer.Verdict.Done():
					moveAnswer = try.Answer
				}
			}
			if used == len(path) {
				// Branch on every legal move of the opponent here.
				b := g.Board()
				var buf [256]chess.Move
				for _, m := range chess.AppendLegalMoves(&b, buf[:0]) {
					walk(append(path[:len(path):len(path)], m))
				}
				return
			}
			a, err := g.Ask(TryMove(path[used]))
			used++
			if err != nil || a != moveAnswer {
				return
			}
		}
		b := g.Board()
		out[[2]uint64{b.Key(), uint64(b.HalfmoveClock())}] = true
	}
	walk(nil)
	return out
}

// TestBeliefEqualsBruteForce: over the first turns of random games, the
// belief holds exactly the boards a brute-force search of the opponent's
// moves through the referee finds — none missing, none extra.
func TestBeliefEqualsBruteForce(t *testing.T) {
	const turns = 6 // three moves of each side
	compared := 0
	for _, rules := range []Ruleset{Wild16(), BerkeleyAny()} {
		for seed := range uint64(4) {
			rec := randomRecord(t, rules, 100+seed, turns)
			if len(rec.Turns) < turns || rec.Turns[turns-1].Move.IsNull() {
				continue
			}
			for _, c := range []chess.Color{chess.White, chess.Black} {
				want := bruteForce(t, rec, c, turns)
				var got *Belief
				err := followRecord(rec, c, turns, DefaultBeliefLimit, 0, func(_ int, bl *Belief, _ *chess.Board) error { got = bl; return nil })
				if err != nil {
					t.Fatalf("%s seed %d as %s: %v", rules.Name, seed, c, err)
				}
				have := map[[2]uint64]bool{}
				for _, b := range got.Boards() {
					have[[2]uint64{b.Key(), uint64(b.HalfmoveClock())}] = true
				}
				missing, extra := 0, 0
				for k := range want {
					if !have[k] {
						missing++
					}
				}
				for k := range have {
					if !want[k] {
						extra++
					}
				}
				if missing > 0 || extra > 0 || len(have) != got.Len() {
					t.Errorf("%s seed %d as %s: brute force %d boards, belief %d (%d missing, %d extra, %d duplicates)",
						rules.Name, seed, c, len(want), got.Len(), missing, extra, got.Len()-len(have))
				}
				compared += len(want)
			}
		}
	}
	if compared < 100 {
		t.Errorf("only %d boards compared: the games were too short to test anything", compared)
	}
}

func mustMove(t *testing.T, s string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBeliefFiltersOnOwnIllegalTry: a try refused as illegal removes the
// boards on which it was legal.
func TestBeliefFiltersOnOwnIllegalTry(t *testing.T) {
	// 1. e4 e5: White hears a quiet move and no pawn try, which leaves 18
	// of Black's 20 replies; then e4-e5 is illegal only after e7-e5.
	start, _ := chess.ParseFEN(chess.StartFEN)
	g := NewGame(Wild16())
	bl := NewBelief(chess.White, Wild16(), start, g.PawnTries())
	a, _ := g.Ask(TryMove(mustMove(t, "e2e4")))
	if err := bl.Own(context.Background(), TryMove(mustMove(t, "e2e4")), a); err != nil {
		t.Fatal(err)
	}
	a, _ = g.Ask(TryMove(mustMove(t, "e7e5")))
	if err := bl.Opponent(context.Background(), []Heard{{Answer: a}}); err != nil {
		t.Fatal(err)
	}
	if bl.Len() != 20-2 { // d7-d5 and f7-f5 would give White a pawn try
		t.Fatalf("after 1. e4 with no pawn try announced: %d boards, want 18", bl.Len())
	}
	q := TryMove(mustMove(t, "e4e5"))
	a, _ = g.Ask(q)
	if a.Verdict != Illegal {
		t.Fatalf("e4-e5 answered %s", a)
	}
	if err := bl.Own(context.Background(), q, a); err != nil {
		t.Fatal(err)
	}
	if bl.Len() != 1 {
		t.Errorf("after e4-e5 refused: %d boards, want 1 (e7-e5)", bl.Len())
	}
}

// BenchmarkBeliefFollow follows the first ten turns of a random wild16 game
// as Black, the opponent's turns expanding every board; it reports the
// boards kept per second of work.
func BenchmarkBeliefFollow(b *testing.B) {
	rec := randomRecord(b, Wild16(), 3, 10)
	kept := 0
	for b.Loop() {
		kept = 0
		err := followRecord(rec, chess.Black, 10, DefaultBeliefLimit, 0, func(_ int, bl *Belief, _ *chess.Board) error {
			kept += bl.Len()
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(kept)*float64(b.N)/b.Elapsed().Seconds(), "boards/s")
}

// TestBeliefStopsWithItsContext: an opponent's turn stopped by its context
// leaves the belief as it was; an answer stopped by it keeps only boards
// the full update keeps. Both errors wrap the context's.
func TestBeliefStopsWithItsContext(t *testing.T) {
	var own, opp *Belief // copies taken before a large update of each kind
	var ownTurn, oppTurn Turn
	var rec *Record
	for seed := uint64(1); seed < 40 && (own == nil || opp == nil); seed++ {
		rec = randomRecord(t, Wild16(), seed, 14)
		err := followRecord(rec, chess.White, -1, 200_000, 0, func(turn int, bl *Belief, _ *chess.Board) error {
			if turn+1 >= len(rec.Turns) || rec.Turns[turn+1].Move.IsNull() {
				return nil
			}
			next := rec.Turns[turn+1]
			cp := *bl
			cp.boards = slices.Clone(bl.boards)
			cp.refused = slices.Clone(bl.refused)
			switch {
			case own == nil && next.Color == chess.White && bl.Len() > 3*ctxCheckEvery:
				own, ownTurn = &cp, next
			case opp == nil && next.Color == chess.Black && bl.Len() > ctxCheckEvery:
				opp, oppTurn = &cp, next
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrBeliefTooLarge) {
			t.Fatal(err)
		}
	}
	if own == nil || opp == nil {
		t.Fatal("no random game grew a belief large enough")
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()

	heard := oppTurn.Overheard()
	before := slices.Clone(opp.boards)
	if err := opp.Opponent(done, heard); !errors.Is(err, context.Canceled) {
		t.Errorf("Opponent with a done context: %v", err)
	}
	if !slices.Equal(opp.boards, before) {
		t.Errorf("Opponent stopped changed the belief: %d boards, was %d", opp.Len(), len(before))
	}

	try := ownTurn.Tries[0]
	full := *own
	full.boards = slices.Clone(own.boards)
	if err := full.Own(context.Background(), try.Question, try.Answer); err != nil {
		t.Fatal(err)
	}
	asked := own.Len()
	err := own.Own(done, try.Question, try.Answer)
	if !errors.Is(err, context.Canceled) && own.Len() > 0 {
		t.Errorf("Own with a done context: %v", err)
	}
	if own.Len() >= full.Len() && full.Len() > 0 {
		t.Errorf("Own stopped kept %d boards, the full update %d", own.Len(), full.Len())
	}
	for i := range own.boards {
		if !full.Contains(&own.boards[i]) {
			t.Fatalf("Own stopped kept %s, which the full update does not", own.boards[i].FEN())
		}
	}
	t.Logf("opponent's turn stopped on %d boards; answer %s stopped on %d boards kept %d of the full %d",
		len(before), try.Question, asked, own.Len(), full.Len())
}
