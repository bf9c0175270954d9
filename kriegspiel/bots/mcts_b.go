package bots

import (
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// messageModel is approach B's probability of each referee message given
// a try, by the type of the man tried: Illegal the chance a try is refused,
// Capture the chance a move made captures, and Retake the chance the
// opponent's reply takes back on the square of our capture. The paper fit
// its model on human games; ours is fit on our committed records (games of
// the sampling player against a heuristic bot on a local kriegspiel.org,
// testdata/kriegspiel/records), by fitMessages; TestMessageModelFit keeps
// the numbers below equal to the fit.
type messageModel struct {
	Illegal, Capture [chess.King + 1]float64
	Retake           float64
}

// bModel is messageModel fit on testdata/kriegspiel/records (fitMessages,
// rounded to three places).
var bModel = messageModel{
	Illegal: [chess.King + 1]float64{0, 0.558, 0.429, 0.552, 0.671, 0.758, 0.410},
	Capture: [chess.King + 1]float64{0, 0.240, 0.211, 0.396, 0.241, 0.299, 0.072},
	Retake:  0.224,
}

// rollout is approach B's simulation from pos (us to move): k of our moves,
// the first mv and the others at random, each answered by a message drawn
// from the model (a refused try is tried again with another move, up to
// four times a turn; a capture happens only where the summary may have a
// man, and it may be retaken), each followed by the opponent's unseen move
// (the summary's spread); the end is scored by material alone, as the
// paper's B scores it.
func (t *tree) rollout(pos *metapos.Summary, mv chess.Move, rand func() float64) float64 {
	cur := pos
	var buf [256]chess.Move
	for step := 0; step < t.cfg.K; step++ {
		if step > 0 {
			moves := cur.Mine.AppendMoveActions(buf[:0])
			if len(moves) == 0 {
				break
			}
			mv = moves[int(rand()*float64(len(moves)))%len(moves)]
		}
		for refusals := 0; refusals < 4; refusals++ {
			ty := cur.Mine.PieceAt(mv.From).Type()
			if rand() >= bModel.Illegal[ty] {
				break
			}
			moves := cur.Mine.AppendMoveActions(buf[:0])
			mv = moves[int(rand()*float64(len(moves)))%len(moves)]
		}
		ty := cur.Mine.PieceAt(mv.From).Type()
		var silent, capture *metapos.Summary
		for _, g := range cur.Guesses(mv) {
			switch g.Kind {
			case metapos.AnswerSilent:
				silent = g.After
			case metapos.AnswerCapture:
				capture = g.After
			}
		}
		next := silent
		if capture != nil && (silent == nil || rand() < bModel.Capture[ty]) {
			next = capture
			if rand() < bModel.Retake {
				retaken := *next
				retaken.Mine.SetPiece(mv.To, chess.NoPiece)
				next = &retaken
			}
		}
		if next == nil {
			break // the summary has no made answer: the line ends here
		}
		cur = replyB(next)
	}
	return t.value(summaryMaterial(cur))
}

// replyB is approach B's opponent move after our answered move: the
// summary's spread, scored on the summary's expected material alone (its
// Gain is dropped). A made move onto a square where the opponent has a
// man with chance p is then worth p of that man whichever message the
// model drew, as the summary expects. Keeping Gain would score the model's
// capture as the whole man, since the model draws a capture at its own
// rate (about a quarter), not the summary's p: every square that might
// hold a man, however unlikely, would look like a quarter of a man won.
// The SPRT against keeping it (B k=1 at 10 ms, results/ks-programs/mcts-b)
// accepted H0.
func replyB(after *metapos.Summary) *metapos.Summary {
	next := after.OpponentMoves()
	next.Gain = 0
	return next
}

// summaryMaterial is the summary's material balance for us, centipawns.
func summaryMaterial(s *metapos.Summary) float64 {
	v := s.Gain - s.Material()
	for ty := chess.Pawn; ty < chess.King; ty++ {
		v += metapos.PieceValue[ty] * float64(s.Mine.PiecesOf(s.Us, ty).Count())
	}
	return v
}

// iterateB is approach B's iteration through the edge e of node: the first
// visit, and every visit at the tree's depth, runs one rollout; later
// visits draw one of the move's answers by its probability and follow a
// made one into the opponent's reply (an illegal answer is worth what the
// node is worth so far). Each iteration backs up the one value it found,
// as plain MCTS does.
func (t *tree) iterateB(node *searchNode, e *edge, depth int, rand func() float64) float64 {
	if e.guesses == nil {
		e.guesses = node.pos.Guesses(e.move)
	}
	if e.next == nil {
		e.next = make([]*searchNode, len(e.guesses))
	}
	var v float64
	if e.visits == 0 || depth >= t.cfg.MaxDepth {
		v = t.rollout(node.pos, e.move, rand)
	} else {
		r := rand()
		i := len(e.guesses) - 1
		for j, g := range e.guesses {
			if r < g.P {
				i = j
				break
			}
			r -= g.P
		}
		switch g := e.guesses[i]; {
		case g.Kind == metapos.AnswerMate:
			v = 1
		case g.Kind == metapos.AnswerDraw:
			v = t.value(0)
		case g.After == nil: // refused
			v = node.static
			if node.visits > 0 {
				v = node.sum / float64(node.visits)
			}
		default:
			if e.next[i] == nil {
				e.next[i] = &searchNode{pos: replyB(g.After), static: e.mean()}
			}
			v = t.iterate(e.next[i], depth+1, rand)
		}
	}
	e.visits++
	e.sum += v
	node.visits++
	node.sum += v
	return v
}
