package kriegspiel

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
)

// followView feeds a record to a view of player c (follow without stats).
func followView(rec *Record, v View, c chess.Color, turns int, check func(turn int, truth *chess.Board) error) error {
	return follow(context.Background(), rec, c, turns, v, check, nil)
}

// TestSampledViewsAgreeWithTheExactSet follows random games with each
// sampling belief beside the exact one, over the turns where the exact set
// is small enough: AOSP's and the hybrid's pools hold only boards of the
// exact set (they are consistent with every observation, or LOS's top-up
// for the hybrid), every view's boards have our men where the true board
// has them, and the exact belief holds the truth. The recall of each view
// (how often the true board is among its boards) is logged.
func TestSampledViewsAgreeWithTheExactSet(t *testing.T) {
	const size, turns = 64, 10
	seeds := uint64(3)
	if testing.Short() {
		seeds = 2 // the race pass: the three took 6 minutes on a machine loaded ten to two cores
	}
	recall := map[string][2]int{}
	for _, rules := range []Ruleset{Wild16(), Berkeley()} {
		for seed := range seeds {
			rec := randomRecord(t, rules, 200+seed, turns)
			start, _ := chess.ParseFEN(rec.StartFEN)
			for _, c := range []chess.Color{chess.White, chess.Black} {
				exact := NewBelief(c, rules, start, rec.PawnTries)
				exact.SetLimit(300_000)
				views := map[string]View{}
				for _, name := range []string{"aosp", "los", "hybrid"} {
					v, err := NewView(name, c, rules, start, rec.PawnTries, size, rand.New(rand.NewPCG(seed, 1)))
					if err != nil {
						t.Fatal(err)
					}
					views[name] = v
				}
				inExact := func() map[[2]uint64]bool {
					m := map[[2]uint64]bool{}
					for _, b := range exact.Boards() {
						m[boardKey(&b)] = true
					}
					return m
				}
				err := followView(rec, exact, c, turns, func(i int, truth *chess.Board) error {
					if !exact.Contains(truth) {
						return errors.New("the exact belief lost the true board")
					}
					return nil
				})
				if errors.Is(err, ErrBeliefTooLarge) {
					continue
				}
				if err != nil {
					t.Fatalf("%s seed %d %s exact: %v", rules.Name, seed, c, err)
				}
				// The exact set at the end, for the pools' last turn.
				all := inExact()
				for name, v := range views {
					hits, n := 0, 0
					err := followView(rec, v, c, turns, func(i int, truth *chess.Board) error {
						n++
						for _, b := range v.Boards() {
							if b.Pieces(c) != truth.Pieces(c) || b.Turn() != truth.Turn() {
								return fmt.Errorf("%s: a board has our men or the side to move wrong: %s vs %s", name, b.FEN(), truth.FEN())
							}
						}
						if len(v.Boards()) == 0 {
							return fmt.Errorf("%s: no boards", name)
						}
						for _, b := range v.Boards() {
							if sameBoard(&b, truth) {
								hits++
								break
							}
						}
						return nil
					})
					if err != nil {
						t.Fatalf("%s seed %d %s: %v", rules.Name, seed, c, err)
					}
					if name == "aosp" {
						for _, b := range v.Boards() {
							if !all[boardKey(&b)] {
								t.Errorf("%s seed %d %s: AOSP holds a board outside the exact set: %s", rules.Name, seed, c, b.FEN())
								break
							}
						}
					}
					r := recall[name]
					recall[name] = [2]int{r[0] + hits, r[1] + n}
				}
			}
		}
	}
	for name, r := range recall {
		t.Logf("%s: the true board among its %d boards at %d of %d turns", name, size, r[0], r[1])
	}
	if recall["aosp"][1] < int(16*seeds) {
		t.Errorf("only %d turns compared", recall["aosp"][1])
	}
}

func TestNewViewNames(t *testing.T) {
	start, _ := chess.ParseFEN(chess.StartFEN)
	for _, name := range ViewNames() {
		v, err := NewView(name, chess.White, Wild16(), start, 0, 10, rand.New(rand.NewPCG(1, 2)))
		if err != nil || v.Name() != name || len(v.Boards()) != 1 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := NewView("oracle", chess.White, Wild16(), start, 0, 10, nil); err == nil {
		t.Error("an unknown belief was made")
	}
}

// TestFollowCounts: Follow counts every turn it follows, the exact belief
// holds the true board at each, and a belief past its limit stops the
// following with ErrBeliefTooLarge at the turn that outgrew it.
func TestFollowCounts(t *testing.T) {
	rec := randomRecord(t, Wild16(), 7, 40)
	start, _ := chess.ParseFEN(rec.StartFEN)
	v, _ := NewView("exact", chess.White, Wild16(), start, rec.PawnTries, 2_000, nil)
	st, err := Follow(context.Background(), rec, chess.White, v)
	if err != nil {
		t.Fatal(err)
	}
	if st.Turns == 0 || st.Present != st.Turns || st.MaxBoards < 2 {
		t.Errorf("%+v", st)
	}
	if !errors.Is(st.Stopped, ErrBeliefTooLarge) || st.StoppedAt != st.Turns || st.MaxBoards > 2_000 {
		t.Errorf("a 2,000-board exact belief over a random game: stopped %v at %d after %d turns", st.Stopped, st.StoppedAt, st.Turns)
	}
}
