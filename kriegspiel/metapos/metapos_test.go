package metapos_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// view feeds a metaposition as kriegspiel.FollowTurns feeds a belief.
type view struct{ m *metapos.Metaposition }

func (v view) Own(_ context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	v.m.Own(q, a)
	return nil
}
func (v view) Opponent(_ context.Context, heard []kriegspiel.Heard) error { return v.m.Opponent(heard) }
func (v view) Boards() []chess.Board                                      { return nil }
func (v view) Name() string                                               { return "metaposition" }

// TestTrueBoardInsideOverRecords follows every committed Kriegspiel record
// from both sides: after every turn, every square of the true board has its
// pseudopiece (and our men are the metaposition's own).
func TestTrueBoardInsideOverRecords(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/kriegspiel/records/*.tar.gz")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no records (%v)", err)
	}
	games, turns := 0, 0
	for rec, err := range record.Records(paths...) {
		if err != nil {
			t.Fatal(err)
		}
		kr, err := ksrecord.Read(bytes.NewReader(rec.Data))
		if err != nil {
			t.Fatal(err)
		}
		start, err := chess.ParseFEN(kr.StartFEN)
		if err != nil {
			t.Fatal(err)
		}
		games++
		for _, c := range []chess.Color{chess.White, chess.Black} {
			m := metapos.New(c, start)
			if s, ok := m.Holds(&start); !ok {
				t.Fatalf("%s: the start is not inside at %s", rec.Name(), s)
			}
			_, err := kriegspiel.FollowTurns(context.Background(), kr, c, view{&m}, func(turn int, truth *chess.Board) error {
				turns++
				if s, ok := m.Holds(truth); !ok {
					t.Errorf("%s as %s, turn %d: %s holds %v, the metaposition has %07b there", rec.Name(), c, turn, s, truth.PieceAt(s), m.Sq[s])
					return errStop
				}
				return nil
			})
			if err != nil && !isStop(err) {
				t.Errorf("%s as %s: %v", rec.Name(), c, err)
			}
		}
	}
	if games == 0 {
		t.Fatal("no games read")
	}
	t.Logf("%d games, %d turns followed from both sides", games, turns)
}

// TestTrueBoardInsideRandomGames plays random games under every ruleset
// (castling, en passant, promotions and the berkeley announcements come up
// there, rarely in the records) and follows them as the records are.
func TestTrueBoardInsideRandomGames(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 12
	}
	rng := rand.New(rand.NewPCG(7, 43))
	for _, name := range kriegspiel.RulesetNames() {
		rules, err := kriegspiel.ParseRuleset(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range games {
			g := kriegspiel.NewGame(rules)
			var qs []kriegspiel.Question
			for moves := 0; !g.Over() && moves < 400; {
				qs = g.Questions(qs[:0])
				a, err := g.Ask(qs[rng.IntN(len(qs))])
				if err != nil {
					t.Fatal(err)
				}
				if a.Verdict.Done() {
					moves++
				}
			}
			rec := kriegspiel.NewRecord(g)
			start := chess.StartBoard()
			for _, c := range []chess.Color{chess.White, chess.Black} {
				m := metapos.New(c, start)
				_, err := kriegspiel.FollowTurns(context.Background(), rec, c, view{&m}, func(turn int, truth *chess.Board) error {
					if s, ok := m.Holds(truth); !ok {
						t.Errorf("%s game %d as %s, turn %d: %s holds %v, the metaposition has %07b there", name, i, c, turn, s, truth.PieceAt(s), m.Sq[s])
						return errStop
					}
					return nil
				})
				if err != nil && !isStop(err) {
					t.Errorf("%s game %d as %s: %v", name, i, c, err)
				}
			}
		}
	}
}

// TestUpdatesNarrow: the updates learn what the papers say they learn, on
// positions where it is certain (a metaposition that kept every kind on
// every square would pass the invariant and fail here).
func TestUpdatesNarrow(t *testing.T) {
	e2e4 := kriegspiel.TryMove(mustMove(t, "e2e4"))
	moved := kriegspiel.VerdictOnly(kriegspiel.Moved)
	moved.PawnTries = 0
	cases := []struct {
		name string
		run  func(m *metapos.Metaposition) error
		sq   string
		want metapos.Kinds
	}{
		{"the start is exact", func(*metapos.Metaposition) error { return nil }, "e7", metapos.KindOf(chess.Pawn)},
		{"the pawn's double push crossed e3", func(m *metapos.Metaposition) error { m.Own(e2e4, moved); return nil }, "e3", metapos.Empty},
		{"after one reply e5 may hold a pawn or be empty", func(m *metapos.Metaposition) error {
			m.Own(e2e4, moved)
			return m.Opponent([]kriegspiel.Heard{{Answer: moved}})
		}, "e5", metapos.Empty | metapos.KindOf(chess.Pawn)},
		{"after one reply g8 may be empty, a knight not elsewhere than f6/h6/g8", func(m *metapos.Metaposition) error {
			m.Own(e2e4, moved)
			return m.Opponent([]kriegspiel.Heard{{Answer: moved}})
		}, "f6", metapos.Empty | metapos.KindOf(chess.Knight) | metapos.KindOf(chess.Pawn)},
		{"the king cannot stand still on e8 and be on e7 at once: e7 may hold pawn or king", func(m *metapos.Metaposition) error {
			m.Own(e2e4, moved)
			return m.Opponent([]kriegspiel.Heard{{Answer: moved}})
		}, "e7", metapos.Empty | metapos.KindOf(chess.Pawn)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := metapos.New(chess.White, chess.StartBoard())
			if err := c.run(&m); err != nil {
				t.Fatal(err)
			}
			s, err := chess.ParseSquare(c.sq)
			if err != nil {
				t.Fatal(err)
			}
			if m.Sq[s] != c.want {
				t.Errorf("%s: %07b, want %07b", c.sq, m.Sq[s], c.want)
			}
		})
	}
}

func mustMove(t *testing.T, uci string) chess.Move {
	t.Helper()
	m, err := chess.ParseMove(uci)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
