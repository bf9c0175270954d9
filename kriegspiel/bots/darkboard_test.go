package bots

import (
	"context"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// startPlayer starts p on the position fen (both players know it) with
// us to move.
func startPlayer(t *testing.T, p kriegspiel.Player, fen string) *kriegspiel.Game {
	t.Helper()
	ctx := context.Background()
	g, err := kriegspiel.NewGameFromFEN(kriegspiel.Wild16(), fen)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.HandleGameStart(ctx, g.Turn(), g.Rules(), g.Board(), g.PawnTries(), "test"); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleOpponentTurn(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestDarkboardChoices: on positions whose men are all known (the start of
// a game from a position), the search takes what it can take safely and
// does not give away what it has.
func TestDarkboardChoices(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string // any of these
	}{
		{"takes the hanging rook", "4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1", []string{"d1d2", "e1d2"}},
		{"takes the queen with the knight", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", []string{"e3d5"}},
		{"takes with the pawn when tries are announced", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", []string{"e4d5"}},
		{"as Black, takes the hanging rook", "3qk3/8/8/8/8/8/8/3R2K1 b - - 0 1", []string{"d8d1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := NewDarkboard(DefaultDarkboardConfig(), 1, nil)
			g := startPlayer(t, p, c.fen)
			q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			ok := false
			for _, w := range c.want {
				ok = ok || q.Move.String() == w
			}
			if !ok {
				t.Errorf("asked %v, want one of %v", q, c.want)
			}
		})
	}
}

// TestDarkboardBeatsRandom plays Darkboard against the random player under
// each ruleset, each colour, 100 turns at most: it never loses, and it
// mates at least once (its search is bounded by nodes, so the games are the
// same on any machine).
func TestDarkboardBeatsRandom(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 2
	}
	for _, rules := range []kriegspiel.Ruleset{kriegspiel.Wild16(), kriegspiel.Berkeley(), kriegspiel.BerkeleyAny()} {
		wins := 0
		for g := range games {
			cfg := DefaultDarkboardConfig()
			cfg.MoveTime = time.Hour // the nodes bound the search, not a loaded machine's time
			p := NewDarkboard(cfg, uint64(g), nil)
			opts := kriegspiel.DefaultOptions()
			opts.Rules = rules
			opts.InitialTime, opts.Increment = time.Hour, 0
			r, us := gameAgainstRandom(t, p, g, uint64(300+g), opts)
			switch {
			case r.HasWinner && r.Winner == us:
				wins++
			case r.HasWinner:
				t.Errorf("%s game %d lost to random: %s", rules.Name, g, r)
			}
			if p.Moves == 0 || p.Questions < p.Moves {
				t.Errorf("%s game %d: %d questions for %d moves", rules.Name, g, p.Questions, p.Moves)
			}
		}
		if wins == 0 {
			t.Errorf("%s: %d wins in %d games against random", rules.Name, wins, games)
		}
	}
}

// TestCapturerTakes: the capturing random mover tries the captures it may
// have before anything else.
func TestCapturerTakes(t *testing.T) {
	cases := []struct {
		name, fen string
		want      []string
	}{
		{"a man certainly there", "4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1", []string{"d1d2", "e1d2"}},
		{"a pawn's try", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", []string{"e4d5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range uint64(8) {
				p := NewCapturer(seed, nil)
				g := startPlayer(t, p, c.fen)
				q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				ok := false
				for _, w := range c.want {
					ok = ok || q.Move.String() == w
				}
				if !ok {
					t.Errorf("seed %d asked %v, want one of %v", seed, q, c.want)
				}
			}
		})
	}
}

// TestDarkboardSearchStopsAtItsDeadline: a search whose deadline has
// passed stops within a few hundred nodes, however deep it may go (the
// clock was once looked at only when the node count was a multiple of 256
// at an inner node, which let a search at movetime=10ms take 150 ms).
func TestDarkboardSearchStopsAtItsDeadline(t *testing.T) {
	m := metapos.New(chess.White, chess.StartBoard())
	var buf [256]chess.Move
	moves := m.Mine.AppendMoveActions(buf[:0])
	s := search{cfg: DefaultDarkboardConfig(), deadline: time.Now().Add(-time.Second), ctx: context.Background()}
	for _, mv := range moves {
		s.value(&m, mv, 4)
		if s.stopped() {
			break
		}
	}
	if !s.stop || s.nodes > 1_000 {
		t.Errorf("searched %d nodes past the deadline (stopped %v), want at most 1,000", s.nodes, s.stop)
	}
}
