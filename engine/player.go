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
	rng  *rand.Rand
	// fbRng draws the fallback choices (rng may be lent to a decision
	// still running in the background).
	fbRng *rand.Rand

	sense SenseStrategy
	move  MoveStrategy

	clock  *ClockManager
	belief sampler.Sampler
	eval   evaluator.Evaluator
	owned  bool // the player opened eval and closes it
	scorer *evaluator.MoveScorer
	rate   rateMeter
	// scanRate measures how many belief boards a second the prior weighs.
	scanRate rateMeter

	color   rbc.Color
	turn    int
	depth   int // the adaptive engine depth
	pending []pendingObservation
	// inflight is the update at the head of pending while it runs in the
	// background; bg is its context, cancelled by Close.
	inflight *inflight
	bg       context.Context
	stopBG   context.CancelFunc
	// history holds every observation of the game, so that a belief that
	// falls behind can be replaced by a cheaper one fed the same game.
	history    []pendingObservation
	lateStreak int // consecutive belief updates that missed their deadline
	closed     bool
	// retired has an entry per belief that failover is closing in the
	// background, whose done is closed once it is closed; Close waits for
	// them.
	retired []*retiredBelief
	// memoryMB is the exact belief's memory budget, set when it is made.
	memoryMB int
	// captured is where the opponent captured one of our pieces on its last
	// move (NoSquare if it did not).
	captured rbc.Square
	// carry holds the boards the sense decision scored this turn, filtered
	// by the sense result, for the move decision.
	carry []sampler.Weighted
	// The reply model (replies.go, Config.Reply): preMove is the whole
	// belief at our move when it is small, parents the boards the opponent
	// then moved on, replies the model of its move built at our sense.
	preMove []rbc.Board
	parents []rbc.Board
	replies *replyModel
	// mode is the effort mode of the latest move decision (the tests read
	// it to tell a short clock from a failure).
	mode Mode
	// standIn is a small belief kept up to date on the callbacks' goroutine,
	// the safe move's boards when the belief is behind (see standIn).
	standIn *standIn
	// wrapBelief, if set, wraps every belief the player makes (the first
	// one and those of failover): the tests' way to slow a belief down.
	wrapBelief func(sampler.Sampler) sampler.Sampler

	stats PlayerStats
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

// pendingObservation is a belief update not applied yet.
type pendingObservation struct {
	name  string
	apply func(ctx context.Context, s sampler.Sampler) error
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
	p := &Player{
		cfg:      cfg,
		opts:     opts,
		log:      log.With("bot", "blindfish"),
		rng:      NewRand(opts.Seed),
		fbRng:    NewRand(^opts.Seed),
		sense:    sense,
		move:     move,
		clock:    NewClockManager(ClockConfig{Split: cfg.Split, Turns: cfg.Turns, Reserve: cfg.Reserve, Inc: cfg.Inc}, opts.Now),
		depth:    cfg.Depth,
		captured: rbc.NoSquare,
	}
	p.bg, p.stopBG = context.WithCancel(context.Background())
	return p, nil
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
	s.Depth = p.depth
	s.Slowness = p.clock.PeakSlowness()
	s.BeliefMB = p.memoryMB
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
	s := p.stats
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
func (p *Player) HandleGameStart(ctx context.Context, color rbc.Color, board rbc.Board, opponentName string) (err error) {
	defer p.recoverTo("HandleGameStart", func() { err = nil })
	p.color = color
	p.log = p.log.With("color", color.String())
	p.log.Info("game start", "opponent", opponentName, "config", p.cfg.String())

	// The belief is made at our first decision, when the clock is known
	// (its memory budget follows the clock); until then observations queue.
	// The stand-in takes them at once.
	p.standIn = newStandIn(p.opts.Seed, p.log)
	p.enqueue("game start", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleGameStart(ctx, color, board)
	})

	if p.opts.Evaluator != nil {
		p.eval = p.opts.Evaluator
	} else {
		e, err := evaluator.Open(ctx, p.cfg.Eval, evaluator.OpenConfig{Engines: p.cfg.Engines, Logger: p.log})
		if err != nil {
			// A missing Stockfish must not cost the game: play on the
			// embedded search and say so.
			p.log.Warn("evaluator unavailable; using the embedded one", "want", string(p.cfg.Eval), "err", err)
			e = evaluator.NewEmbedded()
		}
		p.eval, p.owned = e, true
	}
	p.scorer = evaluator.NewMoveScorer(p.eval, evaluator.DefaultMoveTerms(), 1<<18)
	return nil
}

// HandleOpponentMoveResult feeds the capture notice to the belief.
func (p *Player) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare rbc.Square) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() { p.record(start, planned, false) }()
	defer p.recoverTo("HandleOpponentMoveResult", func() { err = nil })
	p.turn++
	p.stats.Turns++
	p.carry = nil
	p.replies = nil
	sq := captureSquare
	if !capturedMyPiece {
		sq = rbc.NoSquare
	}
	p.captured = sq
	planned = p.observe(ctx, 4, "capture notice", func(ctx context.Context, s sampler.Sampler) error {
		return s.HandleOpponentMoveResult(ctx, capturedMyPiece, sq)
	})
	return nil
}

// ChooseSense picks a window with the configured sense strategy within the
// clock manager's sense budget. The strategy runs on its own goroutine: if
// it has not answered by the budget's hard deadline, a random inner window
// is the answer and the strategy finishes in the background (see decide).
func (p *Player) ChooseSense(ctx context.Context, senseActions []rbc.Square, moveActions []rbc.Move, secondsLeft time.Duration) (sq rbc.Square, err error) {
	start, began := time.Now(), p.now()
	budget := p.clock.StartSense(secondsLeft)
	defer func() { p.record(began, budget.Time, true) }()
	defer p.recoverTo("ChooseSense", func() { sq, err = p.fallbackSense(senseActions), nil })
	p.countMode(budget.Mode)
	dctx, cancel := context.WithTimeout(ctx, budget.Time)
	defer cancel()
	p.ensureBelief(secondsLeft)
	if !p.flush(dctx, budget.Time) {
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	if size := p.belief.Size(); size.Exact && size.Boards == 1 && size.Deferred == 0 {
		return rbc.NoSquare, nil // the board is known: nothing to learn
	}
	t := p.newTurnView(budget, senseActions, moveActions)
	parents := p.parents
	p.parents = nil
	ans, ok := decide(ctx, p, "sense decision", start.Add(budget.Hard), func(keep func([]sampler.Weighted)) (rbc.Square, error) {
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
	p.carry = ans.kept
	if p.replies = t.replies; p.replies != nil {
		p.stats.Replies++
	}
	if sq, err = ans.v, ans.err; err != nil {
		p.log.Log(ctx, strategyFailureLevel(err), "sense strategy failed; sensing at random", "turn", p.turn, "err", err)
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	if sq != rbc.NoSquare && !slices.Contains(senseActions, sq) {
		p.log.Error("sense strategy chose a square outside the sense actions", "square", sq)
		p.stats.Fallbacks++
		return p.fallbackSense(senseActions), nil
	}
	p.log.Debug("sensed", "turn", p.turn, "square", sq.String(), "mode", budget.Mode.String(),
		"budget", budget.Time, "took", time.Since(start), "belief", p.belief.Size().Boards)
	return sq, nil
}

// HandleSenseResult feeds the sense result to the belief.
func (p *Player) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() { p.record(start, planned, false) }()
	defer p.recoverTo("HandleSenseResult", func() { err = nil })
	res := slices.Clone(result)
	p.carry = consistentWith(p.carry, res)
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
func (p *Player) ChooseMove(ctx context.Context, moveActions []rbc.Move, secondsLeft time.Duration) (mv rbc.Move, err error) {
	start, began := time.Now(), p.now()
	budget := p.clock.StartMove(secondsLeft)
	p.mode = budget.Mode
	defer func() { p.record(began, budget.Time, true) }()
	defer p.recoverTo("ChooseMove", func() { mv, err = rbc.Move{}, nil })

	dctx, cancel := context.WithTimeout(ctx, budget.Time)
	defer cancel()
	p.ensureBelief(secondsLeft)
	if !p.flush(dctx, budget.Time) {
		p.stats.Fallbacks++
		return p.safeMove(p.carry, moveActions), nil
	}
	if p.cfg.Reply > 0 {
		p.preMove = snapshotParents(dctx, p.belief)
	}
	t := p.newTurnView(budget, nil, moveActions)
	t.Prior, p.carry = p.carry, nil
	t.replies = p.replies
	ans, ok := decide(ctx, p, "move decision", start.Add(budget.Hard), func(func([]sampler.Weighted)) (rbc.Move, error) {
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
func (p *Player) HandleMoveResult(ctx context.Context, requested, taken rbc.Move, capturedOpponentPiece bool, captureSquare rbc.Square) (err error) {
	start := p.now()
	var planned time.Duration
	defer func() {
		p.record(start, planned, false)
		p.clock.EndTurn()
	}()
	defer p.recoverTo("HandleMoveResult", func() { err = nil })
	sq := captureSquare
	if !capturedOpponentPiece {
		sq = rbc.NoSquare
	}
	p.parents = parentsAfter(p.preMove, requested, taken, sq)
	p.preMove = nil
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
// (p.inflight), which the next flush waits for before anything else touches
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
	p.inflight = &inflight{name: name, done: done, decision: true}
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
func (p *Player) safeMove(boards []sampler.Weighted, actions []rbc.Move) rbc.Move {
	if len(boards) == 0 {
		boards = p.standIn.boards(safeMoveBoards)
	}
	if len(boards) == 0 || len(actions) == 0 {
		return rbc.Move{}
	}
	boards = boards[:min(len(boards), safeMoveBoards)]
	reqs := Requests(actions, &boards[0].Board)
	best, _ := chooseRequest(StaticMatrix(boards, reqs), &p.cfg, &boards[0].Board, nil)
	if mv := reqs[best]; mv.IsNull() || slices.Contains(actions, mv) {
		return mv
	}
	return rbc.Move{}
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

// closeWait bounds how long Close waits for background work on beliefs: an
// update still running, and beliefs abandoned by failover being closed.
var closeWait = 5 * time.Second

// Close releases the belief (and any belief abandoned by failover) and, if
// the player opened it, the evaluator. It is called by HandleGameEnd; call it
// yourself when a game is abandoned.
func (p *Player) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	p.stopBG()
	// The waits below share one bound (closeWait).
	wait, cancel := context.WithTimeout(context.Background(), closeWait)
	defer cancel()
	var errs []error
	if err := p.standIn.close(); err != nil {
		errs = append(errs, fmt.Errorf("engine: closing the stand-in belief: %w", err))
	}
	if p.inflight != nil {
		// An update still running must end before its belief is closed; it
		// has been cancelled and returns promptly, but a wedged one is left
		// to finish alone rather than hang the caller.
		select {
		case <-p.inflight.done:
		case <-wait.Done():
			p.log.Warn("a belief update did not stop; the belief is left open", "update", p.inflight.name)
			p.belief = nil
		}
		p.inflight = nil
	}
	if p.belief != nil {
		p.stats.BeliefPeakMB = max(p.stats.BeliefPeakMB, int(p.belief.Stats().PeakBytes>>20))
		if err := p.belief.Close(); err != nil {
			errs = append(errs, fmt.Errorf("engine: closing the belief: %w", err))
		}
	}
	// Beliefs abandoned by failover close in the background (once their
	// cancelled update returns); their memory and spill files must not
	// outlive Close either, within the same bound.
	for _, r := range p.retired {
		select {
		case <-r.done:
			p.stats.BeliefPeakMB = max(p.stats.BeliefPeakMB, int(r.peak>>20))
		case <-wait.Done():
			p.log.Warn("an abandoned belief did not close in time; it closes in the background")
		}
	}
	p.retired = nil
	if p.owned && p.eval != nil {
		if err := p.eval.Close(); err != nil {
			errs = append(errs, fmt.Errorf("engine: closing the evaluator: %w", err))
		}
	}
	if m, ok := p.eval.(evaluator.MemoryReporter); ok { // read after Close: each engine is read as it stops
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
	p.enqueue(name, apply)
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

// flush applies the queued belief updates in order within budget and
// reports whether the belief is up to date.
//
// Each update runs on its own goroutine under the player's background
// context, not the decision's: when the budget runs out the callback returns
// at once (a belief that is slow to notice a deadline cannot flag us), while
// the update goes on in the background, through the opponent's thinking
// time, and the next flush waits for it before anything else touches the
// belief. Nothing queries the belief while an update is in flight.
func (p *Player) flush(ctx context.Context, budget time.Duration) bool {
	if p.belief == nil {
		return false
	}
	timer := time.NewTimer(max(budget, 0))
	defer timer.Stop()
	for len(p.pending) > 0 || p.inflight != nil {
		if p.inflight == nil {
			o, b := p.pending[0], p.belief
			f := &inflight{name: o.name, done: make(chan error, 1)}
			go func() {
				defer func() {
					if v := recover(); v != nil {
						f.done <- fmt.Errorf("engine: belief update panicked: %v", v)
					}
				}()
				f.done <- o.apply(p.bg, b)
			}()
			p.inflight = f
		}
		select {
		case err := <-p.inflight.done:
			if p.inflight.decision {
				// A decision answered without it has finished: the belief
				// is free for the updates.
				p.inflight = nil
				continue
			}
			if err != nil {
				// The belief rejected it (it recovers by itself from bad
				// observations), or the game is being closed; repeating it
				// gains nothing.
				p.log.Error("belief update failed; dropped", "update", p.inflight.name, "err", err)
			}
			p.inflight = nil
			p.pending = p.pending[1:]
		case <-timer.C:
			p.late("budget spent")
			return false
		case <-ctx.Done():
			p.late(context.Cause(ctx).Error())
			return false
		}
	}
	p.lateStreak = 0
	return true
}

// inflight is work on the belief running in the background: a belief
// update, or a decision answered without it (decide).
type inflight struct {
	name     string
	done     chan error
	decision bool
}

// late records an update that is still running when the wait for it ended
// (why: its budget was spent, or the callback's context error), and
// replaces the belief when that keeps happening. A decision still running
// is the slow machine's doing, not the belief's: it is only counted. Both
// are routine under load, counted in the game-end line (late updates, held
// updates, failovers) rather than logged above Debug each turn.
func (p *Player) late(why string) {
	if p.inflight.decision {
		p.stats.HeldUpdates++
		p.log.Debug("an earlier decision is still running; the belief waits for it", "decision", p.inflight.name,
			"queued", len(p.pending), "why", why)
		return
	}
	p.stats.LateUpdates++
	p.lateStreak++
	p.log.Debug("belief update not done in time; it goes on in the background", "update", p.inflight.name,
		"queued", len(p.pending), "streak", p.lateStreak, "why", why)
	if p.lateStreak >= failoverStreak {
		p.failover()
	}
}

// enqueue records an observation and queues it for the belief.
func (p *Player) enqueue(name string, apply func(context.Context, sampler.Sampler) error) {
	o := pendingObservation{name, apply}
	p.history = append(p.history, o)
	p.pending = append(p.pending, o)
	p.standIn.observe(name, apply)
}

// failoverStreak is how many belief updates in a row may miss their
// deadline (about a turn's worth of callbacks) before the belief is replaced.
const failoverStreak = 5

// fallbackSamplers returns the beliefs a player falls back to, in order,
// when its belief cannot keep up with the clock: both replay a game in
// milliseconds (a pool of boards, or boards drawn from the latest
// observations).
func fallbackSamplers() []string { return []string{"hybrid", "los"} }

// retiredBelief is a belief failover is closing in the background: done is
// closed once it is, and peak (its boards' peak memory) is set before.
type retiredBelief struct {
	done chan struct{}
	peak int64
}

// failover replaces a belief that keeps missing its deadlines (an exact set
// grown past what the clock allows) by the next cheaper one, fed the whole
// game again; the old one is closed in the background (closing waits for its
// expansion). Without it such a belief queues updates until the clock runs out.
func (p *Player) failover() {
	chain := fallbackSamplers()
	next := chain[0]
	if i := slices.Index(chain, p.belief.Name()); i >= 0 {
		if i+1 == len(chain) {
			return // nothing cheaper left
		}
		next = chain[i+1]
	}
	b, err := p.newBelief(next)
	if err != nil {
		p.log.Error("cannot make the fallback belief", "sampler", next, "err", err)
		return
	}
	old, busy := p.belief, p.inflight
	retired := &retiredBelief{done: make(chan struct{})}
	p.retired = append(p.retired, retired)
	go func() {
		defer close(retired.done)
		if busy != nil {
			<-busy.done // an observation must not run concurrently with Close
		}
		retired.peak = old.Stats().PeakBytes
		if err := old.Close(); err != nil {
			p.log.Warn("closing the abandoned belief", "err", err)
		}
	}()
	p.inflight = nil
	p.log.Debug("belief cannot keep up with the clock; replaced", "from", old.Name(), "to", next, "observations", len(p.history))
	p.belief = b
	p.pending = slices.Clone(p.history)
	p.lateStreak = 0
	p.carry = nil
	p.stats.Failovers++
}

// ensureBelief makes the configured belief at the first decision, sized for
// a clock that started at about left.
func (p *Player) ensureBelief(left time.Duration) {
	if p.belief != nil || p.closed {
		return
	}
	p.memoryMB = p.cfg.MemoryMB
	if p.memoryMB <= 0 {
		p.memoryMB = memoryFor(left)
	}
	b, err := p.newBelief(p.cfg.Sampler)
	if err != nil { // the name was checked by NewBlindfish
		p.log.Error("cannot make the belief", "sampler", p.cfg.Sampler, "err", err)
		return
	}
	p.belief = b
	p.log.Debug("belief made", "sampler", b.Name(), "memory MB", p.memoryMB)
}

// newBelief makes a belief by sampler name with the player's options.
func (p *Player) newBelief(name string) (sampler.Sampler, error) {
	b, err := sampler.New(name, p.samplerOptions())
	if err != nil {
		return nil, err
	}
	if p.wrapBelief != nil {
		b = p.wrapBelief(b)
	}
	return b, nil
}

// samplerOptions are the options every belief of the player is made with.
func (p *Player) samplerOptions() sampler.Options {
	opts := sampler.Options{Seed: uint64(p.opts.Seed), Logger: p.log, PoolSize: p.cfg.Pool}
	if p.memoryMB > 0 {
		opts.MemoryBudget = int64(p.memoryMB) << 20
		// Replay at most a sixteenth of the budget's boards per update (16
		// times that while the live set is empty): about a second at most.
		opts.MaxReplay = max(p.memoryMB<<20/70/16, 1<<14)
	}
	return opts
}

// newTurnView prepares a decision's view with the settings of its mode.
func (p *Player) newTurnView(b Budget, senseActions []rbc.Square, moveActions []rbc.Move) *TurnView {
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
		Number: p.turn, Color: p.color, Belief: p.belief,
		SenseActions: senseActions, MoveActions: moveActions,
		Rand: p.rng, Scoring: p.scoring(b.Mode), Budget: b, Config: &cfg, Log: p.log.With("turn", p.turn),
		Captured: p.captured, scanRate: &p.scanRate,
	}
}

// scoring returns the evaluation machinery of a decision in mode m: the
// adaptive engine depth (2 plies shallower in Fast mode), static scores in
// Emergency.
func (p *Player) scoring(m Mode) *Scoring {
	sc := &Scoring{scorer: p.scorer, workers: p.workers(), rate: &p.rate}
	embedded := p.eval == nil || p.eval.Name() == "embedded"
	depth := p.depth
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
	if p.eval == nil || p.eval.Name() == "embedded" {
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
	if sc == nil || sc.static || b.Mode != Normal || p.eval == nil || p.eval.Name() == "embedded" {
		return
	}
	offered, done := sc.lastOffered, sc.lastDone
	if offered == 0 {
		return
	}
	p.stats.BoardsScored += done
	switch {
	case done < min(12, offered) && p.depth > 4:
		p.depth--
		p.log.Debug("depth down", "depth", p.depth, "boards", done, "offered", offered)
	case done == offered && took < b.Time*3/10 && p.depth < p.cfg.Depth:
		p.depth++
		p.log.Debug("depth up", "depth", p.depth)
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
func (p *Player) fallbackSense(actions []rbc.Square) rbc.Square {
	sq := innerSquares(actions)
	if len(sq) == 0 {
		return rbc.NoSquare
	}
	return sq[p.fbRng.IntN(len(sq))]
}
