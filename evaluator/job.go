package evaluator

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/evaluator/uci"
)

// ErrUnfinished marks batch jobs that had no result when the batch's
// context ended.
var ErrUnfinished = errors.New("evaluator: job unfinished at deadline")

// Job is one search for SearchBatch: a FEN (plus optional moves played from
// it) and limits. The pool does not check the position: callers must only
// send boards the engine can handle.
type Job struct {
	// FEN is the position; "" means the standard starting position.
	FEN string
	// Moves are UCI moves applied to FEN before searching.
	Moves []string
	// Limits bound the search (at least a depth, node or time limit).
	Limits uci.Limits
}

// JobStatus says how a search ended.
type JobStatus uint8

// Job statuses. The zero value is JobUnfinished.
const (
	// JobUnfinished: no result, because the context ended before the job
	// started, while it waited for an engine, or while the engine had to be
	// killed because it did not stop in time.
	JobUnfinished JobStatus = iota
	// JobDone: the engine finished the search within its limits.
	JobDone
	// JobStopped: the context ended mid-search and the engine stopped in
	// time; the result is that of a shorter search, still usable.
	JobStopped
	// JobFailed: the search failed: engine crash, protocol error, invalid
	// job, MaxSearchTime exceeded, or pool closed. Err says which.
	JobFailed
)

// String names the status.
func (s JobStatus) String() string {
	switch s {
	case JobUnfinished:
		return "unfinished"
	case JobDone:
		return "done"
	case JobStopped:
		return "stopped"
	case JobFailed:
		return "failed"
	}
	return fmt.Sprintf("JobStatus(%d)", s)
}

// JobResult is the outcome of one search: the engine's result (best move,
// score, lines) with a status and, unless Status is JobDone, an error.
type JobResult struct {
	uci.Result
	// Status says how the search ended.
	Status JobStatus
	// Err is nil for JobDone; for JobStopped it wraps uci.ErrTimeout or
	// uci.ErrCanceled; otherwise it says what went wrong (errors.Is with
	// the uci sentinels, ErrUnfinished or ErrPoolClosed).
	Err error
	// Engine is the index of the engine that ran the search (-1 if none).
	Engine int
}

// Usable reports whether the result carries an engine answer (done or
// stopped at the deadline).
func (r JobResult) Usable() bool { return r.Status == JobDone || r.Status == JobStopped }

// Search runs one search on the first free engine, with the same contract
// as uci.Client.Search (so a Pool can stand in for a single client): it
// returns at the engine's bestmove, or at ctx's end, when the search is
// stopped; if the engine answered the stop in time the partial result comes
// back with Stopped set and an error wrapping uci.ErrTimeout (or
// uci.ErrCanceled). A dead engine is restarted in the background.
func (p *Pool) Search(ctx context.Context, pos uci.Position, lim uci.Limits) (uci.Result, error) {
	r := p.run(ctx, Job{FEN: pos.FEN, Moves: pos.Moves, Limits: lim})
	if r.Status == JobUnfinished {
		p.counters.unfinished.Add(1)
	}
	return r.Result, r.Err
}

// SearchBatch runs jobs on all engines and returns one result per job, in
// order. It returns when every job has finished or, at the latest,
// BatchGrace after ctx ends: jobs then still running are stopped (their
// partial results are kept when they arrive within BatchGrace), and jobs
// that have no result are marked JobUnfinished. Searches being stopped after
// SearchBatch returned finish in the background.
func (p *Pool) SearchBatch(ctx context.Context, jobs []Job) []JobResult {
	results := make([]JobResult, len(jobs))
	for i := range results {
		results[i].Engine = -1
	}
	if len(jobs) == 0 {
		return results
	}
	type done struct {
		i int
		r JobResult
	}
	ch := make(chan done, len(jobs)) // never blocks a worker
	var next atomic.Int64
	take := func() (int, bool) {
		if ctx.Err() != nil {
			return 0, false
		}
		i := int(next.Add(1) - 1)
		return i, i < len(jobs)
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		for i := range results {
			results[i].Status = JobFailed
			results[i].Err = ErrPoolClosed
		}
		return results
	}
	workers := min(p.cfg.Size, len(jobs))
	p.wg.Add(workers)
	p.mu.Unlock()
	var live atomic.Int64
	live.Store(int64(workers))
	allDone := make(chan struct{}) // closed when the last worker exits
	for w := 0; w < workers; w++ {
		go func() {
			defer p.wg.Done()
			defer func() {
				if live.Add(-1) == 0 {
					close(allDone)
				}
			}()
			for {
				i, ok := take()
				if !ok {
					return
				}
				ch <- done{i, p.run(ctx, jobs[i])}
			}
		}()
	}
	got := make([]bool, len(jobs))
	remaining := len(jobs)
	collect := func(d done) {
		results[d.i] = d.r
		got[d.i] = true
		remaining--
	}
wait:
	for remaining > 0 {
		select {
		case d := <-ch:
			collect(d)
		case <-ctx.Done():
			break wait
		}
	}
	if remaining > 0 {
		// Searches being stopped may still hand in partial results; jobs
		// never started will not. Wait until the workers are gone or the
		// grace period is over.
		t := time.NewTimer(p.cfg.BatchGrace)
	grace:
		for remaining > 0 {
			select {
			case d := <-ch:
				collect(d)
			case <-allDone:
				for {
					select {
					case d := <-ch:
						collect(d)
					default:
						break grace
					}
				}
			case <-t.C:
				break grace
			}
		}
		t.Stop()
	}
	unfinished := 0
	for i := range results {
		if !got[i] {
			results[i] = JobResult{Status: JobUnfinished, Engine: -1}
		}
		if results[i].Status == JobUnfinished {
			unfinished++
			if results[i].Err == nil || !errors.Is(results[i].Err, ErrUnfinished) {
				results[i].Err = unfinishedError(ctx, results[i].Err)
			}
		}
	}
	p.counters.unfinished.Add(int64(unfinished))
	return results
}

// unfinishedError builds the error of an unfinished job: it wraps
// ErrUnfinished, and uci.ErrTimeout with context.DeadlineExceeded (or
// uci.ErrCanceled with context.Canceled).
func unfinishedError(ctx context.Context, cause error) error {
	if cause == nil {
		if ctx.Err() == nil {
			return ErrUnfinished
		}
		cause = waitError(ctx)
	}
	return fmt.Errorf("%w: %w", ErrUnfinished, cause)
}

// run executes one job on a free engine and classifies the outcome.
func (p *Pool) run(ctx context.Context, job Job) JobResult {
	e, err := p.acquire(ctx)
	if err != nil {
		if errors.Is(err, ErrPoolClosed) {
			return JobResult{Status: JobFailed, Err: err, Engine: -1}
		}
		return JobResult{Status: JobUnfinished, Err: err, Engine: -1}
	}
	sctx := ctx
	if p.cfg.MaxSearchTime > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, p.cfg.MaxSearchTime)
		defer cancel()
	}
	p.counters.searches.Add(1)
	res, err := e.client.Search(sctx, uci.Position{FEN: job.FEN, Moves: job.Moves}, job.Limits)
	p.release(e)
	r := JobResult{Result: res, Err: err, Engine: e.id}
	switch {
	case err == nil:
		r.Status = JobDone
		p.counters.done.Add(1)
	case res.Stopped:
		r.Status = JobStopped
		p.counters.stopped.Add(1)
		p.counters.timeouts.Add(1)
	case errors.Is(err, uci.ErrTimeout) || errors.Is(err, uci.ErrCanceled):
		p.counters.timeouts.Add(1)
		if ctx.Err() != nil {
			// The caller's deadline: the job simply did not finish.
			r.Status = JobUnfinished
		} else {
			// MaxSearchTime, or a command timeout while restarting.
			r.Status = JobFailed
			p.counters.failed.Add(1)
		}
	default:
		r.Status = JobFailed
		p.counters.failed.Add(1)
		switch {
		case errors.Is(err, uci.ErrEngineDied):
			p.counters.crashes.Add(1)
		case errors.Is(err, uci.ErrProtocol):
			p.counters.protocolErrors.Add(1)
		}
	}
	return r
}
