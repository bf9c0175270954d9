package bots

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/chessclock"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// TestTimePlanSharesTheClock: a turn gets its share of the clock, the
// belief the first half of it, and nothing is limited before the clock is
// known.
func TestTimePlanSharesTheClock(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := timePlan{turnsLeft: 40}
	p.startTurn(t0)
	if d := p.beliefDeadline(t0); !d.IsZero() {
		t.Errorf("belief deadline before the clock is known: %v", d)
	}
	if d := p.questionDeadline(t0, 40*time.Second); !d.Equal(t0.Add(time.Second)) {
		t.Errorf("question deadline before the turn's share is known: %v", d.Sub(t0))
	}
	p.told(50 * time.Second)
	p.used(10 * time.Second)
	p.startTurn(t0)
	if p.turn != time.Second {
		t.Fatalf("turn share %v, want 1s (40 s left over 40 turns)", p.turn)
	}
	cases := []struct {
		name      string
		got, want time.Time
	}{
		{"belief, at the turn's start", p.beliefDeadline(t0), t0.Add(500 * time.Millisecond)},
		{"belief, late in the turn", p.beliefDeadline(t0.Add(2 * time.Second)), t0.Add(2*time.Second + 125*time.Millisecond)},
		{"question, at the turn's start", p.questionDeadline(t0, 40*time.Second), t0.Add(time.Second)},
		{"question, late in the turn", p.questionDeadline(t0.Add(3*time.Second), 40*time.Second), t0.Add(3*time.Second + 62500*time.Microsecond)},
		{"question, short of clock", p.questionDeadline(t0, 2*time.Second), t0.Add(500 * time.Millisecond)},
	}
	for _, c := range cases {
		if !c.got.Equal(c.want) {
			t.Errorf("%s: %v after the start, want %v", c.name, c.got.Sub(t0), c.want.Sub(t0))
		}
	}
	if n := fits(t0, t0.Add(time.Second), time.Millisecond); n != 1000 {
		t.Errorf("fits a second at 1ms a board: %d", n)
	}
	if n := fits(t0, t0.Add(-time.Second), time.Millisecond); n != minBeliefBoards {
		t.Errorf("fits past the deadline: %d, want the floor %d", n, minBeliefBoards)
	}
	if n := fits(t0, time.Time{}, time.Millisecond); n != -1 {
		t.Errorf("fits with no deadline: %d", n)
	}
	if n := fits(t0, t0.Add(time.Second), 0); n != -1 {
		t.Errorf("fits with no speed measured: %d", n)
	}
	var per time.Duration
	measure(&per, minRateBoards-1, time.Hour)
	measure(&per, 100, 100*time.Millisecond)
	measure(&per, 100, 300*time.Millisecond)
	if per != 2*time.Millisecond {
		t.Errorf("measured %v a board, want 2ms (1ms then 3ms; a small update not counted)", per)
	}
}

// TestSamplingCutsItsBeliefToItsTime follows a game as White's sampling
// player: while the belief is fast it is not cut; once the plan says a
// board costs more than the turn's belief share, the belief is cut before
// the opponent's turn is expanded, and it is still a belief (not lost).
// TestTimePlanCapsTheTurn: with a cap (movetime=), a turn gets the cap
// when the clock's share is larger or not known yet, and the share when it
// is smaller.
func TestTimePlanCapsTheTurn(t *testing.T) {
	t0 := time.Unix(1000, 0)
	p := timePlan{turnsLeft: 40, cap: 100 * time.Millisecond}
	p.startTurn(t0)
	if p.turn != 100*time.Millisecond {
		t.Errorf("turn before the clock is known: %v, want the cap", p.turn)
	}
	if d := p.beliefDeadline(t0); !d.Equal(t0.Add(50 * time.Millisecond)) {
		t.Errorf("belief deadline %v, want half the cap", d.Sub(t0))
	}
	if d := p.questionDeadline(t0, time.Minute); !d.Equal(t0.Add(100 * time.Millisecond)) {
		t.Errorf("question deadline %v, want the cap", d.Sub(t0))
	}
	p.told(time.Minute)
	p.startTurn(t0)
	if p.turn != 100*time.Millisecond || p.share != 1500*time.Millisecond {
		t.Errorf("turn with 1.5 s the share: %v (share %v), want the cap", p.turn, p.share)
	}
	p.told(2 * time.Second)
	p.startTurn(t0)
	if p.turn != 50*time.Millisecond {
		t.Errorf("turn with 50 ms the share: %v, want the share", p.turn)
	}
	cfg := DefaultMCTSConfig()
	if err := apply(&cfg, "mcts", map[string]string{"movetime": "20ms"}, mctsSettings()); err != nil || cfg.Belief.MoveTime != 20*time.Millisecond {
		t.Errorf("mcts:movetime=20ms: %v, %v", cfg.Belief.MoveTime, err)
	}
}

func TestSamplingCutsItsBeliefToItsTime(t *testing.T) {
	rec := randomGame(t, 6)
	p := NewSampling(DefaultSamplingConfig(), evaluator.NewEmbedded(), 1, nil)
	slowTurns := 0
	var before, cuts int
	var slow bool
	followAs(t, p, rec, func(i int) {
		before, cuts = len(p.belief.Boards()), p.Thinnings
		slow = i >= 4 && before > minBeliefBoards
		p.plan = timePlan{turnsLeft: 40}
		p.plan.told(40 * time.Second)
		if slow {
			p.plan.perExpand = time.Second // a turn's belief share is 500ms
			slowTurns++
		}
	}, func(i int) {
		switch {
		case p.lost:
			t.Fatalf("turn %d: the belief was lost", i)
		case slow && p.Thinnings != cuts+1:
			t.Errorf("turn %d: a belief of %d boards at 1s a board was not cut (%d cuts)", i, before, p.Thinnings-cuts)
		case !slow && p.Thinnings != cuts:
			t.Errorf("turn %d: a belief of %d boards with no speed known was cut", i, before)
		}
	})
	if slowTurns == 0 {
		t.Fatal("the game gave no turn to test the cut on")
	}
}

// randomGame plays random against random for at most turns moves a side
// and returns the record.
func randomGame(t *testing.T, turns int) *kriegspiel.Record {
	t.Helper()
	opts := kriegspiel.DefaultOptions()
	opts.Clock = chessclock.NewManual(time.Unix(0, 0))
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	opts.TurnLimit = turns
	res, err := kriegspiel.PlayGame(context.Background(), kriegspiel.NewRandomPlayer(3), kriegspiel.NewRandomPlayer(4), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res.Record
}

// followAs feeds rec to p as White, calling before ahead of each of White's
// turns (i is the record's turn) and after once the opponent's turn is in
// the belief.
func followAs(t *testing.T, p *Sampling, rec *kriegspiel.Record, before, after func(i int)) {
	t.Helper()
	ctx := context.Background()
	start, err := chess.ParseFEN(rec.StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.HandleGameStart(ctx, chess.White, rec.Ruleset, start, rec.PawnTries, "random"); err != nil {
		t.Fatal(err)
	}
	var heard []kriegspiel.Heard
	for i, turn := range rec.Turns {
		if turn.Move.IsNull() {
			break
		}
		if turn.Color == chess.Black {
			heard = append(heard, turn.Overheard()...)
			continue
		}
		before(i)
		if err := p.HandleOpponentTurn(ctx, heard); err != nil {
			t.Fatal(err)
		}
		heard = nil
		after(i)
		for _, try := range turn.Tries {
			if err := p.HandleAnswer(ctx, try.Question, try.Answer); err != nil {
				t.Fatal(err)
			}
		}
	}
}
