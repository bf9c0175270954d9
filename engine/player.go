package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// Options are what a Blindfish player takes besides its Config.
type Options struct {
	// Seed seeds every random choice of the player and of its belief.
	Seed int64
	// Evaluator, if set, is used (and not closed) by the player; otherwise
	// the player opens the one Config.Eval names at game start and closes
	// it at game end (or Close).
	Evaluator evaluator.Evaluator
	// Logger receives the player's logs; nil means slog.Default().
	Logger *slog.Logger
	// Now is the time source of the clock manager, which the player's
	// callbacks are timed on too; nil means time.Now. (A test that plays
	// under the referee's virtual clock passes that clock's Now: the
	// player then plans with the time the referee charges. Deadlines, of
	// the strategies and on the callbacks, stay real.)
	Now func() time.Time
	// NewBelief, if set, makes every belief the player keeps in place of
	// sampler.New: the first one (Config.Sampler, at the first decision)
	// and each cheaper one failover replaces it with ("hybrid", then
	// "los"), with the options the player chose for it. A test slows a
	// belief down by wrapping what sampler.New returns; a host may supply
	// a belief of its own. The stand-in (a small particle filter the safe
	// choices use while the belief is behind) is not made by it.
	NewBelief BeliefFactory
}

// Player is the Blindfish bot: a belief (a sampler by name), an evaluator,
// a sense strategy, a move strategy and a clock manager, composed as a
// Config says. It implements rbc.Player for one game.
//
// It is built never to lose by misbehaving: every callback recovers from a
// panic with a safe choice, all work runs under deadlines from the clock
// manager (a belief update that overruns is retried later rather than
// waited for), every sense is one of the sense actions or a pass, and every
// move is one of the move actions or a pass.
type Player struct {
	cfg  Config
	opts Options
	log  *slog.Logger
	rngs playerRands

	sense SenseStrategy
	move  MoveStrategy
	clock *ClockManager
	// beliefs keeps the belief up to date in the background, with its
	// failover and stand-in (beliefrunner.go).
	beliefs *beliefRunner
	// eng is the evaluation machinery the decisions score with.
	eng scoringState

	color chess.Color
	turn  int
	// notes and reply carry what a turn's callbacks learn to the ones
	// after them: the player's own, and the reply model's.
	notes turnNotes
	reply replyState

	stats PlayerStats
}

// playerRands are a player's random sources.
type playerRands struct {
	// decide is lent to the strategies (TurnView.Rand).
	decide *rand.Rand
	// fallback draws the fallback choices: decide may be lent to a
	// decision still running in the background.
	fallback *rand.Rand
}

// turnNotes is what a turn's callbacks leave for the ones after them.
type turnNotes struct {
	// captured is where the opponent captured one of our pieces on its
	// last move (NoSquare if it did not).
	captured chess.Square
	// carry holds the boards the sense decision scored this turn, filtered
	// by the sense result, for the move decision.
	carry []sampler.Weighted
	// mode is the effort mode of the latest move decision (the tests read
	// it to tell a short clock from a failure).
	mode Mode
}

// PlayerStats counts what a player did over its game (Player.Stats), for
// logs and match reports: its decisions and their failures, where
// sampler.BeliefStats counts what its belief cost.
type PlayerStats struct {
	Turns        int
	FastTurns    int
	Emergencies  int
	Panics       int
	Fallbacks    int // decisions that fell back to a safe choice
	Cutoffs      int // decisions answered from what was ready at their hard deadline
	LateUpdates  int // belief updates that missed their deadline
	HeldUpdates  int // callbacks whose belief updates waited for a decision still running past its hard deadline
	Failovers    int // beliefs replaced by a cheaper one
	BoardsScored int // fully scored boards over all move decisions
	Replies      int // turns whose belief the reply model weighed (Config.Reply)
	Depth        int // the engine depth at the end
	// BeliefMB is the exact belief's budget (memory=, or from the clock)
	// and BeliefPeakMB the most its boards took at once, live set and
	// backlog together (read when the player closes; twice the budget at
	// most: see MemoryBound).
	BeliefMB, BeliefPeakMB int
	// EnginesPeakMB adds up the peak memory of the Stockfish processes
	// the evaluator ran (evaluator.MemoryReporter; 0 for the embedded one
	// or where the system does not report it).
	EnginesPeakMB int
	// Slowness is the highest slowness the clock manager measured: the
	// decisions' wall time over their budgets on a turn (1: never slower
	// than planned, or less than 15% slower).
	Slowness float64
}

// NewBlindfish returns a player configured by cfg. It checks the
// composition (strategy and sampler names) but starts nothing: the evaluator
// is opened at game start and the belief made at the first decision, once
// the clock is known.
func NewBlindfish(cfg Config, opts Options) (*Player, error) {
	if !slices.Contains(sampler.Names(), cfg.Sampler) {
		return nil, fmt.Errorf("engine: unknown sampler %q", cfg.Sampler)
	}
	sense, err := NewSenseStrategy(cfg.Sense, &cfg)
	if err != nil {
		return nil, err
	}
	move, err := NewMoveStrategy(cfg.Move, &cfg)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("bot", "blindfish")
	return &Player{
		cfg:     cfg,
		opts:    opts,
		log:     log,
		rngs:    playerRands{decide: NewRand(opts.Seed), fallback: NewRand(^opts.Seed)},
		sense:   sense,
		move:    move,
		clock:   NewClockManager(ClockConfig{Split: cfg.Split, Turns: cfg.Turns, Reserve: cfg.Reserve, Inc: cfg.Inc}, opts.Now),
		beliefs: newBeliefRunner(cfg.Sampler, cfg.MemoryMB, cfg.Pool, opts.Seed, opts.NewBelief, log),
		eng:     scoringState{depth: cfg.Depth},
		notes:   turnNotes{captured: chess.NoSquare},
	}, nil
}

// newBlindfishBot builds the registry's "blindfish" bot from a spec's settings.
func newBlindfishBot(p Params, seed int64) (rbc.Player, error) {
	cfg, err := ParseConfig(p)
	if err != nil {
		return nil, err
	}
	return NewBlindfish(cfg, Options{Seed: seed})
}

// Config returns the player's configuration.
func (p *Player) Config() Config { return p.cfg }

// Stats returns the player's counters so far.
func (p *Player) Stats() PlayerStats {
	s := p.stats
	s.Depth = p.eng.depth
	s.Slowness = p.clock.PeakSlowness()
	c := p.beliefs.counts
	s.LateUpdates, s.HeldUpdates, s.Failovers = c.late, c.held, c.failovers
	s.BeliefMB, s.BeliefPeakMB = p.beliefs.memoryMB, c.peakMB
	return s
}

// Degradations counts, by kind, how often the player answered a loaded
// machine or a short clock in a cheaper way in its game: emergency turns,
// decisions cut off at their hard deadline ("cutoffs"), other fallbacks to
// a safe choice ("fallbacks", cut-offs not included, so that the counts add
// up to the events), late and held belief updates, and failovers to a
// cheaper belief; zero counts are left out. These are the routine costs the
// game-end line counts (logged at Debug as they happen, never as a warning
// per turn); a match records them in its results log and table
// (match.DegradationReporter). A Player plays one game, so they are that
// game's. Call it once the game's callbacks have returned.
func (p *Player) Degradations() map[string]int {
	s := p.Stats()
	counts := map[string]int{
		"emergencies":  s.Emergencies,
		"cutoffs":      s.Cutoffs,
		"fallbacks":    s.Fallbacks - s.Cutoffs,
		"late_updates": s.LateUpdates,
		"held_updates": s.HeldUpdates,
		"failovers":    s.Failovers,
	}
	for k, n := range counts {
		if n == 0 {
			delete(counts, k)
		}
	}
	return counts
}

// recoverTo turns a panic in a callback into a logged, counted fallback.
func (p *Player) recoverTo(name string, fallback func()) {
	if v := recover(); v != nil {
		p.stats.Panics++
		p.log.Error("panic in callback; falling back to a safe choice", "callback", name,
			"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		fallback()
	}
}

// HandleGameStart opens the evaluator and queues the start for the belief.
func (p *Player) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) (err error) {
	defer p.recoverTo("HandleGameStart", func() { err = nil })
	p.color = color
	p.log = p.log.With("color", color.String())
	p.log.Info("game start", "opponent", opponentName, "config", p.cfg.String())

	// The belief is made at our first decision, when the clock is known
	// (its memory budget follows the clock); until then observations queue.
	// The stand-in takes them at once.
	p.beliefs.begin(p.log)
	p.beliefs.enqueue("game start", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleGameStart(ctx, color, board)
	})

	if p.opts.Evaluator != nil {
		p.eng.eval = p.opts.Evaluator
	} else {
		e, err := evaluator.Open(ctx, p.cfg.Eval, evaluator.OpenConfig{Engines: p.cfg.Engines, Logger: p.log})
		if err != nil {
			// A missing Stockfish must not cost the game: play on the
			// embedded search and say so.
			p.log.Warn("evaluator unavailable; using the embedded one", "want", string(p.cfg.Eval), "err", err)
			e = evaluator.NewEmbedded()
		}
		p.eng.eval, p.eng.owned = e, true
	}
	p.eng.scorer = evaluator.NewMoveScorer(p.eng.eval, evaluator.DefaultMoveTerms(), 1<<18)
	return nil
}

// HandleOpponentMoveResult feeds the capture notice to the belief.
func (p *Player) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare chess.Square) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() { p.record(start, planned, false) }()
	defer p.recoverTo("HandleOpponentMoveResult", func() { err = nil })
	p.turn++
	p.stats.Turns++
	p.notes.carry = nil
	p.reply.model = nil
	sq := captureSquare
	if !capturedMyPiece {
		sq = chess.NoSquare
	}
	p.notes.captured = sq
	planned = p.observe(ctx, 4, "capture notice", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleOpponentMoveResult(ctx, capturedMyPiece, sq)
	})
	return nil
}

// ChooseSense picks a window with the configured sense strategy within the
// clock manager's sense budget. The strategy runs on its own goroutine: if
// it has not answered by the budget's hard deadline, a random inner window
// is the answer and the strategy finishes in the background (see decide).
func (p *Player) ChooseSense(ctx context.Context, senseActions []chess.Square, moveActions []chess.Move, secondsLeft time.Duration) (sq chess.Square, err error) {
	start, began := time.Now(), p.now()
	budget := p.clock.StartSense(secondsLeft)
	defer func() { p.record(began, budget.Time, true) }()
	defer p.recoverTo("ChooseSense", func() { sq, err = p.fallbackSense(senseActions), nil })
	p.countMode(budget.Mode)
	dctx, cancel := context.WithTimeout(ctx, budget.Time)
	defer cancel()
	p.beliefs.ensure(secondsLeft)
	if !p.flush(dctx, budget.Time) {
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	if size := p.beliefs.current().Size(); size.Exact && size.Boards == 1 && size.Deferred == 0 {
		return chess.NoSquare, nil // the board is known: nothing to learn
	}
	t := p.newTurnView(budget, senseActions, moveActions)
	parents := p.reply.parents
	p.reply.parents = nil
	ans, ok := decide(ctx, p, "sense decision", start.Add(budget.Hard), func(keep func([]sampler.Weighted)) (chess.Square, error) {
		t.keep = keep
		t.replies = turnReplies(dctx, t, parents)
		return p.sense.ChooseSense(dctx, t)
	})
	switch {
	case !ok:
		p.cutOff("sense", budget, start)
		return p.fallbackSense(senseActions), nil
	case ans.panic != nil:
		p.panicked("ChooseSense", ans.panic, ans.stack)
		return p.fallbackSense(senseActions), nil
	}
	p.notes.carry = ans.kept
	if p.reply.model = t.replies; p.reply.model != nil {
		p.stats.Replies++
	}
	if sq, err = ans.v, ans.err; err != nil {
		p.log.Log(ctx, strategyFailureLevel(err), "sense strategy failed; sensing at random", "turn", p.turn, "err", err)
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	if sq != chess.NoSquare && !slices.Contains(senseActions, sq) {
		p.log.Error("sense strategy chose a square outside the sense actions", "square", sq)
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	p.log.Debug("sensed", "turn", p.turn, "square", sq.String(), "mode", budget.Mode.String(),
		"budget", budget.Time, "took", time.Since(start), "belief", p.beliefs.current().Size().Boards)
	return sq, nil
}

// HandleSenseResult feeds the sense result to the belief.
func (p *Player) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() { p.record(start, planned, false) }()
	defer p.recoverTo("HandleSenseResult", func() { err = nil })
	res := slices.Clone(result)
	p.notes.carry = consistentWith(p.notes.carry, res)
	planned = p.observe(ctx, 2, "sense result", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleSenseResult(ctx, res)
	})
	return nil
}

// ChooseMove picks a move with the configured move strategy within the clock
// manager's move budget. The answer is always one of moveActions or a pass.
// The strategy runs on its own goroutine: if it has not answered by the
// budget's hard deadline, the answer is a safe move (see safeMove) and the
// strategy finishes in the background.
func (p *Player) ChooseMove(ctx context.Context, moveActions []chess.Move, secondsLeft time.Duration) (mv chess.Move, err error) {
	start, began := time.Now(), p.now()
	budget := p.clock.StartMove(secondsLeft)
	p.notes.mode = budget.Mode
	defer func() { p.record(began, budget.Time, true) }()
	defer p.recoverTo("ChooseMove", func() { mv, err = chess.Move{}, nil })

	dctx, cancel := context.WithTimeout(ctx, budget.Time)
	defer cancel()
	p.beliefs.ensure(secondsLeft)
	if !p.flush(dctx, budget.Time) {
		p.stats.Fallbacks++
		return p.safeMove(p.notes.carry, moveActions), nil
	}
	if p.cfg.Reply > 0 {
		p.reply.preMove = snapshotParents(dctx, p.beliefs.current())
	}
	t := p.newTurnView(budget, nil, moveActions)
	t.Prior, p.notes.carry = p.notes.carry, nil
	t.replies = p.reply.model
	ans, ok := decide(ctx, p, "move decision", start.Add(budget.Hard), func(func([]sampler.Weighted)) (chess.Move, error) {
		return p.move.ChooseMove(dctx, t)
	})
	switch {
	case !ok:
		p.cutOff("move", budget, start)
		return p.safeMove(t.Prior, moveActions), nil
	case ans.panic != nil:
		p.panicked("ChooseMove", ans.panic, ans.stack)
		return p.safeMove(t.Prior, moveActions), nil
	}
	if mv, err = ans.v, ans.err; err != nil {
		// The strategy could not even sample the belief in time (its own
		// fallbacks cover slow engines): the safe move rather than spend more.
		p.log.Log(ctx, strategyFailureLevel(err), "move strategy failed; playing the safe move", "turn", p.turn, "err", err)
		p.stats.Fallbacks++
		return p.safeMove(t.Prior, moveActions), nil
	}
	if !mv.IsNull() && !slices.Contains(moveActions, mv) {
		p.log.Error("move strategy chose a move outside the move actions; playing the safe move", "move", mv)
		p.stats.Fallbacks++
		return p.safeMove(t.Prior, moveActions), nil
	}
	took := time.Since(start)
	p.adaptDepth(t.Scoring, budget, took)
	p.log.Debug("moved", "turn", p.turn, "move", mv.String(), "mode", budget.Mode.String(),
		"budget", budget.Time, "took", took, "depth", t.Scoring.lim.Depth)
	return mv, nil
}

// strategyFailureLevel is the level a strategy's error is logged at: its
// budget running out (the strategy could not even sample the belief in
// time) is routine on a loaded machine and counted as a fallback in the
// game-end line, so Debug; any other error is a fault, a warning.
func strategyFailureLevel(err error) slog.Level {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// HandleMoveResult feeds our move result to the belief (which then expands
// in the background while the opponent thinks).
func (p *Player) HandleMoveResult(ctx context.Context, requested, taken chess.Move, capturedOpponentPiece bool, captureSquare chess.Square) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() {
		p.record(start, planned, false)
		p.clock.EndTurn()
	}()
	defer p.recoverTo("HandleMoveResult", func() { err = nil })
	sq := captureSquare
	if !capturedOpponentPiece {
		sq = chess.NoSquare
	}
	p.reply.parents = parentsAfter(p.reply.preMove, requested, taken, sq)
	p.reply.preMove = nil
	planned = p.observe(ctx, 0, "move result", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleMoveResult(ctx, requested, taken, capturedOpponentPiece, sq)
	})
	return nil
}

// now reads the clock manager's time source (Options.Now).
func (p *Player) now() time.Time {
	if p.opts.Now != nil {
		return p.opts.Now()
	}
	return time.Now()
}

// record charges a callback that started at start (p.now) to the clock
// manager and tells it what the callback had planned to take, so that it
// learns how slow the machine is (ClockManager.Record).
func (p *Player) record(start time.Time, planned time.Duration, decision bool) {
	took := p.now().Sub(start)
	p.clock.Charge(took)
	p.clock.Record(planned, took, decision)
}

// answer is what a decision's goroutine hands back: the choice, the boards
// a sense strategy kept for the move, its error, or the panic it met.
type answer[T any] struct {
	v     T
	kept  []sampler.Weighted
	err   error
	panic any
	stack []byte
}

// decide runs a strategy's decision fn on its own goroutine and waits for
// its answer until deadline (the budget's hard deadline) or ctx's end. It
// reports false when it stopped waiting: the caller then answers with what
// is ready, and the decision, whose context the caller cancels on
// returning, finishes in the background as the player's in-flight work
// (beliefRunner.hold), which the next flush waits for before anything else touches
// the belief, the random source or the scorer. A strategy honours its
// context, but on a starved machine the work between two looks at it (a
// belief sample, an engine's answer to "stop") can take longer than the
// whole clock allows: no answer waits for it.
func decide[T any](ctx context.Context, p *Player, name string, deadline time.Time, fn func(keep func([]sampler.Weighted)) (T, error)) (answer[T], bool) {
	res := make(chan answer[T], 1)
	done := make(chan error, 1)
	go func() {
		var a answer[T]
		defer func() {
			if v := recover(); v != nil {
				a.panic, a.stack = v, debug.Stack()
			}
			res <- a
			done <- nil
		}()
		a.v, a.err = fn(func(ws []sampler.Weighted) { a.kept = ws })
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case a := <-res:
		return a, true
	case <-timer.C:
	case <-ctx.Done():
	}
	select {
	case a := <-res: // it answered just as the wait ended
		return a, true
	default:
	}
	p.beliefs.hold(name, done)
	return answer[T]{}, false
}

// cutOff records a decision answered from what was ready at its hard
// deadline. On a loaded machine that is routine, counted in the game-end
// line (cut-offs, fallbacks), so it is logged at Debug.
func (p *Player) cutOff(what string, b Budget, start time.Time) {
	p.stats.Cutoffs++
	p.stats.Fallbacks++
	p.log.Debug("decision not done by its hard deadline; answering with what is ready", "decision", what,
		"turn", p.turn, "budget", b.Time, "hard", b.Hard, "took", time.Since(start), "mode", b.Mode.String(),
		"slowness", p.clock.Slowness(), "lag", p.clock.Lag())
}

// panicked logs and counts a panic a strategy met on its goroutine.
func (p *Player) panicked(name string, v any, stack []byte) {
	p.stats.Panics++
	p.log.Error("panic in callback; falling back to a safe choice", "callback", name,
		"panic", fmt.Sprint(v), "stack", string(stack))
}

// safeMoveBoards bounds the boards safeMove scores: static scores take
// microseconds a board, and it answers past a deadline.
const safeMoveBoards = 16

// safeMove is the move when the move decision cannot answer in time: the
// static choice (no engine: the king capture and exposure terms and
// material, as the static strategy scores) on the boards the sense decision
// scored this turn that agree with the sense result, or else on the
// stand-in's boards; a pass only when neither has any. Both are consistent
// with every observation up to the sense, so the move suits the belief; it
// costs a millisecond.
func (p *Player) safeMove(boards []sampler.Weighted, actions []chess.Move) chess.Move {
	if len(boards) == 0 {
		boards = p.beliefs.standInBoards(safeMoveBoards)
	}
	if len(boards) == 0 || len(actions) == 0 {
		return chess.Move{}
	}
	boards = boards[:min(len(boards), safeMoveBoards)]
	reqs := Requests(actions, &boards[0].Board)
	best, _ := chooseRequest(StaticMatrix(boards, reqs), &p.cfg, &boards[0].Board, nil)
	if mv := reqs[best]; mv.IsNull() || slices.Contains(actions, mv) {
		return mv
	}
	return chess.Move{}
}

// HandleGameEnd logs the game's summary and releases the belief and the
// evaluator.
func (p *Player) HandleGameEnd(ctx context.Context, outcome rbc.Outcome, history *rbc.History) (err error) {
	defer p.recoverTo("HandleGameEnd", func() { err = nil })
	err = p.Close() // first: the belief's peak is read once its updates have stopped
	s := p.Stats()
	p.log.Info("game end", "outcome", outcome.String(), "turns", s.Turns, "fast", s.FastTurns,
		"emergency", s.Emergencies, "fallbacks", s.Fallbacks, "cut-offs", s.Cutoffs, "late updates", s.LateUpdates,
		"held updates", s.HeldUpdates, "failovers", s.Failovers, "panics", s.Panics, "replies", s.Replies, "depth", s.Depth, "slowness", math.Round(s.Slowness*100)/100,
		"belief MB", s.BeliefMB, "belief peak MB", s.BeliefPeakMB, "engines peak MB", s.EnginesPeakMB)
	return err
}

// Close releases the belief (and any belief abandoned by failover, waiting
// for them within closeWait) and, if the player opened it, the evaluator.
// It is called by HandleGameEnd; call it yourself when a game is abandoned.
func (p *Player) Close() error {
	if p.beliefs.isClosed() {
		return nil
	}
	var errs []error
	if err := p.beliefs.close(); err != nil {
		errs = append(errs, err)
	}
	if p.eng.owned && p.eng.eval != nil {
		if err := p.eng.eval.Close(); err != nil {
			errs = append(errs, fmt.Errorf("engine: closing the evaluator: %w", err))
		}
	}
	if m, ok := p.eng.eval.(evaluator.MemoryReporter); ok { // read after Close: each engine is read as it stops
		p.stats.EnginesPeakMB = int(m.EnginesPeakRSS() >> 20)
	}
	return errors.Join(errs...)
}

// observe queues a belief update and applies the queue within the notice
// budget (ClockManager.NoticeBudget; after is how many callbacks of the turn
// follow this one), which it returns. An update that misses it goes on in
// the background and the next callback waits for it first, so a slow belief
// costs a weaker decision, never the clock.
func (p *Player) observe(ctx context.Context, after int, name string, apply func(context.Context, sampler.Sampler) error) time.Duration {
	p.beliefs.enqueue(name, apply)
	var bound time.Duration
	if dl, ok := ctx.Deadline(); ok {
		// The callback's deadline is our clock under the system clock (one
		// in the past is another clock's, a test's virtual time: ignored).
		bound = max(time.Until(dl), 0)
	}
	budget := p.clock.NoticeBudget(after, bound)
	p.flush(ctx, budget)
	return budget
}

// flush brings the belief up to date within budget (beliefRunner.flush) and
// reports whether it is. The boards the sense decision kept are dropped when
// the belief was replaced meanwhile.
func (p *Player) flush(ctx context.Context, budget time.Duration) bool {
	failovers := p.beliefs.counts.failovers
	ok := p.beliefs.flush(ctx, budget)
	if p.beliefs.counts.failovers != failovers {
		p.notes.carry = nil
	}
	return ok
}

// newTurnView prepares a decision's view with the settings of its mode.
func (p *Player) newTurnView(b Budget, senseActions []chess.Square, moveActions []chess.Move) *TurnView {
	cfg := p.cfg
	switch b.Mode {
	case Fast:
		cfg.Samples = max(cfg.Samples/4, min(cfg.Samples, 16))
		cfg.SenseSamples = min(cfg.SenseSamples, 600)
		cfg.VOISamples = max(cfg.VOISamples/4, min(cfg.VOISamples, 12))
	case Emergency:
		cfg.Samples = min(cfg.Samples, 40)
		cfg.SenseSamples = min(cfg.SenseSamples, 200)
		cfg.VOISamples = min(cfg.VOISamples, 40)
	}
	return &TurnView{
		Number: p.turn, Color: p.color, Belief: p.beliefs.current(),
		SenseActions: senseActions, MoveActions: moveActions,
		Rand: p.rngs.decide, Scoring: p.scoring(b.Mode), Budget: b, Config: &cfg, Log: p.log.With("turn", p.turn),
		Captured: p.notes.captured, scanRate: &p.eng.scanRate,
	}
}

// scoring returns the evaluation machinery of a decision in mode m: the
// adaptive engine depth (2 plies shallower in Fast mode), static scores in
// Emergency.
func (p *Player) scoring(m Mode) *Scoring {
	sc := &Scoring{scorer: p.eng.scorer, workers: p.workers(), rate: &p.eng.rate}
	embedded := p.eng.embedded()
	depth := p.eng.depth
	if embedded {
		depth = p.cfg.EmbeddedDepth
	}
	switch m {
	case Fast:
		depth = min(depth, max(depth-2, 4))
		if embedded {
			depth = 1
		}
	case Emergency:
		sc.static = true
	}
	sc.lim = evaluator.Limits{Depth: depth}
	return sc
}

// workers is how many evaluations run at once: one per engine (so no job
// waits for an engine past its deadline), one per core for the embedded search.
func (p *Player) workers() int {
	if p.eng.embedded() {
		return runtime.GOMAXPROCS(0)
	}
	n := p.cfg.Engines
	if n <= 0 {
		n = runtime.NumCPU()
	}
	return n
}

// adaptDepth tunes the engine depth between turns: when a move decision
// scored too few boards in its budget, the next searches go one ply
// shallower (more boards matter more than deeper scores on wrong boards);
// when it scored every board it was offered with most of the budget to
// spare, one ply deeper, up to the configured depth.
func (p *Player) adaptDepth(sc *Scoring, b Budget, took time.Duration) {
	if sc == nil || sc.static || b.Mode != Normal || p.eng.embedded() {
		return
	}
	offered, done := sc.lastOffered, sc.lastDone
	if offered == 0 {
		return
	}
	p.stats.BoardsScored += done
	switch {
	case done < min(12, offered) && p.eng.depth > 4:
		p.eng.depth--
		p.log.Debug("depth down", "depth", p.eng.depth, "boards", done, "offered", offered)
	case done == offered && took < b.Time*3/10 && p.eng.depth < p.cfg.Depth:
		p.eng.depth++
		p.log.Debug("depth up", "depth", p.eng.depth)
	}
}

func (p *Player) countMode(m Mode) {
	switch m {
	case Fast:
		p.stats.FastTurns++
	case Emergency:
		p.stats.Emergencies++
	}
}

// consistentWith returns the boards of ws that show the sense result (all of
// them for an empty result, a passed sense).
func consistentWith(ws []sampler.Weighted, result []rbc.SquarePiece) []sampler.Weighted {
	var out []sampler.Weighted
	for _, w := range ws {
		ok := true
		for _, sp := range result {
			if w.Board.PieceAt(sp.Square) != sp.Piece {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, w)
		}
	}
	return out
}

// fallbackSense is a random inner window (or a pass): the choice when the
// belief or a strategy cannot answer. It draws from its own random source:
// the decisions' one may be in use by a decision still running.
func (p *Player) fallbackSense(actions []chess.Square) chess.Square {
	sq := innerSquares(actions)
	if len(sq) == 0 {
		return chess.NoSquare
	}
	return sq[p.rngs.fallback.IntN(len(sq))]
}
