package bots

import (
	"context"
	"log/slog"
	"math"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/metapos"
)

// MCTSConfig tunes the MCTS player.
type MCTSConfig struct {
	// Belief keeps the belief as for the sampling player (its Samples is
	// the most boards the root's answers are counted on).
	Belief SamplingConfig
	// Exploration is UCB1's constant on values in [0, 1].
	Exploration float64
	// MaxDepth is the most of our turns a line of the tree holds.
	MaxDepth int
	// Iterations is the most iterations a decision runs; 0 means
	// maxIterations. A decision stops at its share of the clock or there,
	// whichever comes first: with a clock too long to matter, a fixed
	// budget makes a game the same on any machine, however loaded.
	Iterations int
	// Approach is the paper's approach: "c" (the default: each move's
	// answers all scored at once), "b" (each simulation draws the
	// referee's messages for K of our moves and scores the material) or
	// "a" (each simulation draws a full board from the belief and plays
	// random moves to the end: mcts_a.go).
	Approach string
	// K is approach B's simulation length, in our moves.
	K int
}

// DefaultMCTSConfig returns the settings the player is measured with.
func DefaultMCTSConfig() MCTSConfig {
	belief := DefaultSamplingConfig()
	belief.Samples = 256
	return MCTSConfig{Belief: belief, Exploration: 0.25, MaxDepth: 4, Approach: "c", K: 1}
}

// MCTS is Ciancarini and Favini's "approach C" (Monte Carlo tree search in
// Kriegspiel, Artificial Intelligence 174, 2010) on Blindfish's beliefs:
// UCT over our own moves, where a move's simulation is one move long: its
// value is the average, weighted by their probabilities, of the referee's
// possible answers (illegal, made, a capture; mate and draw at the root),
// each scored by a static evaluation with a one-capture quiescence. The
// tree's positions are metapositions (metapos.Summary), a summary of the
// belief rather than sampled boards: the opponent's unseen moves spread its
// men over the squares they could reach. At the root the answers are
// counted on the belief's boards, so legality there is exact (pins,
// checks, the pawn tries); deeper they are guessed from the summary.
//
// It keeps its belief as the sampling player does (it embeds one, whose
// evaluator it does not use): the clock, the cuts and the rebuilds are
// the same, and only the choice of a question differs.
type MCTS struct {
	*Sampling
	cfg MCTSConfig
	// meta is Darkboard's metaposition of the game, kept beside the
	// belief: when the belief has lost the true board, the tree searches
	// from its summary (the paper's C had nothing else) instead of asking
	// at random.
	meta metapos.Metaposition
	// Iterations counts the game's tree iterations, for the game's end line;
	// MetaDecisions the decisions searched from the metaposition alone.
	Iterations, MetaDecisions int
}

// NewMCTS returns an MCTS player whose random choices follow from seed.
func NewMCTS(cfg MCTSConfig, seed uint64, log *slog.Logger) *MCTS {
	return &MCTS{Sampling: NewSampling(cfg.Belief, nil, seed, log), cfg: cfg}
}

// ChooseQuestion searches the tree until the turn's share of the clock is
// spent and asks the move searched most.
func (p *MCTS) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, timeLeft time.Duration) (kriegspiel.Question, error) {
	if q, ok := p.endgameQuestion(questions); ok {
		return q, nil
	}
	moves, only, err := movesOf(questions)
	if len(moves) == 0 {
		return only, err
	}
	now := time.Now()
	p.plan.told(timeLeft)
	defer func() { p.plan.used(time.Since(now)) }()
	boards := p.sample()
	lost := p.lost || len(boards) == 0
	if lost && p.cfg.Approach != "c" {
		return kriegspiel.TryMove(moves[p.rng.IntN(len(moves))]), nil
	}
	deadline := p.plan.questionDeadline(now, timeLeft)
	if p.cfg.Approach == "a" {
		return kriegspiel.TryMove(p.chooseA(ctx, boards, moves, deadline)), nil
	}
	var t *tree
	if lost {
		t = newMetaTree(&p.meta, moves, p.cfg)
		p.MetaDecisions++
	} else {
		t = newTree(p.game.rules, boards, p.color, moves, p.cfg)
	}
	n := t.search(ctx, deadline, p.rng.Float64)
	p.Iterations += n
	best := t.best()
	e := t.root.edges[best]
	p.log.Debug("kriegspiel mcts move", "color", p.color, "belief", len(p.belief.Boards()), "boards", len(boards),
		"iterations", n, "move", e.move, "visits", e.visits, "value", e.mean())
	return kriegspiel.TryMove(e.move), nil
}

// HandleGameStart starts the belief, the metaposition and the game's
// counts.
func (p *MCTS) HandleGameStart(ctx context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, opponent string) error {
	p.Iterations, p.MetaDecisions = 0, 0
	p.meta = metapos.New(color, start)
	return p.Sampling.HandleGameStart(ctx, color, rules, start, pawnTries, opponent)
}

// HandleOpponentTurn takes the opponent's turn into the metaposition (only
// approach C searches it) and the belief.
func (p *MCTS) HandleOpponentTurn(ctx context.Context, heard []kriegspiel.Heard) error {
	if p.cfg.Approach == "c" {
		if err := p.meta.Opponent(heard); err != nil {
			p.log.Warn("kriegspiel mcts metaposition", "color", p.color, "err", err)
		}
	}
	return p.Sampling.HandleOpponentTurn(ctx, heard)
}

// HandleAnswer takes our answer into the metaposition (approach C's) and
// the belief.
func (p *MCTS) HandleAnswer(ctx context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	if p.cfg.Approach == "c" {
		p.meta.Own(q, a)
	}
	return p.Sampling.HandleAnswer(ctx, q, a)
}

// HandleGameEnd logs the search's size, then the belief's story.
func (p *MCTS) HandleGameEnd(ctx context.Context, res kriegspiel.Result, rec *kriegspiel.Record) error {
	p.log.Info("kriegspiel mcts game end", "color", p.color, "iterations", p.Iterations, "metaposition decisions", p.MetaDecisions)
	return p.Sampling.HandleGameEnd(ctx, res, rec)
}

// tree is one decision's search.
type tree struct {
	cfg  MCTSConfig
	root *searchNode
	// centre is the root's static score: values are scored relative to
	// it (value), so that a side far ahead or behind still sees a rook
	// lost or won, where an absolute curve would flatten near 1 or 0 and
	// leave the choice to chance.
	centre float64
}

// value maps a score in centipawns to the search's value in [0, 1], on a
// logistic curve of 200 cp centred on the root's score: a pawn more than
// the root is worth 0.62, a rook 0.92.
func (t *tree) value(cp float64) float64 { return 1 / (1 + math.Exp(-(cp-t.centre)/200)) }

// searchNode is a position of the tree with us to move.
type searchNode struct {
	pos    *metapos.Summary
	static float64 // the position's value before any of our moves
	edges  []*edge
	visits int
	sum    float64
}

// edge is one of our moves from a node, with the referee's answers to it.
type edge struct {
	move    chess.Move
	guesses []metapos.Guess
	// est is each answer's value so far; next the node after the
	// opponent's reply to each made move; n how often each was followed.
	est    []float64
	next   []*searchNode
	n      []int
	visits int
	sum    float64
}

func (e *edge) mean() float64 {
	if e.visits == 0 {
		return 0
	}
	return e.sum / float64(e.visits)
}

// newTree builds the root from the belief's boards: its metaposition, and
// for each move the answers as the boards give them.
func newTree(rules kriegspiel.Ruleset, boards []chess.Board, us chess.Color, moves []chess.Move, cfg MCTSConfig) *tree {
	guesses := rootGuesses(rules, boards, us, moves)
	pos := metapos.Summarize(boards, us)
	root := &searchNode{pos: pos, static: 0.5}
	for i, gs := range guesses {
		if len(gs) == 1 && gs[0].Kind == metapos.AnswerIllegal {
			continue // refused on every board: asking it teaches nothing
		}
		root.edges = append(root.edges, &edge{move: moves[i], guesses: gs})
	}
	if len(root.edges) == 0 { // every move refused on every board (the boards are wrong): all may be asked
		for i, gs := range guesses {
			root.edges = append(root.edges, &edge{move: moves[i], guesses: gs})
		}
	}
	centre := pos.Evaluate()
	if cfg.Approach == "b" {
		centre = summaryMaterial(pos) // B scores its ends by material alone
	}
	return &tree{cfg: cfg, root: root, centre: centre}
}

// newMetaTree builds the root from the metaposition m alone, when the
// belief has no boards: every move may be asked, and its answers are
// guessed from m's summary, as deeper in the tree.
func newMetaTree(m *metapos.Metaposition, moves []chess.Move, cfg MCTSConfig) *tree {
	pos := metapos.SummarizeMetaposition(m)
	root := &searchNode{pos: pos, static: 0.5}
	for _, mv := range moves {
		root.edges = append(root.edges, &edge{move: mv})
	}
	return &tree{cfg: cfg, root: root, centre: pos.Evaluate()}
}

// rootGuesses counts the referee's answers to each move over the boards,
// each answer as the referee would give it (illegal; made, with its
// capture, checks and pawn tries; the game's end). The boards of each
// answer that goes on, after the move, are summarized into its
// metaposition, so that a check or a capture narrows what follows as it
// will in the game.
func rootGuesses(rules kriegspiel.Ruleset, boards []chess.Board, us chess.Color, moves []chess.Move) [][]metapos.Guess {
	type group struct {
		Kind   metapos.AnswerKind
		n      int
		boards []chess.Board
	}
	out := make([][]metapos.Guess, len(moves))
	var buf [256]chess.Move
	groups := make([]map[kriegspiel.Answer]*group, len(moves))
	order := make([][]*group, len(moves)) // the groups as first met: a deterministic order
	illegal := make([]int, len(moves))
	for i := range groups {
		groups[i] = map[kriegspiel.Answer]*group{}
	}
	for _, b := range boards {
		legal := chess.AppendLegalMoves(&b, buf[:0])
		for i, m := range moves {
			if !slices.Contains(legal, m) {
				illegal[i]++
				continue
			}
			a, after := kriegspiel.Announce(rules, b, m)
			g := groups[i][a]
			if g == nil {
				g = &group{Kind: metapos.AnswerSilent}
				switch winner, won := a.End.Winner(); {
				case won && winner == us:
					g.Kind = metapos.AnswerMate
				case a.End != kriegspiel.NotOver:
					g.Kind = metapos.AnswerDraw
				case a.Verdict == kriegspiel.Captured:
					g.Kind = metapos.AnswerCapture
				}
				groups[i][a] = g
				order[i] = append(order[i], g)
			}
			g.n++
			if g.Kind == metapos.AnswerSilent || g.Kind == metapos.AnswerCapture {
				g.boards = append(g.boards, after)
			}
		}
	}
	total := float64(len(boards))
	for i := range moves {
		if illegal[i] > 0 {
			out[i] = append(out[i], metapos.Guess{Kind: metapos.AnswerIllegal, P: float64(illegal[i]) / total})
		}
		for _, g := range order[i] {
			gs := metapos.Guess{Kind: g.Kind, P: float64(g.n) / total}
			if len(g.boards) > 0 {
				gs.After = metapos.Summarize(g.boards, us)
			}
			out[i] = append(out[i], gs)
		}
	}
	return out
}

// search runs iterations until the deadline (or ctx) and returns how many
// it ran. rand is the source of the answers followed.
func (t *tree) search(ctx context.Context, deadline time.Time, rand func() float64) int {
	if len(t.root.edges) < 2 {
		return 0
	}
	limit := t.cfg.Iterations
	if limit <= 0 {
		limit = maxIterations
	}
	n := 0
	for n < limit {
		for range min(32, limit-n) {
			t.iterate(t.root, 1, rand)
			n++
		}
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			break
		}
	}
	return n
}

// maxIterations bounds one decision's search: past it the choice no longer
// changes in practice, and the clock is better kept.
const maxIterations = 200_000

// iterate runs one iteration from node: it picks a move by UCB1 and scores
// it, the first time by approach C's one-move simulation (every answer's
// static value), later by following one made answer into the opponent's
// reply and our next move. It returns the value found, for us.
func (t *tree) iterate(node *searchNode, depth int, rand func() float64) float64 {
	if node.edges == nil {
		var buf [256]chess.Move
		for _, m := range node.pos.Mine.AppendMoveActions(buf[:0]) {
			if m.Promotion == chess.NoPieceType && (m.To.Rank() == 0 || m.To.Rank() == 7) &&
				node.pos.Mine.PieceAt(m.From).Type() == chess.Pawn {
				continue // a pawn reaching the last rank must promote
			}
			node.edges = append(node.edges, &edge{move: m})
		}
		if len(node.edges) == 0 {
			return node.static
		}
	}
	e := t.pick(node)
	if t.cfg.Approach == "b" {
		return t.iterateB(node, e, depth, rand)
	}
	if e.visits == 0 {
		if e.guesses == nil {
			e.guesses = node.pos.Guesses(e.move)
		}
		e.est = make([]float64, len(e.guesses))
		e.n = make([]int, len(e.guesses))
		e.next = make([]*searchNode, len(e.guesses))
		for i, g := range e.guesses {
			switch g.Kind {
			case metapos.AnswerMate:
				e.est[i] = 1
			case metapos.AnswerDraw:
				e.est[i] = t.value(0)
			case metapos.AnswerIllegal:
			default:
				e.est[i] = t.value(g.After.Evaluate())
			}
		}
	} else if depth < t.cfg.MaxDepth {
		if i := follow(e.guesses, rand()); i >= 0 {
			if e.next[i] == nil {
				e.next[i] = &searchNode{pos: t.reply(e.guesses[i].After), static: e.est[i]}
			}
			v := t.iterate(e.next[i], depth+1, rand)
			e.n[i]++
			e.est[i] += (v - e.est[i]) / float64(e.n[i]+1)
		}
	}
	// An illegal answer leaves us to choose again from here: worth what
	// this node is worth so far.
	stay := node.static
	if node.visits > 0 {
		stay = node.sum / float64(node.visits)
	}
	v := 0.0
	for i, g := range e.guesses {
		if g.Kind == metapos.AnswerIllegal {
			v += g.P * stay
		} else {
			v += g.P * e.est[i]
		}
	}
	e.visits++
	e.sum += v
	node.visits++
	node.sum += v
	return v
}

// reply returns the node after the opponent's unseen move from after (the
// opponent to move). The summary's move never captures (a capture would be
// heard), so what the opponent could take at once, which after's own score
// counts, is charged to the new node's material: otherwise every line
// below would score as if a man left hanging were safe, and a deeper
// search would wash out the one-move quiescence that keeps it.
func (t *tree) reply(after *metapos.Summary) *metapos.Summary {
	next := after.OpponentMoves()
	next.Gain -= after.ExpectedLoss()
	return next
}

// pick returns the node's move to follow: an unvisited one first, in
// order, then the best by UCB1.
func (t *tree) pick(node *searchNode) *edge {
	var best *edge
	bestScore := math.Inf(-1)
	logN := math.Log(float64(node.visits))
	for _, e := range node.edges {
		if e.visits == 0 {
			return e
		}
		s := e.mean() + t.cfg.Exploration*math.Sqrt(logN/float64(e.visits))
		if s > bestScore {
			best, bestScore = e, s
		}
	}
	return best
}

// follow picks a made answer (silent or a capture) with its probability
// among those, or -1 when the move has none.
func follow(gs []metapos.Guess, r float64) int {
	total := 0.0
	for _, g := range gs {
		if g.After != nil {
			total += g.P
		}
	}
	if total == 0 {
		return -1
	}
	r *= total
	last := -1
	for i, g := range gs {
		if g.After == nil {
			continue
		}
		last = i
		if r < g.P {
			return i
		}
		r -= g.P
	}
	return last
}

// best returns the index of the root's move searched most (the best mean
// among equals): the robust child of UCT.
func (t *tree) best() int {
	best := 0
	for i, e := range t.root.edges {
		b := t.root.edges[best]
		if e.visits > b.visits || (e.visits == b.visits && e.mean() > b.mean()) {
			best = i
		}
	}
	return best
}
