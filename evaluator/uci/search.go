package uci

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// maxMultiPV bounds the PV index accepted from the engine.
const maxMultiPV = 1024

// Result is the outcome of one search.
type Result struct {
	// BestMove is the engine's move in UCI notation, or NoMove ("(none)")
	// when the side to move has no legal move.
	BestMove string
	// Ponder is the expected reply, if the engine gave one.
	Ponder string
	// Lines holds, for each principal variation, the last info line that
	// carried a score or a PV: Lines[0] is PV 1. For a checkmated or
	// stalemated side Stockfish reports one line of depth 0 ("mate 0" or
	// "cp 0").
	Lines []Info
	// Depth is the deepest depth reported.
	Depth int
	// Nodes is the largest node count reported.
	Nodes uint64
	// Stopped is true when the search was cut short by the call's context
	// and the engine answered "stop" in time: the result is that of an
	// incomplete search.
	Stopped bool
	// Elapsed is the wall time from sending the search to its bestmove.
	Elapsed time.Duration
}

// Score returns the score of the first principal variation (the zero Score,
// of kind ScoreNone, if the engine reported none).
func (r Result) Score() Score {
	if len(r.Lines) == 0 {
		return Score{}
	}
	return r.Lines[0].Score
}

// HasMove reports whether the engine returned a real move (not NoMove).
func (r Result) HasMove() bool { return r.BestMove != "" && r.BestMove != NoMove }

// consume processes one line of search output; done is true at bestmove.
func (r *Result) consume(line string) (done bool, err error) {
	switch first, _ := firstToken(line); first {
	case "info":
		info, err := ParseInfo(line)
		if err != nil {
			return false, err
		}
		r.add(info)
		if info.MultiPV > maxMultiPV {
			return false, fmt.Errorf("%w: multipv %d out of range", ErrProtocol, info.MultiPV)
		}
		return false, nil
	case "bestmove":
		best, ponder, err := ParseBestMove(line)
		if err != nil {
			return false, err
		}
		r.BestMove, r.Ponder = best, ponder
		return true, nil
	case "":
		return false, nil
	default:
		return false, fmt.Errorf("%w: unexpected line during search: %q", ErrProtocol, clip(line))
	}
}

// add folds an info line into the result.
func (r *Result) add(info Info) {
	if info.Depth > r.Depth {
		r.Depth = info.Depth
	}
	if info.Nodes > r.Nodes {
		r.Nodes = info.Nodes
	}
	if info.Score.Kind == ScoreNone && len(info.PV) == 0 {
		return
	}
	idx := info.MultiPV
	if idx < 1 {
		idx = 1
	}
	if idx > maxMultiPV {
		return
	}
	for len(r.Lines) < idx {
		r.Lines = append(r.Lines, Info{})
	}
	r.Lines[idx-1] = info
}

// Search sets the position and runs "go" with the given limits, returning
// at "bestmove".
//
// If ctx ends first, the client sends "stop" and waits up to
// Config.StopGrace for the bestmove: if it comes, Search returns the partial
// result (Stopped set) together with an error wrapping ErrTimeout (or
// ErrCanceled) and the engine is kept; otherwise the result is empty and
// the engine is killed, at once or, with Config.DrainGrace, only if it
// does not answer within DrainGrace more (in the background: Search
// returns at StopGrace either way, and the next call waits for the drain
// within its own context). A crash, unparseable output or a failed write
// kills the engine too. The next call after a kill starts a new engine.
func (c *Client) Search(ctx context.Context, pos Position, lim Limits) (res Result, err error) {
	if err := pos.validate(); err != nil {
		return Result{}, err
	}
	if err := lim.validate(); err != nil {
		return Result{}, err
	}
	if err := c.acquire(ctx); err != nil {
		return Result{}, err
	}
	// The lock is released on return, unless a drain took it over.
	handedOver := false
	defer func() {
		if !handedOver {
			c.release()
		}
	}()
	if err := c.ensure(ctx); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, contextError(ctx, "before search")
	}
	p := c.proc
	var b strings.Builder
	if mpv := lim.multiPV(); mpv != c.multiPV {
		if err := c.checkDeclared("MultiPV"); err != nil {
			return Result{}, err
		}
		b.WriteString("setoption name MultiPV value ")
		b.WriteString(strconv.Itoa(mpv))
		b.WriteByte('\n')
		c.multiPV = mpv
	}
	b.WriteString(pos.command())
	b.WriteByte('\n')
	b.WriteString(lim.goCommand())
	b.WriteByte('\n')
	start := time.Now()
	if err := p.write(ctx, b.String()); err != nil {
		return Result{}, c.abandon(writeError(ctx, "go", err))
	}
	for {
		line, err := c.next(ctx, p, "searching")
		if err != nil {
			if ctx.Err() != nil {
				return c.stop(p, &res, start, err, &handedOver)
			}
			return Result{}, c.abandon(err)
		}
		done, err := res.consume(line)
		if err != nil {
			return Result{}, c.abandon(err)
		}
		if done {
			res.Elapsed = time.Since(start)
			return res, nil
		}
	}
}

// stop ends a search whose context has ended (cause): "stop", then wait
// StopGrace for the bestmove, else kill, or hand the engine to a drain
// (Config.DrainGrace; *handedOver is then set and the drain releases the
// lock). Call with the lock held.
func (c *Client) stop(p *process, res *Result, start time.Time, cause error, handedOver *bool) (Result, error) {
	sctx, cancel := context.WithTimeout(context.Background(), c.cfg.StopGrace)
	defer cancel()
	if err := p.write(sctx, "stop\n"); err != nil {
		return Result{}, c.abandon(fmt.Errorf("%w; sending stop failed: %v", cause, err))
	}
	for {
		line, err := c.next(sctx, p, "waiting for bestmove after stop")
		if err != nil {
			if sctx.Err() == nil {
				return Result{}, c.abandon(fmt.Errorf("%w; engine killed: %v", cause, err))
			}
			if c.cfg.DrainGrace > 0 {
				c.draining.Store(true)
				*handedOver = true
				go c.drain(p, cause)
				return Result{}, fmt.Errorf("%w; no bestmove within %v of stop (the engine has %v more)", cause, c.cfg.StopGrace, c.cfg.DrainGrace)
			}
			return Result{}, c.abandon(fmt.Errorf("%w; engine killed: no bestmove within %v of stop", cause, c.cfg.StopGrace))
		}
		done, err := res.consume(line)
		if err != nil {
			return Result{}, c.abandon(fmt.Errorf("%w; after stop: %w", cause, err))
		}
		if done {
			res.Stopped = true
			res.Elapsed = time.Since(start)
			c.log.Debug("search stopped at deadline", "pid", p.pid, "depth", res.Depth)
			return *res, cause
		}
	}
}

// drain waits, holding the lock Search handed over, up to DrainGrace for
// the bestmove of a search that missed StopGrace; the engine is kept if it
// comes (its result is of no use by now), killed otherwise.
func (c *Client) drain(p *process, cause error) {
	defer c.release()
	defer c.draining.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.DrainGrace)
	defer cancel()
	start := time.Now()
	var res Result
	for {
		line, err := c.next(ctx, p, "draining the bestmove after stop")
		if err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("no bestmove within %v of stop", c.cfg.StopGrace+c.cfg.DrainGrace)
			}
			c.abandon(fmt.Errorf("%w; engine killed: %w", cause, err))
			return
		}
		done, err := res.consume(line)
		if err != nil {
			c.abandon(fmt.Errorf("%w; after stop: %w", cause, err))
			return
		}
		if done {
			c.drained.Add(1)
			c.log.Debug("engine answered stop late; kept", "pid", p.pid, "late", c.cfg.StopGrace+time.Since(start))
			return
		}
	}
}
