// Package bots holds Kriegspiel players that think: they keep a belief of
// the opponent's men and score the boards in it with a chess evaluator. The
// rules, the referee and the random baseline are in package kriegspiel; this
// package adds what depends on the evaluator.
package bots

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/endgame"
)

// SamplingConfig tunes the sampling player.
type SamplingConfig struct {
	// Samples is the most boards of the belief a decision scores.
	Samples int
	// BeliefLimit is the most boards the exact belief keeps; a turn that
	// would exceed it thins the belief to ThinTo boards first.
	BeliefLimit, ThinTo int
	// Depth is the evaluator's depth for each scored position.
	Depth int
	// TurnsLeft is how many more turns the clock is planned for.
	TurnsLeft int
	// MoveTime caps each turn, the belief's update and the choice
	// together (0: no cap but the clock's share): a fixed time a move,
	// as Darkboard's MoveTime, for matches at equal time.
	MoveTime time.Duration
	// Belief is "exact" (thinned to ThinTo boards when it outgrows
	// BeliefLimit), or a sampling belief of ThinTo boards: "aosp", "los"
	// or "hybrid" (kriegspiel.NewView).
	Belief string
	// Recover is what the player does when its belief loses every board:
	// "hybrid" rebuilds a hybrid belief of RecoverSize boards from the
	// game so far (recover.go), "none" plays at random from then on.
	Recover     string
	RecoverSize int
}

// DefaultSamplingConfig returns the settings the player is measured with.
func DefaultSamplingConfig() SamplingConfig {
	return SamplingConfig{Samples: 48, BeliefLimit: 200_000, ThinTo: 2_000, Depth: 6, TurnsLeft: 40, Belief: "exact",
		Recover: "hybrid", RecoverSize: 64}
}

// Sampling is a Kriegspiel player in the manner of Blindfish in RBC: it
// keeps the exact belief (kriegspiel.Belief), thinned to a random subset
// when it grows too large, and at each question scores every move it may ask
// on a sample of the belief's boards with the evaluator. It asks the move
// with the best mean score over the boards where that move is legal: an
// illegal try costs nothing but tells the belief something, so what a move
// is worth when it is made is what matters. If the belief loses the true
// board (possible only after a thinning) it plays on from random boards of
// its own men's moves, as the random player would.
type Sampling struct {
	cfg    SamplingConfig
	eval   evaluator.Evaluator
	log    *slog.Logger
	rng    *rand.Rand
	belief kriegspiel.View
	color  chess.Color
	lost   bool // the belief emptied and was not rebuilt: play at random
	game   game // what a rebuilt belief is built from
	owned  bool // Close closes eval
	// scores caches the evaluation of (board, move) for the turn: a
	// question refused makes the player choose again from the same boards.
	scores map[scoreKey]int
	// plan shares the clock out between turns, the belief and the choice.
	plan timePlan
	// ending follows the game for the endings the belief above cannot
	// convert: once the opponent has only its king, it chooses the tries
	// (endgameQuestion).
	ending *endgame.Tracker
	// Thinnings and Losses count the game's cuts of the belief and its
	// losses of the true board, Recoveries its rebuilds tried, for the
	// game's end line.
	Thinnings, Losses, Recoveries int
}

type scoreKey struct {
	board uint64
	move  chess.Move
}

// NewSampling returns a sampling player scoring with eval (which it does not
// close) whose random choices follow from seed.
func NewSampling(cfg SamplingConfig, eval evaluator.Evaluator, seed uint64, log *slog.Logger) *Sampling {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Sampling{cfg: cfg, eval: eval, log: log, rng: rand.New(rand.NewPCG(seed, 0x53616d70))}
}

// HandleGameStart starts the belief from the known starting position.
func (p *Sampling) HandleGameStart(_ context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, _ string) error {
	p.color, p.lost = color, false
	p.game = game{rules: rules, start: start, pawnTries: pawnTries}
	p.ending = endgame.NewTracker(color, rules, start, 1) // its own seed: the player's stream stays as it was
	p.Thinnings, p.Losses, p.Recoveries = 0, 0, 0
	p.plan = timePlan{turnsLeft: p.cfg.TurnsLeft, cap: p.cfg.MoveTime}
	name, size := p.cfg.Belief, p.cfg.ThinTo
	if name == "" || name == "exact" {
		name, size = "exact", p.cfg.BeliefLimit
	}
	v, err := kriegspiel.NewView(name, color, rules, start, pawnTries, size, p.rng)
	if err != nil {
		return err
	}
	p.belief = v
	p.scores = map[scoreKey]int{}
	return nil
}

// HandleOpponentTurn starts our turn: it expands the belief by the
// opponent's move, within the belief's share of the turn (timePlan).
func (p *Sampling) HandleOpponentTurn(ctx context.Context, heard []kriegspiel.Heard) error {
	now := time.Now()
	p.plan.startTurn(now)
	clear(p.scores)
	p.game.hear(observed{heard: heard})
	if p.ending != nil {
		p.endgameHear(p.ending.Opponent(heard))
	}
	defer func() { p.plan.used(time.Since(now)) }()
	if p.lost {
		p.lost = !p.recover(ctx, now) // the last rebuild did not fit its turn
		return nil
	}
	p.check(ctx, now, p.expand(ctx, now, heard))
	return nil
}

// expand takes the opponent's turn into the belief. The exact belief is cut
// first to the boards it can expand before the belief's deadline at the
// speed measured so far. An expansion that still runs past the deadline,
// or past the belief's limit, stops (Belief.Opponent leaves the belief as
// it was); the belief is cut harder and expanded again, the last time from
// a handful of boards and with no deadline but the clock's. The sampling
// beliefs keep their own size and get no deadline.
func (p *Sampling) expand(ctx context.Context, now time.Time, heard []kriegspiel.Heard) error {
	exact, isExact := p.belief.(*kriegspiel.Belief)
	if !isExact {
		return p.belief.Opponent(ctx, heard)
	}
	deadline := p.plan.beliefDeadline(now)
	if n := fits(now, deadline, p.plan.perExpand); n >= 0 && exact.Len() > n {
		p.cut(exact, n)
	}
	for attempt := 1; ; attempt++ {
		n := exact.Len()
		start := time.Now()
		err := withDeadline(ctx, deadline, func(ctx context.Context) error { return exact.Opponent(ctx, heard) })
		took := time.Since(start)
		switch {
		case err == nil:
			measure(&p.plan.perExpand, n, took)
			return nil
		case ctx.Err() != nil || attempt == 5:
			return err
		case errors.Is(err, kriegspiel.ErrBeliefTooLarge):
			p.cut(exact, min(p.cfg.ThinTo, n/2))
		case errors.Is(err, context.DeadlineExceeded) && attempt < 3:
			// Slower than measured: at least took for every board.
			p.plan.perExpand = max(p.plan.perExpand, took/time.Duration(max(n, 1)))
			p.cut(exact, n/8)
			deadline = time.Now().Add(p.plan.turn / 8)
		case errors.Is(err, context.DeadlineExceeded):
			p.cut(exact, minBeliefBoards)
			deadline = time.Time{}
		default:
			return err
		}
	}
}

// cut thins the exact belief to n boards (at least minBeliefBoards) and
// counts it.
func (p *Sampling) cut(b *kriegspiel.Belief, n int) {
	n = max(n, minBeliefBoards)
	if b.Len() > n {
		p.Thinnings++
		b.Thin(n, p.rng)
	}
}

// withDeadline runs fn with ctx given a deadline, unless the deadline is
// zero (no limit).
func withDeadline(ctx context.Context, deadline time.Time, fn func(context.Context) error) error {
	if deadline.IsZero() {
		return fn(ctx)
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	return fn(ctx)
}

// check takes the belief's error: an empty belief means the true board was
// cut away. The player rebuilds a belief (recover.go), or goes on at random
// until a rebuild fits a turn.
func (p *Sampling) check(ctx context.Context, now time.Time, err error) {
	if err == nil {
		return
	}
	p.Losses++
	p.log.Warn("kriegspiel belief lost", "err", err)
	p.lost = !p.recover(ctx, now)
}

// HandleAnswer filters the belief by the answer to our question, cut first
// to what it can filter before the belief's deadline.
func (p *Sampling) HandleAnswer(ctx context.Context, q kriegspiel.Question, a kriegspiel.Answer) error {
	p.game.hear(observed{own: true, q: q, a: a})
	if p.ending != nil {
		p.endgameHear(p.ending.Own(q, a))
	}
	if p.lost {
		return nil // a rebuild is tried at the next turn
	}
	now := time.Now()
	defer func() { p.plan.used(time.Since(now)) }()
	deadline := p.plan.beliefDeadline(now)
	exact, isExact := p.belief.(*kriegspiel.Belief)
	if n := fits(now, deadline, p.plan.perAsk); isExact && n >= 0 && exact.Len() > n {
		p.cut(exact, n)
	}
	n := len(p.belief.Boards())
	err := withDeadline(ctx, deadline, func(ctx context.Context) error { return p.belief.Own(ctx, q, a) })
	switch {
	case err == nil:
		measure(&p.plan.perAsk, n, time.Since(now))
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil && len(p.belief.Boards()) > 0:
		// Our own deadline stopped it: the boards found consistent so
		// far are kept, a cut like the others.
		p.Thinnings++
	default:
		p.check(ctx, now, err)
	}
	return nil
}

// Close closes the evaluator when the player opened it (New).
func (p *Sampling) Close() error {
	if p.owned {
		return p.eval.Close()
	}
	return nil
}

// HandleGameEnd logs what became of the belief over the game: a match's
// log then tells how often it was cut, lost and rebuilt.
func (p *Sampling) HandleGameEnd(_ context.Context, res kriegspiel.Result, _ *kriegspiel.Record) error {
	boards := 0
	if p.belief != nil && !p.lost {
		boards = len(p.belief.Boards())
	}
	p.log.Info("kriegspiel game end", "color", p.color, "result", res.String(), "cuts", p.Thinnings,
		"losses", p.Losses, "rebuilds", p.Recoveries, "lost at the end", p.lost, "boards", boards)
	return nil
}

// ChooseQuestion scores the moves that may be asked on a sample of the
// belief until the turn's share of the clock is spent (timePlan), and asks
// the best.
func (p *Sampling) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, timeLeft time.Duration) (kriegspiel.Question, error) {
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
	if p.lost {
		return kriegspiel.TryMove(moves[p.rng.IntN(len(moves))]), nil
	}
	ctx, cancel := context.WithDeadline(ctx, p.plan.questionDeadline(now, timeLeft))
	defer cancel()

	boards := p.sample()
	sum := make([]int, len(moves))
	n := make([]int, len(moves))
	var buf [256]chess.Move
	scored := 0
	for _, b := range boards {
		legal := chess.AppendLegalMoves(&b, buf[:0])
		ok := true
		for i, m := range moves {
			if !slices.Contains(legal, m) {
				continue
			}
			v, err := p.score(ctx, b, m)
			if err != nil {
				ok = false
				break
			}
			sum[i] += v
			n[i]++
		}
		if !ok {
			break // out of time: the boards scored so far decide
		}
		scored++
	}
	best, bestValue := -1, 0
	for i := range moves {
		if n[i] == 0 {
			continue
		}
		v := sum[i] / n[i]
		if best < 0 || v > bestValue {
			best, bestValue = i, v
		}
	}
	if best < 0 {
		// Nothing scored in time (or no sampled board allows any listed
		// move): a move legal on the first board, else any.
		if len(boards) > 0 {
			for _, m := range chess.AppendLegalMoves(&boards[0], buf[:0]) {
				if slices.Contains(moves, m) {
					return kriegspiel.TryMove(m), nil
				}
			}
		}
		return kriegspiel.TryMove(moves[p.rng.IntN(len(moves))]), nil
	}
	p.log.Debug("kriegspiel move", "color", p.color, "belief", len(p.belief.Boards()), "boards", len(boards), "scored", scored,
		"move", moves[best], "score", bestValue, "legal on", n[best])
	return kriegspiel.TryMove(moves[best]), nil
}

// endgameQuestion is the hook of the endings (package endgame): when the
// opponent has only its king and we a queen or a rook, the tracker's mater
// chooses the try, over an exact belief of the king's square, and the
// player's own belief and search are not asked. ok is false otherwise.
func (p *Sampling) endgameQuestion(questions []kriegspiel.Question) (kriegspiel.Question, bool) {
	if p.ending == nil {
		return kriegspiel.Question{}, false
	}
	q, ok, err := p.ending.Choose(questions)
	p.endgameHear(err)
	return q, ok
}

// endgameHear logs the tracker's error: its belief is then lost, and the
// player goes on choosing its tries itself.
func (p *Sampling) endgameHear(err error) {
	if err != nil {
		p.log.Warn("kriegspiel endgame belief lost", "color", p.color, "err", err)
	}
}

// movesOf returns the moves among the referee's questions. With none, it
// returns the question to ask instead (only "any?" is left), or an error
// when the list is empty.
func movesOf(questions []kriegspiel.Question) ([]chess.Move, kriegspiel.Question, error) {
	moves := make([]chess.Move, 0, len(questions))
	for _, q := range questions {
		if !q.AskAny {
			moves = append(moves, q.Move)
		}
	}
	switch {
	case len(moves) > 0:
		return moves, kriegspiel.Question{}, nil
	case len(questions) == 0:
		return nil, kriegspiel.Question{}, errors.New("bots: no question to choose from")
	}
	return nil, questions[0], nil
}

// sample draws up to Samples boards of the belief without replacement.
func (p *Sampling) sample() []chess.Board {
	all := p.belief.Boards()
	if len(all) <= p.cfg.Samples {
		return slices.Clone(all)
	}
	out := make([]chess.Board, 0, p.cfg.Samples)
	for _, i := range p.rng.Perm(len(all))[:p.cfg.Samples] {
		out = append(out, all[i])
	}
	return out
}

// score returns the value for us of making the legal move m on b: the
// rules' verdict when the move ends the game, else the evaluator's score of
// the position for the opponent, negated.
func (p *Sampling) score(ctx context.Context, b chess.Board, m chess.Move) (int, error) {
	k := scoreKey{b.Key(), m}
	if v, ok := p.scores[k]; ok {
		return v, nil
	}
	after := b
	after.Apply(m)
	var v int
	switch {
	case chess.IsCheckmate(&after):
		v = evaluator.WinValue
	case chess.IsStalemate(&after) || kriegspiel.InsufficientMaterial(&after):
		v = 0
	default:
		s, err := p.eval.Evaluate(ctx, after, evaluator.Limits{Depth: p.cfg.Depth})
		if err != nil {
			return 0, fmt.Errorf("bots: evaluate: %w", err)
		}
		v = -s.Value()
	}
	p.scores[k] = v
	return v, nil
}
