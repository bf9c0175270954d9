package invisible

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
)

// outcomes counts the outcomes of every try the checked players could have made.
var outcomes map[Outcome]int

// checkedRandom is a random player that checks its tracker against the true
// position after every event: its view is the true board without the
// opponent's invisible pieces, and its belief holds the true placement.
type checkedRandom struct {
	t             *testing.T
	rng           *rand.Rand
	pos           *Position // the referee's, read only
	tr            *Tracker
	buf           []chess.Move
	triedThisTurn map[chess.Move]bool
}

func (p *checkedRandom) check(what string) {
	p.t.Helper()
	c := p.tr.Color
	truth := p.pos.Inv[c.Other()]
	if p.tr.Belief.Prob(truth) <= 0 {
		p.t.Fatalf("%v after %s: the belief lost the true placement %v (%d placements)", c, what, truth, len(p.tr.Belief.Places))
	}
	b := p.tr.Board(truth)
	if b.FEN() != p.pos.Board.FEN() || b.Key() != p.pos.Board.Key() {
		p.t.Fatalf("%v after %s: the tracker's board %s, the truth %s", c, what, b.FEN(), p.pos.Board.FEN())
	}
	if p.tr.Own != p.pos.Inv[c] {
		p.t.Fatalf("%v after %s: own pieces %v, truth %v", c, what, p.tr.Own, p.pos.Inv[c])
	}
}

func (p *checkedRandom) HandleGameStart(_ context.Context, s GameStart) error {
	p.tr = NewTracker(s.Color, s.Configs)
	p.check("start")
	return nil
}

func (p *checkedRandom) HandleOpponentTurn(_ context.Context, s Seen) error {
	if err := p.tr.OnSeen(s); err != nil {
		return err
	}
	p.check("seen")
	return nil
}

func (p *checkedRandom) ChooseTry(context.Context, time.Duration) (chess.Move, error) {
	p.check("choose")
	p.buf = AppendTries(&p.tr.View, p.buf[:0])
	for _, m := range p.buf {
		a := Classify(&p.pos.Board, p.pos.Inv[p.tr.Color.Other()], m)
		if (a.Outcome == Possible) != chess.IsLegal(&p.pos.Board, m) {
			p.t.Fatalf("%s: %v is %v, legal %v", p.pos.Board.FEN(), m, a.Outcome, chess.IsLegal(&p.pos.Board, m))
		}
		outcomes[a.Outcome]++
	}
	for _, m := range chess.LegalMoves(&p.pos.Board) {
		if !IsTry(&p.tr.View, m) {
			p.t.Fatalf("%s: the legal move %v is not a try", p.pos.Board.FEN(), m)
		}
	}
	for {
		m := p.buf[p.rng.IntN(len(p.buf))]
		if !p.triedThisTurn[m] {
			return m, nil
		}
	}
}

func (p *checkedRandom) HandleAnswer(_ context.Context, m chess.Move, a Answer) error {
	p.triedThisTurn[m] = a.Outcome == Illegal
	if a.Outcome != Illegal {
		clear(p.triedThisTurn)
	}
	if err := p.tr.OnAnswer(m, a); err != nil {
		return err
	}
	return nil
}

func (p *checkedRandom) HandleGameEnd(context.Context, Result) error { return nil }

// TestRandomGamesKeepTrackersExact plays random games in every
// configuration and checks both trackers against the truth after every
// event, and the record against Replay.
func TestRandomGamesKeepTrackersExact(t *testing.T) {
	outcomes = map[Outcome]int{}
	pairs := [][2]Config{{B2, R1}, {Q1, Q1}, {N2, R2}, {B1, None}, {R2, B2}, {N1, Q1}}
	for gi := range 24 {
		cfg := pairs[gi%len(pairs)]
		var pos *Position
		w := &checkedRandom{t: t, rng: rand.New(rand.NewPCG(uint64(gi), 1)), triedThisTurn: map[chess.Move]bool{}}
		b := &checkedRandom{t: t, rng: rand.New(rand.NewPCG(uint64(gi), 2)), triedThisTurn: map[chess.Move]bool{}}
		hook := func(p *Position) { pos = p; w.pos, b.pos = p, p }
		played, err := PlayGame(context.Background(), w, b, Options{Configs: cfg, TurnLimit: 300, hook: hook})
		if err != nil {
			t.Fatal(err)
		}
		_ = pos
		if played.Record.Result.Reason == ReasonError || played.Record.Result.Reason == ReasonIllegal {
			t.Fatalf("game %d: %v %s", gi, played.Record.Result, played.Record.Result.Detail)
		}
		if _, err := played.Record.Replay(); err != nil {
			t.Fatalf("game %d: %v", gi, err)
		}
	}
	t.Logf("tries by outcome: %v", outcomes)
	if outcomes[Impossible] == 0 || outcomes[Illegal] == 0 {
		t.Errorf("the games never met an impossible or an illegal try: %v", outcomes)
	}
}
