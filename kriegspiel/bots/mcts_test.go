package bots

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// startMCTS starts an MCTS player on the position fen, known exactly, and
// returns it with the referee's game.
func startMCTS(t *testing.T, fen string) (*MCTS, *kriegspiel.Game) {
	t.Helper()
	ctx := context.Background()
	g, err := kriegspiel.NewGameFromFEN(kriegspiel.Wild16(), fen)
	if err != nil {
		t.Fatal(err)
	}
	p := NewMCTS(DefaultMCTSConfig(), 1, nil)
	if err := p.HandleGameStart(ctx, g.Turn(), g.Rules(), g.Board(), g.PawnTries(), "test"); err != nil {
		t.Fatal(err)
	}
	if err := p.HandleOpponentTurn(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return p, g
}

// TestMCTSMatesInOne: with the board known, the root's answers see the
// back-rank mate and the search asks it.
func TestMCTSMatesInOne(t *testing.T) {
	p, g := startMCTS(t, "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1")
	q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if q.Move.String() != "a1a8" {
		t.Errorf("asked %v, want the mate a1a8", q)
	}
}

// TestMCTSTakesWhatHangs: a queen known to stand undefended where our
// knight attacks it is taken.
func TestMCTSTakesWhatHangs(t *testing.T) {
	p, g := startMCTS(t, "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1")
	q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if q.Move.String() != "e3d5" {
		t.Errorf("asked %v, want the capture of the queen e3d5", q)
	}
}

// TestMCTSBeatsRandom plays the MCTS player against the random player, each
// colour. Each decision runs 1,500 iterations under a clock too long to
// stop it, and the belief is kept small, so the games are the same on any
// machine, however loaded (a clock of 2 s a side left the race pass on a
// loaded machine 7,744 iterations for a whole game, and a draw): it mates,
// and never loses.
func TestMCTSBeatsRandom(t *testing.T) {
	games := 2
	if testing.Short() {
		games = 1
	}
	wins := 0
	for g := range games {
		cfg := DefaultMCTSConfig()
		cfg.Iterations = 1_500
		cfg.Belief.BeliefLimit, cfg.Belief.ThinTo = 20_000, 500
		p := NewMCTS(cfg, uint64(g), nil)
		opts := kriegspiel.DefaultOptions()
		opts.InitialTime, opts.Increment = time.Hour, 0
		r, us := gameAgainstRandom(t, p, g, uint64(200+g), opts)
		t.Logf("game %d as %v: %s, %d iterations", g, us, r, p.Iterations)
		switch {
		case r.HasWinner && r.Winner == us:
			wins++
		case r.HasWinner:
			t.Errorf("game %d lost to random: %s", g, r)
		}
		if r.Reason == kriegspiel.Resign || r.Reason == kriegspiel.Timeout {
			t.Errorf("game %d: %s", g, r)
		}
	}
	if wins == 0 {
		t.Errorf("no win in %d games against random", games)
	}
}

// TestNewMCTSSettings: the spec's settings reach the player, and bad ones
// are refused with the setting's name.
func TestNewMCTSSettings(t *testing.T) {
	p, err := New("mcts:boards=64,c=0.5,depth=3,iterations=900,belief=hybrid,size=100,recover=none", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := p.(*MCTS)
	if !ok {
		t.Fatalf("mcts spec built a %T", p)
	}
	if m.cfg.Belief.Samples != 64 || m.cfg.Exploration != 0.5 || m.cfg.MaxDepth != 3 || m.cfg.Iterations != 900 ||
		m.cfg.Belief.Belief != "hybrid" || m.cfg.Belief.ThinTo != 100 || m.cfg.Belief.Recover != "none" {
		t.Errorf("settings not applied: %+v", m.cfg)
	}
	for _, bad := range []string{"mcts:eval=embedded", "mcts:c=-1", "mcts:c=NaN", "mcts:depth=0", "mcts:belief=magic", "mcts:restrict=true", "mcts:iterations=0"} {
		if _, err := New(bad, 1, nil); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}

// TestMCTSReplyChargesWhatHangs: the opponent's reply in approach C's tree
// never captures, so the knight a pawn attacks (and nothing defends) is
// charged to the material below it, whole.
func TestMCTSReplyChargesWhatHangs(t *testing.T) {
	after := metapos.Summarize([]chess.Board{chess.MustParseFEN("4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1")}, chess.White)
	tr := &tree{cfg: DefaultMCTSConfig()}
	next := tr.reply(after)
	if want := -metapos.PieceValue[chess.Knight]; next.Gain != want {
		t.Errorf("the reply's material %v, want %v", next.Gain, want)
	}
	if next.Mine.Turn() != chess.White {
		t.Errorf("%v to move after the reply, want white", next.Mine.Turn())
	}
}

// TestMCTSSearchesTheMetapositionWhenLost: with its belief lost, approach C
// searches from Darkboard's metaposition, which still knows where the
// undefended queen stands, and takes it.
func TestMCTSSearchesTheMetapositionWhenLost(t *testing.T) {
	p, g := startMCTS(t, "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1")
	p.lost = true
	q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), 4*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if q.Move.String() != "e3d5" || p.MetaDecisions != 1 {
		t.Errorf("asked %v after %d decisions on the metaposition, want the capture of the queen e3d5 after 1", q, p.MetaDecisions)
	}
}

// TestSummarizeMetapositionKeepsTheMen: the summary of a metaposition has
// the opponent's king once and its other men Left times, however spread.
func TestSummarizeMetapositionKeepsTheMen(t *testing.T) {
	p, _ := startMCTS(t, "r3k3/pp6/8/3q4/8/4N3/8/4K3 w - - 0 1")
	for turn := range 3 {
		s := metapos.SummarizeMetaposition(&p.meta)
		var king, men float64
		for sq := range chess.Square(64) {
			king += float64(s.Theirs[sq][chess.King])
			for ty := chess.Pawn; ty < chess.King; ty++ {
				men += float64(s.Theirs[sq][ty])
			}
		}
		if math.Abs(king-1) > 1e-4 || math.Abs(men-float64(p.meta.Left)) > 1e-3 {
			t.Errorf("after %d unseen moves: king %.4f (want 1), men %.4f (want %d)", turn, king, men, p.meta.Left)
		}
		p.meta.Mine.Apply(chess.Move{}) // the opponent's turn, unseen
		if err := p.meta.Opponent([]kriegspiel.Heard{{Answer: kriegspiel.Answer{Verdict: kriegspiel.Moved}}}); err != nil {
			t.Fatal(err)
		}
	}
}
