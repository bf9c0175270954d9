package engine

import (
	"context"
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// TestReplyShares: the softmax of the options' values at the temperature.
func TestReplyShares(t *testing.T) {
	got := replyShares([]float64{0, -100, -200}, 100)
	z := 1 + math.Exp(-1) + math.Exp(-2)
	for i, want := range []float64{1 / z, math.Exp(-1) / z, math.Exp(-2) / z} {
		if math.Abs(got[i]-want) > 1e-12 {
			t.Errorf("share %d = %v, want %v", i, got[i], want)
		}
	}
}

// TestParentsAfter: only the boards on which our request became the taken
// move with the announced capture are parents, each with the move made.
func TestParentsAfter(t *testing.T) {
	blocked := mustFEN(t, "r3k3/8/8/n7/8/8/8/R3K3 w - - 0 1") // a1a8 stops on a5
	clear := mustFEN(t, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")    // a1a8 takes the rook
	req := chess.Move{From: chess.A1, To: chess.A8}
	got := parentsAfter([]chess.Board{blocked, clear, clear}, req, req, chess.A8)
	if len(got) != 1 {
		t.Fatalf("%d parents, want 1 (the clear file, once)", len(got))
	}
	want := clear
	want.Apply(req)
	if got[0].Key() != want.Key() || got[0].Turn() != chess.Black {
		t.Errorf("parent %s, want %s", got[0].FEN(), want.FEN())
	}
	if got := parentsAfter([]chess.Board{blocked, clear}, req, chess.Move{From: chess.A1, To: chess.A5}, chess.A5); len(got) != 1 || got[0].PieceAt(chess.A5).Type() != chess.Rook {
		t.Errorf("the stopped slide: %d parents", len(got))
	}
}

// TestReplyModelSeesTheFreeQueen: with our queen en prise to a knight, the
// board on which the opponent took it is far likelier than a choice at random
// says, a quiet move far less likely (down to the floor, never zero); the
// prior uses the model's factor on the boards it scored and the static
// factors elsewhere.
func TestReplyModelSeesTheFreeQueen(t *testing.T) {
	parent := mustFEN(t, "4k3/8/5n2/3Q4/8/8/8/4K3 b - - 0 1")
	cfg := DefaultConfig()
	tv := testTurn(t, &fixedBelief{boards: []chess.Board{parent}}, cfg)
	r := buildReplies(context.Background(), tv.Scoring, []chess.Board{parent}, 100)
	if r == nil {
		t.Fatal("no model")
	}
	n := len(parent.AppendOptions(nil))
	if len(r.factor) != n {
		t.Errorf("%d boards in the model, want %d (one per option)", len(r.factor), n)
	}
	took, quiet := parent, parent
	took.Apply(chess.Move{From: chess.F6, To: chess.D5})
	quiet.Apply(chess.Move{From: chess.E8, To: chess.F7})
	ft, _ := r.weight(&took)
	fq, _ := r.weight(&quiet)
	if ft < float64(n)/2 {
		t.Errorf("the capture's factor %v, want most of %d", ft, n)
	}
	if fq > 0.2 || fq < replyFloor {
		t.Errorf("the quiet move's factor %v, want in [%v, 0.2]", fq, replyFloor)
	}

	// The prior: our side is White; the model replaces hang and king.
	pr := newPrior(&cfg, chess.White, chess.NoSquare)
	with := pr.withReplies(r)
	if with.off() {
		t.Error("a prior with a reply model is off")
	}
	base := newPrior(&Config{Threat: cfg.Threat, Check: cfg.Check}, chess.White, chess.NoSquare)
	if w, want := with.weight(&took), base.weight(&took)*ft; math.Abs(w-want) > 1e-9*want {
		t.Errorf("prior weight with the model %v, want threat × factor %v", w, want)
	}
	other := mustFEN(t, "4k3/8/5n2/8/3Q4/8/8/4K3 w - - 0 1")
	if w, want := with.weight(&other), pr.weight(&other); w != want {
		t.Errorf("a board outside the model weighs %v, want the static prior's %v", w, want)
	}
}

// TestReplyModelOffOrLate: no model without a temperature, a parent, an
// engine, or time to score every parent.
func TestReplyModelOffOrLate(t *testing.T) {
	parent := mustFEN(t, "4k3/8/5n2/3Q4/8/8/8/4K3 b - - 0 1")
	tv := testTurn(t, &fixedBelief{boards: []chess.Board{parent}}, DefaultConfig())
	ctx := context.Background()
	if buildReplies(ctx, tv.Scoring, []chess.Board{parent}, 0) != nil {
		t.Error("a model at temperature 0")
	}
	if buildReplies(ctx, tv.Scoring, nil, 100) != nil {
		t.Error("a model without parents")
	}
	static := *tv.Scoring
	static.static = true
	if buildReplies(ctx, &static, []chess.Board{parent}, 100) != nil {
		t.Error("a model on static scores")
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if buildReplies(done, tv.Scoring, []chess.Board{parent}, 100) != nil {
		t.Error("a model past its deadline")
	}
}

// TestSnapshotParents: the belief is kept only when it is exact and small.
func TestSnapshotParents(t *testing.T) {
	b := mustFEN(t, "4k3/8/5n2/3Q4/8/8/8/4K3 w - - 0 1")
	small := &fixedBelief{boards: []chess.Board{b, b}}
	if got := snapshotParents(context.Background(), small); len(got) != 2 {
		t.Errorf("%d boards of a belief of 2", len(got))
	}
	large := &fixedBelief{boards: make([]chess.Board, replyParents+1)}
	for i := range large.boards {
		large.boards[i] = b
	}
	if got := snapshotParents(context.Background(), large); got != nil {
		t.Errorf("%d boards of a belief past replyParents", len(got))
	}
}

// TestPlayerBuildsTheReplyModel: as White, the belief before our first
// move is the start position, so the opponent's first move has one parent,
// and the next sense weighs the belief by the model of its replies. The
// clock is RBC's 15 minutes: the model gets a quarter of the sense's
// budget, which at 60 s (0.3 s) the race detector on a starved machine
// does not meet, and the player then rightly senses without it.
func TestPlayerBuildsTheReplyModel(t *testing.T) {
	const clock = 900 * time.Second
	cfg := DefaultConfig()
	cfg.Eval, cfg.Reply = evaluator.KindEmbedded, 100
	cfg.Samples, cfg.VOISamples, cfg.SenseSamples = 24, 12, 300
	p, err := NewBlindfish(cfg, Options{Seed: 3, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	b := chess.StartBoard()
	if err := p.HandleGameStart(ctx, chess.White, b, "nobody"); err != nil {
		t.Fatal(err)
	}
	_ = p.HandleOpponentMoveResult(ctx, false, chess.NoSquare)
	if _, err := p.ChooseSense(ctx, allSquares(), b.MoveActions(), clock); err != nil {
		t.Fatal(err)
	}
	_ = p.HandleSenseResult(ctx, nil)
	m, err := p.ChooseMove(ctx, b.MoveActions(), clock)
	if err != nil {
		t.Fatal(err)
	}
	taken, capture := rbc.Play(&b, m)
	_ = p.HandleMoveResult(ctx, m, taken, capture != chess.NoSquare, capture)
	if len(p.reply.parents) != 1 {
		t.Fatalf("%d parents after our first move, want 1", len(p.reply.parents))
	}
	reply := chess.Move{From: chess.E7, To: chess.E5}
	rbc.Play(&b, reply)
	_ = p.HandleOpponentMoveResult(ctx, false, chess.NoSquare)
	if _, err := p.ChooseSense(ctx, allSquares(), b.MoveActions(), clock); err != nil {
		t.Fatal(err)
	}
	if p.reply.model == nil || p.Stats().Replies != 1 {
		t.Fatalf("no reply model after the sense (stats %+v)", p.Stats())
	}
	if f, ok := p.reply.model.weight(&b); !ok || f < replyFloor {
		t.Errorf("the true board's factor %v (known %v)", f, ok)
	}
	if p.reply.parents != nil {
		t.Error("the parents outlive the model built from them")
	}
}
