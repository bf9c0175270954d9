package evaluator

import "sync/atomic"

// PoolStats counts what happened in a Pool since it was created.
type PoolStats struct {
	// Engines is the pool size.
	Engines int
	// Searches counts searches handed to an engine.
	Searches int64
	// Done counts searches that finished within their limits.
	Done int64
	// Stopped counts searches cut by their context and stopped gracefully.
	Stopped int64
	// Failed counts searches that failed (crash, protocol error, invalid
	// job, MaxSearchTime, closed pool).
	Failed int64
	// Unfinished counts batch jobs left without a result at the deadline.
	Unfinished int64
	// Timeouts counts searches cut by a deadline, stopped or killed.
	Timeouts int64
	// Crashes counts searches during which the engine died.
	Crashes int64
	// ProtocolErrors counts searches that met unparseable engine output.
	ProtocolErrors int64
	// Kills counts engine processes killed after a failure.
	Kills int64
	// Drained counts engines that answered "stop" late, within the
	// pool's DrainGrace, and were kept instead of killed.
	Drained int64
	// Restarts counts dead engines successfully restarted by the pool.
	Restarts int64
	// RestartFailures counts failed restart attempts.
	RestartFailures int64
	// PeakRSS adds up the engines' peak resident memory (each the largest of
	// its processes, uci.ClientStats.PeakRSS): at most what they held at
	// once.
	PeakRSS int64
}

// poolCounters are the pool's live counters.
type poolCounters struct {
	searches, done, stopped, failed, unfinished atomic.Int64
	timeouts, crashes, protocolErrors           atomic.Int64
	restarts, restartFailures                   atomic.Int64
}

// Stats returns a snapshot of the pool's counters.
func (p *Pool) Stats() PoolStats {
	s := PoolStats{
		Engines:         p.cfg.Size,
		Searches:        p.counters.searches.Load(),
		Done:            p.counters.done.Load(),
		Stopped:         p.counters.stopped.Load(),
		Failed:          p.counters.failed.Load(),
		Unfinished:      p.counters.unfinished.Load(),
		Timeouts:        p.counters.timeouts.Load(),
		Crashes:         p.counters.crashes.Load(),
		ProtocolErrors:  p.counters.protocolErrors.Load(),
		Restarts:        p.counters.restarts.Load(),
		RestartFailures: p.counters.restartFailures.Load(),
	}
	for _, e := range p.engines {
		cs := e.client.Stats()
		s.Kills += cs.Kills
		s.Drained += cs.Drained
		s.PeakRSS += cs.PeakRSS
	}
	return s
}

// EnginesPeakRSS returns PoolStats.PeakRSS (MemoryReporter).
func (p *Pool) EnginesPeakRSS() int64 { return p.Stats().PeakRSS }
