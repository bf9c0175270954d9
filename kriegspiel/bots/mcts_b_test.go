package bots

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

// TestMessageModelFit: approach B's message model is the fit on the
// committed records, to the third decimal.
func TestMessageModelFit(t *testing.T) {
	m, err := fitMessages([]string{"../../testdata/kriegspiel/records/simple-local-2.tar.gz", "../../testdata/kriegspiel/records/simple-local-3.tar.gz"})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 0.0006 }
	for ty := chess.Pawn; ty <= chess.King; ty++ {
		if !near(m.Illegal[ty], bModel.Illegal[ty]) || !near(m.Capture[ty], bModel.Capture[ty]) {
			t.Errorf("%v: fit illegal %.3f capture %.3f, the model has %.3f and %.3f", ty, m.Illegal[ty], m.Capture[ty], bModel.Illegal[ty], bModel.Capture[ty])
		}
	}
	if !near(m.Retake, bModel.Retake) {
		t.Errorf("fit retake %.3f, the model has %.3f", m.Retake, bModel.Retake)
	}
}

// fitMessages counts the messages of every try of the Kriegspiel records
// at paths, replaying each game on the referee to know the man tried.
func fitMessages(paths []string) (messageModel, error) {
	var tries, illegal, made, captures [chess.King + 1]int
	ourCaptures, retakes := 0, 0
	for rec, err := range record.Records(paths...) {
		if err != nil {
			return messageModel{}, fmt.Errorf("bots: %w", err)
		}
		kr, err := ksrecord.Read(bytes.NewReader(rec.Data))
		if err != nil {
			return messageModel{}, fmt.Errorf("bots: %s: %w", rec.Name(), err)
		}
		g, err := kriegspiel.NewGameFromFEN(kr.Ruleset, kr.StartFEN)
		if err != nil {
			return messageModel{}, fmt.Errorf("bots: %s: %w", rec.Name(), err)
		}
		lastCapture := chess.NoSquare
		for _, turn := range kr.Turns {
			capturedThisTurn := chess.NoSquare
			for _, try := range turn.Tries {
				b := g.Board()
				if try.Question.AskAny {
					if _, err := g.Ask(try.Question); err != nil {
						return messageModel{}, fmt.Errorf("bots: %s: %w", rec.Name(), err)
					}
					continue
				}
				t := b.PieceAt(try.Question.Move.From).Type()
				a, err := g.Ask(try.Question)
				if err != nil {
					return messageModel{}, fmt.Errorf("bots: %s: %w", rec.Name(), err)
				}
				if a.Verdict == kriegspiel.Impossible {
					continue
				}
				tries[t]++
				switch a.Verdict {
				case kriegspiel.Illegal:
					illegal[t]++
				case kriegspiel.Moved, kriegspiel.Captured:
					made[t]++
					if a.Verdict == kriegspiel.Captured {
						captures[t]++
						capturedThisTurn = try.Question.Move.To
					}
					if lastCapture.Valid() {
						ourCaptures++
						if a.Verdict == kriegspiel.Captured && a.Capture == lastCapture {
							retakes++
						}
					}
				}
			}
			lastCapture = capturedThisTurn
			if g.Over() {
				break
			}
		}
	}
	var m messageModel
	for t := chess.Pawn; t <= chess.King; t++ {
		m.Illegal[t] = ratio(illegal[t], tries[t])
		m.Capture[t] = ratio(captures[t], made[t])
	}
	m.Retake = ratio(retakes, ourCaptures)
	return m, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// TestMCTSApproaches: approaches A and B see what their simulations can
// see on a known board: A the mate in one its playouts end at once, B (one
// move and three) the queen its messages let it take.
func TestMCTSApproaches(t *testing.T) {
	cases := []struct {
		spec, fen, want string
	}{
		{"mcts:approach=a,iterations=3000", "6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8"},
		{"mcts:approach=b,k=1,iterations=3000", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", "e3d5"},
		{"mcts:approach=b,k=3,iterations=3000", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", "e3d5"},
		{"mcts:approach=c,iterations=3000", "4k3/8/8/3q4/8/4N3/8/4K3 w - - 0 1", "e3d5"},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			p, err := New(c.spec, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			g := startPlayer(t, p, c.fen)
			q, err := p.ChooseQuestion(context.Background(), g.Questions(nil), time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if q.Move.String() != c.want {
				t.Errorf("asked %v, want %s", q, c.want)
			}
		})
	}
	for _, bad := range []string{"mcts:approach=d", "mcts:k=0"} {
		if _, err := New(bad, 1, nil); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}

// TestBRolloutScoresExpectedMaterial: approach B's rollout scores the
// material the summary expects, whichever message the model draws. The
// opponent has a rook on d5 on one board of ten; the knight's move there
// is worth a tenth of a rook over a move to an empty square, made
// silently or as a capture (the model draws captures at its own rate, so
// scoring a drawn capture as the whole rook would make every square that
// might hold a man look like a quarter of one won).
func TestBRolloutScoresExpectedMaterial(t *testing.T) {
	boards := []chess.Board{chess.MustParseFEN("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1")}
	for range 9 {
		boards = append(boards, chess.MustParseFEN("r3k3/8/8/8/8/4N3/8/4K3 w - - 0 1"))
	}
	pos := metapos.Summarize(boards, chess.White)
	tr := &tree{cfg: MCTSConfig{K: 1}}
	// script returns the rand of one rollout: the try is not refused
	// (0.99), then the capture is drawn or not, then no retake (0.99).
	script := func(capture bool) func() float64 {
		draws := []float64{0.99, 0.99, 0.99}
		if capture {
			draws[1] = 0
		}
		return func() float64 {
			v := draws[0]
			if len(draws) > 1 {
				draws = draws[1:]
			}
			return v
		}
	}
	cp := func(v float64) float64 { return -200 * math.Log(1/v-1) } // value back to centipawns
	move := func(to string) chess.Move {
		from, _ := chess.ParseSquare("e3")
		s, err := chess.ParseSquare(to)
		if err != nil {
			t.Fatal(err)
		}
		return chess.Move{From: from, To: s}
	}
	quiet := cp(tr.rollout(pos, move("c2"), script(false)))
	silent := cp(tr.rollout(pos, move("d5"), script(false)))
	captured := cp(tr.rollout(pos, move("d5"), script(true)))
	want := metapos.PieceValue[chess.Rook] / 10
	if math.Abs(silent-quiet-want) > 1 || math.Abs(captured-quiet-want) > 1 {
		t.Errorf("e3d5 over e3c2: %.1f cp silent, %.1f as a capture; want %.1f both", silent-quiet, captured-quiet, want)
	}
}
