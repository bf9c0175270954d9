package players

import (
	"context"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

func play(t testing.TB, white, black string, cfg [2]invisible.Config, seed int64) *invisible.Played {
	t.Helper()
	w, err := New(white, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(black, seed+1, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := invisible.PlayGame(context.Background(), w, b, invisible.Options{Configs: cfg, TurnLimit: 400, WhiteName: white, BlackName: black})
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Record.Result; r.Reason == invisible.ReasonError || r.Reason == invisible.ReasonIllegal {
		t.Fatalf("%s-%s: %v: %s", white, black, r, r.Detail)
	}
	if _, err := p.Record.Replay(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAdvisorBeatsRandom: the paper's program, at depth 1, wins most games
// against random tries, from either side, with and without its
// information advisors.
func TestAdvisorBeatsRandom(t *testing.T) {
	wins, games := 0, 0
	for i, spec := range []string{"advisor", "advisor:hide=5", "advisor:seek=5", "blindfish"} {
		for c := chess.White; c <= chess.Black; c++ {
			white, black := spec, "random"
			if c == chess.Black {
				white, black = black, white
			}
			p := play(t, white, black, [2]invisible.Config{invisible.B2, invisible.R1}, int64(10*i+int(c)))
			r := p.Record.Result
			games++
			if r.HasWinner && r.Winner == c {
				wins++
			}
			t.Logf("%s vs %s: %v in %d turns", white, black, r, len(p.Record.Turns))
		}
	}
	if wins < games*3/4 {
		t.Errorf("the advisor won %d of %d games against random", wins, games)
	}
}

// TestAdvisorSelfPlayTiming logs a game between two advisors.
func TestAdvisorSelfPlayTiming(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game")
	}
	for _, cfg := range [][2]invisible.Config{{invisible.B2, invisible.B2}, {invisible.R2, invisible.N2}, {invisible.Q1, invisible.B1}} {
		w, _ := New("advisor:boards=0", 1, nil)
		b, _ := New("advisor:boards=0", 2, nil)
		p, err := invisible.PlayGame(context.Background(), w, b, invisible.Options{Configs: cfg, TurnLimit: 400})
		if err != nil {
			t.Fatal(err)
		}
		aw, ab := w.(*Advisor), b.(*Advisor)
		t.Logf("%v: %v in %d turns; %d+%d decisions in %v+%v", cfg, p.Record.Result, len(p.Record.Turns), aw.Decisions, ab.Decisions, aw.Spent, ab.Spent)
	}
}

// riskPosition is White to move with its invisible queen on d1 and a free
// pawn on d5, and Black's invisible queen on one of four squares: on d8
// (one chance in twenty) it guards the pawn and takes the queen that takes
// it; elsewhere it does not.
func riskPosition(t *testing.T) *invisible.Tracker {
	t.Helper()
	tr := invisible.NewTracker(chess.White, [2]invisible.Config{invisible.Q1, invisible.Q1})
	v, err := chess.ParseFEN("r3k3/pp3ppp/8/3p4/8/8/PP3PPP/3QK3 w - - 0 20")
	if err != nil {
		t.Fatal(err)
	}
	tr.View = v
	tr.Own = invisible.Placement{chess.D1, chess.NoSquare}
	tr.Belief = invisible.Belief{Probs: []float64{0.35, 0.3, 0.3, 0.05}}
	for _, s := range []chess.Square{chess.H8, chess.G8, chess.B8, chess.D8} {
		tr.Belief.Places = append(tr.Belief.Places, invisible.Placement{s, chess.NoSquare})
	}
	return tr
}

// TestBlindfishDoesNotHangTheQueen: the expectation alone takes the pawn
// (it wins a pawn on boards worth nineteen chances in twenty); Blindfish,
// whose worst boards weigh in, does not risk its queen for it.
func TestBlindfishDoesNotHangTheQueen(t *testing.T) {
	take := chess.Move{From: chess.D1, To: chess.D5}
	for _, c := range []struct {
		risk float64
		want bool
	}{{0, true}, {DefaultBlindfish.Risk, false}} {
		cfg := DefaultBlindfish
		cfg.Hide, cfg.Risk = 0, c.risk
		p := NewBlindfish(cfg, 1, nil)
		p.tr = riskPosition(t)
		p.hide = newHideModel(p.tr.Own)
		m, err := p.ChooseTry(context.Background(), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if (m == take) != c.want {
			t.Errorf("risk %v: tried %v; want Qxd5 %v", c.risk, m, c.want)
		}
	}
}
