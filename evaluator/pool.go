package evaluator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sync/semaphore"

	"github.com/blindfish-rbc/blindfish/evaluator/uci"
)

// Defaults for PoolConfig fields left zero.
const (
	DefaultPoolThreads       = 1
	DefaultPoolHashMB        = 16
	DefaultMaxSearchTime     = 30 * time.Second
	DefaultBatchGrace        = 2 * time.Millisecond
	DefaultRestartBackoff    = 50 * time.Millisecond
	DefaultMaxRestartBackoff = 2 * time.Second
	DefaultPoolDrainGrace    = time.Second
)

// ErrPoolClosed is returned (wrapped) by calls on a closed Pool.
var ErrPoolClosed = errors.New("evaluator: engine pool closed")

// PoolConfig configures a Pool of UCI engines.
type PoolConfig struct {
	// Path is the engine executable, e.g. "/usr/games/stockfish".
	Path string
	// Args are the engine's command-line arguments.
	Args []string
	// Env holds extra environment variables ("KEY=value") for the engines.
	Env []string
	// Size is the number of engine processes; default runtime.NumCPU().
	Size int
	// Threads is each engine's Threads option; default 1.
	Threads int
	// HashMB is each engine's Hash option in MB; default 16.
	HashMB int
	// Options are further engine options, set after Threads and Hash.
	Options []uci.Option
	// CommandTimeout, StopGrace and QuitGrace are passed to each
	// uci.Client (zero: the uci defaults). NewPool waits for each engine to
	// start within its CommandTimeout (within its context), which counts
	// only the time the engine could run: on a starved machine it waits
	// longer rather than fail.
	CommandTimeout, StopGrace, QuitGrace time.Duration
	// DrainGrace is passed to each uci.Client: an engine that answers
	// "stop" late is given this long in the background before it is
	// killed, and comes back to the pool once it has answered. Default
	// DefaultPoolDrainGrace (a pool's engines are stopped at every
	// decision's deadline, and on a loaded machine a kill and restart per
	// late answer cost more than the wait); negative kills at StopGrace.
	DrainGrace time.Duration
	// MaxSearchTime is a safety net on every search when the caller's
	// context allows longer (or has no deadline); default
	// DefaultMaxSearchTime. Negative disables it.
	MaxSearchTime time.Duration
	// BatchGrace is how long SearchBatch, once its context has ended, still
	// waits for searches that are being stopped to hand in their partial
	// results; default DefaultBatchGrace.
	BatchGrace time.Duration
	// RestartBackoff is the first delay between failed restarts of a dead
	// engine; it doubles up to MaxRestartBackoff. Defaults
	// DefaultRestartBackoff and DefaultMaxRestartBackoff.
	RestartBackoff, MaxRestartBackoff time.Duration
	// Logger receives the pool's and the clients' logs; nil means
	// slog.Default().
	Logger *slog.Logger
}

// Pool runs searches on a fixed set of engine processes, one search per
// engine at a time. Engines that die, hang or babble are killed by their
// client and restarted in the background by the pool (with backoff), so a
// failure costs only the search that met it. A Pool is safe for concurrent
// use.
type Pool struct {
	cfg PoolConfig
	log *slog.Logger
	sem *semaphore.Weighted // one permit per engine

	ctx    context.Context // ends at Close
	cancel context.CancelFunc

	mu      sync.Mutex
	idle    []*poolEngine
	engines []*poolEngine
	closed  bool
	wg      sync.WaitGroup // restarters, drain waiters and batch workers

	counters poolCounters
}

// poolEngine is one engine of the pool.
type poolEngine struct {
	id     int
	client *uci.Client
}

// NewPool starts cfg.Size engines (in parallel, bounded by ctx) and returns
// the pool. If any engine cannot be started the others are closed and the
// error is returned.
func NewPool(ctx context.Context, cfg PoolConfig) (*Pool, error) {
	if cfg.Path == "" {
		return nil, fmt.Errorf("%w: empty engine path", uci.ErrInvalidArgument)
	}
	if cfg.Size <= 0 {
		cfg.Size = runtime.NumCPU()
	}
	if cfg.Threads <= 0 {
		cfg.Threads = DefaultPoolThreads
	}
	if cfg.HashMB <= 0 {
		cfg.HashMB = DefaultPoolHashMB
	}
	if cfg.MaxSearchTime == 0 {
		cfg.MaxSearchTime = DefaultMaxSearchTime
	}
	if cfg.BatchGrace <= 0 {
		cfg.BatchGrace = DefaultBatchGrace
	}
	if cfg.RestartBackoff <= 0 {
		cfg.RestartBackoff = DefaultRestartBackoff
	}
	if cfg.DrainGrace == 0 {
		cfg.DrainGrace = DefaultPoolDrainGrace
	}
	if cfg.MaxRestartBackoff < cfg.RestartBackoff {
		cfg.MaxRestartBackoff = max(DefaultMaxRestartBackoff, cfg.RestartBackoff)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	options := append([]uci.Option{
		{Name: "Threads", Value: strconv.Itoa(cfg.Threads)},
		{Name: "Hash", Value: strconv.Itoa(cfg.HashMB)},
	}, cfg.Options...)

	pctx, cancel := context.WithCancel(context.Background())
	p := &Pool{
		cfg:    cfg,
		log:    log.With("component", "engine-pool"),
		sem:    semaphore.NewWeighted(int64(cfg.Size)),
		ctx:    pctx,
		cancel: cancel,
	}
	for i := 0; i < cfg.Size; i++ {
		c, err := uci.NewClient(uci.Config{
			Path:           cfg.Path,
			Args:           cfg.Args,
			Env:            cfg.Env,
			Options:        options,
			CommandTimeout: cfg.CommandTimeout,
			StopGrace:      cfg.StopGrace,
			QuitGrace:      cfg.QuitGrace,
			DrainGrace:     max(cfg.DrainGrace, 0),
			Logger:         log.With("engine_id", i),
		})
		if err != nil {
			p.Close()
			return nil, err
		}
		e := &poolEngine{id: i, client: c}
		p.engines = append(p.engines, e)
		p.idle = append(p.idle, e)
	}
	// Each start is bounded by its client's CommandTimeout, which grows by
	// the time a starved machine withheld (uci.Config.CommandTimeout).
	g, gctx := errgroup.WithContext(ctx)
	for _, e := range p.engines {
		g.Go(func() error {
			if err := e.client.Start(gctx); err != nil {
				return fmt.Errorf("starting engine %d: %w", e.id, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		p.Close()
		return nil, err
	}
	p.log.Info("engine pool started", "engines", cfg.Size, "path", cfg.Path, "threads", cfg.Threads, "hash_mb", cfg.HashMB)
	return p, nil
}

// Size returns the number of engines.
func (p *Pool) Size() int { return p.cfg.Size }

// Pids returns the process ids of the engines currently running (for
// diagnostics; an engine being restarted is missing).
func (p *Pool) Pids() []int {
	var pids []int
	for _, e := range p.engines {
		if pid := e.client.Pid(); pid != 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Close stops every engine (a search in progress is interrupted and fails
// with uci.ErrClosed), waits for the pool's goroutines and reaps every
// process. Later calls fail with ErrPoolClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	var wg sync.WaitGroup
	for _, e := range p.engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.client.Close()
		}()
	}
	wg.Wait()
	p.wg.Wait()
	p.log.Info("engine pool closed", "stats", p.Stats())
	return nil
}

// acquire takes an idle engine, waiting for one until ctx ends or the pool
// closes.
func (p *Pool) acquire(ctx context.Context) (*poolEngine, error) {
	if !p.sem.TryAcquire(1) {
		if p.ctx.Err() != nil {
			return nil, ErrPoolClosed
		}
		wctx, cancel := context.WithCancel(ctx)
		stop := context.AfterFunc(p.ctx, cancel)
		err := p.sem.Acquire(wctx, 1)
		stop()
		cancel()
		if err != nil {
			if p.ctx.Err() != nil && ctx.Err() == nil {
				return nil, ErrPoolClosed
			}
			return nil, waitError(ctx)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.sem.Release(1)
		return nil, ErrPoolClosed
	}
	n := len(p.idle)
	if n == 0 { // cannot happen: one permit per idle engine
		p.sem.Release(1)
		return nil, fmt.Errorf("evaluator: engine pool invariant broken: permit without idle engine")
	}
	e := p.idle[n-1]
	p.idle = p.idle[:n-1]
	return e, nil
}

// release gives an engine back after a search. A dead engine keeps its
// permit and is restarted in the background first; a draining one (it
// answered "stop" late: uci.Config.DrainGrace) keeps it until its drain
// ends, so that no search is handed an engine that cannot start it.
func (p *Pool) release(e *poolEngine) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed && e.client.Draining() {
		p.wg.Add(1)
		go p.awaitDrain(e)
		return
	}
	p.giveBack(e)
}

// giveBack returns an engine to the idle set, or restarts it first if it
// died. Call with p.mu held.
func (p *Pool) giveBack(e *poolEngine) {
	if !e.client.Running() && !p.closed {
		p.wg.Add(1)
		go p.restart(e)
		return
	}
	p.idle = append(p.idle, e)
	p.sem.Release(1)
}

// awaitDrain gives a draining engine back once its drain has ended: kept,
// or killed and then restarted.
func (p *Pool) awaitDrain(e *poolEngine) {
	defer p.wg.Done()
	e.client.WaitIdle(p.ctx) // an error: the pool is closing, which Close handles
	p.mu.Lock()
	defer p.mu.Unlock()
	p.giveBack(e)
}

// restart brings a dead engine back, retrying with exponential backoff
// until it starts or the pool closes, then returns it to the idle set.
func (p *Pool) restart(e *poolEngine) {
	defer p.wg.Done()
	backoff := p.cfg.RestartBackoff
	for attempt := 1; ; attempt++ {
		err := e.client.Start(p.ctx)
		if err == nil {
			p.counters.restarts.Add(1)
			p.log.Info("engine restarted", "engine_id", e.id, "pid", e.client.Pid(), "attempt", attempt)
			break
		}
		if p.ctx.Err() != nil {
			break
		}
		p.counters.restartFailures.Add(1)
		p.log.Warn("engine restart failed", "engine_id", e.id, "attempt", attempt, "retry_in", backoff, "err", err)
		t := time.NewTimer(backoff)
		select {
		case <-t.C:
		case <-p.ctx.Done():
		}
		t.Stop()
		backoff = min(2*backoff, p.cfg.MaxRestartBackoff)
	}
	p.mu.Lock()
	p.idle = append(p.idle, e)
	p.mu.Unlock()
	p.sem.Release(1)
}

// waitError describes the end of ctx before a job got a result.
func waitError(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %w", uci.ErrTimeout, ctx.Err())
	}
	return fmt.Errorf("%w: %w", uci.ErrCanceled, ctx.Err())
}
