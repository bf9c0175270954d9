package sampler

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// exact keeps the full information set: every board consistent with all of
// the player's observations.
//
// Storage. After our move the set is a store of whole boards (80 bytes each,
// deduplicated by key). Expansion by the opponent's options produces children
// as 8-byte refs (parent index, capture group, option) grouped by capture
// square; the capture notice keeps one group and the sense filters it in
// place, so during our turn a board costs 8 bytes plus its share of the
// parents. Boards are rebuilt from refs (a copy and an Apply) when filtered,
// sampled or scanned.
//
// Timing. Expansion starts in the background as soon as our move result is
// known, so it overlaps with the opponent's thinking; the next notice waits
// for it. Queries in between describe the boards after our move.
//
// Budget and backlog. When expanding everything would pass the memory budget,
// the parents that do not fit (or, at our move, the boards past the number of
// parents the next expansion can take) are kept in a backlog as segments that
// remember how many observations they have seen. A segment is replayed
// through the later observations when the live set runs low (fewer than
// MinLive boards) or the next expansion has room, and whatever it produces is
// merged into the live set, so no consistent board is ever lost.
type exact struct {
	opts  Options
	know  knowledge
	los   losGen
	rng   *rand.Rand
	obs   []observation
	stage stage
	// live holds the boards consistent with every observation (apart from
	// those still in the backlog).
	live    layer
	pending *expansion // the expansion awaiting the capture notice
	job     *expandJob // the expansion running in the background
	backlog []segment
	// inflight holds the backlog segments handed to the running job (read
	// only, for Contains), and counts their boards.
	inflightSegs []segment
	inflight     int
	perParent    int64 // measured bytes per expanded parent
	nextID       int   // the last segment id given
	// pathCache remembers, per segment id, whether it held the true board
	// ContainsPath asked about (by key).
	pathCache map[int]pathCheck
	stats     BeliefStats
	recovered bool
	// liveFromLOS is true while the live boards descend from a recovery
	// rather than from every observation.
	liveFromLOS bool
	// dropped is true once deferred boards have been dropped.
	dropped    bool
	warned     bool
	warnedDrop bool
	// warnedSpill is true once a failed spill has been warned about.
	warnedSpill bool
	// spillBytes is the disk space the spilled segments take.
	spillBytes int64
	bg         context.Context
	stop       context.CancelFunc
}

// segment is a piece of the backlog: boards that have seen the first at
// observations.
type segment struct {
	at    int
	stage stage
	l     layer
	// disk holds the boards instead of l when the segment was spilled.
	disk *spilled
	// id names the segment for ContainsPath's cache (segments never change;
	// a split or a replay makes new ones). 0 until the sampler files it.
	id int
	// promise is the outlook's estimate of how well the segment's boards
	// agree with the senses ahead of them, as of scoredAt-1 observations
	// (scoredAt 0: not yet estimated).
	promise  float64
	scoredAt int
}

// size returns the number of boards of the segment.
func (s *segment) size() int {
	if s.disk != nil {
		return s.disk.n
	}
	return s.l.n
}

// boards returns the segment's boards, read back from disk if it was spilled
// (the segment keeps them there).
func (s *segment) boards() (layer, error) {
	if s.disk == nil {
		return s.l, nil
	}
	st, err := s.disk.read()
	if err != nil {
		return layer{}, err
	}
	return layerOf(st), nil
}

type pathCheck struct {
	key   uint64
	found bool
}

// file adds segments to the backlog, giving each an id.
func (e *exact) file(segs ...segment) {
	for _, sg := range segs {
		if sg.l.n == 0 {
			continue
		}
		e.nextID++
		sg.id = e.nextID
		sg.l = sg.l.compact()
		e.backlog = append(e.backlog, sg)
	}
	e.trimBacklog()
}

// trimBacklog keeps the backlog's memory within its budget: the segments
// that have seen the fewest observations (replayed last) go to disk, and only
// when the disk budget is spent too (or writing fails) are they dropped.
func (e *exact) trimBacklog() {
	for e.backlogBytes() > e.opts.BacklogBudget {
		oldest := -1
		for i := range e.backlog {
			if e.backlog[i].disk == nil && (oldest < 0 || e.backlog[i].at < e.backlog[oldest].at) {
				oldest = i
			}
		}
		if oldest < 0 {
			return
		}
		seg := e.backlog[oldest]
		e.backlog = slices.Delete(e.backlog, oldest, oldest+1)
		if e.spillBytes+int64(seg.l.n)*boardBytes <= e.opts.SpillBudget {
			pieces, err := writeSpill(context.Background(), &seg.l, e.opts.SpillDir, replayPiece)
			if err == nil {
				for i := range pieces {
					e.nextID++
					e.backlog = append(e.backlog, segment{at: seg.at, stage: seg.stage, disk: &pieces[i], id: e.nextID})
					e.spillBytes += pieces[i].bytes()
				}
				e.stats.Spilled += int64(seg.l.n)
				e.stats.PeakSpillBytes = max(e.stats.PeakSpillBytes, e.spillBytes)
				continue
			}
			if !e.warnedSpill {
				e.warnedSpill = true
				e.opts.Logger.Warn("sampler: exact: cannot spill the backlog to disk", "err", err)
			}
		}
		e.drop(seg)
	}
}

// backlogBytes returns the memory the backlog's segments take beyond what
// they share with the live set.
func (e *exact) backlogBytes() int64 {
	seen := make(map[*store]bool)
	e.live.bytes(seen) // stores shared with the live set cost the backlog nothing
	var total int64
	for i := range e.backlog {
		total += e.backlog[i].l.bytes(seen)
	}
	return total
}

// drop gives up a backlog segment: from then on the set may lack consistent
// boards.
func (e *exact) drop(seg segment) {
	e.stats.Dropped += int64(seg.size())
	e.dropped = true
	e.unspill(&seg)
	if !e.warnedDrop {
		e.warnedDrop = true
		e.opts.Logger.Warn("sampler: exact: backlog over its memory and disk budgets; dropping deferred boards",
			"turn", e.know.turn, "boards", seg.size(), "budget", e.opts.BacklogBudget, "disk_budget", e.opts.SpillBudget)
	}
}

// unspill releases a spilled segment's place on disk (a no-op for one in
// memory); the segment must be out of the backlog.
func (e *exact) unspill(seg *segment) {
	if seg.disk == nil {
		return
	}
	e.spillBytes -= seg.disk.bytes()
	e.stats.Spilled -= int64(seg.disk.n)
	seg.disk.release()
	seg.disk = nil
}

// releaseSpill gives up every spilled segment (a new game, or Close).
func (e *exact) releaseSpill() {
	for _, seg := range e.backlog {
		if seg.disk != nil {
			seg.disk.release()
		}
	}
	e.spillBytes = 0
}

// expandJob is a background expansion; res and err are set before done closes.
type expandJob struct {
	done chan struct{}
	res  *jobResult
	err  error
}

type jobResult struct {
	exp      *expansion
	deferred []segment // new and returned backlog segments
	replayed int64
	peak     int64
}

func newExact(opts Options) Sampler {
	e := &exact{opts: opts, rng: rand.New(rand.NewPCG(opts.Seed, 0x65786163))}
	e.bg, e.stop = context.WithCancel(context.Background())
	return e
}

func (e *exact) Name() string { return "exact" }
func (e *exact) Workers() int { return e.opts.Workers }

// defaultPerParent is the memory one parent's expansion is assumed to take
// (about 36 children at up to 40 bytes while the dedup tables live, plus the
// parent itself) until a real expansion has been measured.
const defaultPerParent = 36*40 + 80

func (e *exact) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board) error {
	if err := e.drain(ctx); err != nil {
		return err
	}
	e.releaseSpill()
	e.know.start(color, board)
	e.obs = nil
	e.stage = e.know.stage
	e.live = layerOf(storeOf([]chess.Board{board}))
	e.pending, e.backlog, e.inflight, e.inflightSegs = nil, nil, 0, nil
	e.pathCache = make(map[int]pathCheck)
	e.stats = BeliefStats{MaxBoards: 1}
	e.recovered, e.warned, e.liveFromLOS = false, false, false
	e.dropped, e.warnedDrop, e.warnedSpill = false, false, false
	e.perParent = defaultPerParent
	if e.stage == oppToMove {
		e.startJob()
	}
	return nil
}

// drain waits for a running job and drops its result (a new game starts).
func (e *exact) drain(ctx context.Context) error {
	if e.job == nil {
		return nil
	}
	select {
	case <-e.job.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	e.job = nil
	return nil
}

func (e *exact) HandleOpponentMoveResult(ctx context.Context, captured bool, square chess.Square) error {
	if !e.know.started {
		return errors.New("sampler: exact: observation before the game start")
	}
	if !captured {
		square = chess.NoSquare
	}
	o := observation{kind: obsNotice, square: square}
	if e.stage == oppToMove {
		if err := e.wait(ctx); err != nil {
			return err
		}
		exp := e.pending
		e.pending = nil
		e.live = layer{}
		e.live.add(exp.groups[o.group()])
	} else if square.Valid() {
		e.live = layer{} // nothing could have been captured before the first move
	}
	e.obs = append(e.obs, o)
	e.know.onNotice(square)
	e.stage = usToMove
	e.settle(ctx)
	return nil
}

func (e *exact) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	if e.stage != usToMove {
		return errors.New("sampler: exact: sense result outside our turn")
	}
	f, err := newSenseFilter(result)
	if err != nil {
		return err
	}
	if err := e.live.filter(ctx, e.opts.Workers, f.match); err != nil {
		return fmt.Errorf("sampler: exact: sense filter: %w", err)
	}
	e.obs = append(e.obs, observation{kind: obsSense, sense: f})
	e.know.onSense(f)
	e.settle(ctx)
	return nil
}

func (e *exact) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, square chess.Square) error {
	if e.stage != usToMove {
		return errors.New("sampler: exact: move result outside our turn")
	}
	if !captured {
		square = chess.NoSquare
	}
	o := observation{kind: obsMove, square: square, requested: requested, taken: taken}
	next, rest, err := e.live.applyMove(ctx, e.opts.Workers, &o, e.maxParents())
	if err != nil {
		return fmt.Errorf("sampler: exact: move filter: %w", err)
	}
	e.file(segment{at: len(e.obs), stage: usToMove, l: rest})
	e.live = layerOf(next)
	e.obs = append(e.obs, o)
	e.know.onMove(o)
	e.stage = oppToMove
	e.settle(ctx)
	e.startJob()
	return nil
}

// liveUsage returns the memory the live set takes. The budget bounds it (and
// the expansion to come); the backlog is memory already spent, reported in
// BeliefStats.PeakBytes, and is not allowed to starve the live set.
func (e *exact) liveUsage() int64 { return e.live.bytes(make(map[*store]bool)) }

// usage returns the memory the live set and the backlog take.
func (e *exact) usage() int64 {
	seen := make(map[*store]bool)
	total := e.live.bytes(seen)
	for _, segs := range [][]segment{e.backlog, e.inflightSegs} {
		for i := range segs {
			total += segs[i].l.bytes(seen)
		}
	}
	return total
}

// maxParents is how many boards after our move the next expansion can take.
func (e *exact) maxParents() int {
	avail := e.opts.MemoryBudget - e.liveUsage()
	return int(max(avail/max(e.perParent, 1), 64))
}

// popReplayable removes and returns the replayable segment with the best
// promise (its boards agree best with the senses ahead of them, see
// outlook.promise); between equal promises, the one that has seen the most
// observations (the cheapest to bring up to date).
func (e *exact) popReplayable(ol *outlook) (segment, bool) {
	best := -1
	for i := range e.backlog {
		s := &e.backlog[i]
		if s.at >= len(e.obs) {
			continue
		}
		e.score(ol, s)
		if b := &e.backlog[max(best, 0)]; best < 0 || s.promise > b.promise || s.promise == b.promise && s.at > b.at {
			best = i
		}
	}
	if best < 0 {
		return segment{}, false
	}
	s := e.backlog[best]
	e.backlog = slices.Delete(e.backlog, best, best+1)
	if s.disk != nil {
		l, err := s.boards()
		if err != nil {
			e.drop(s)
			return e.popReplayable(ol)
		}
		e.unspill(&s)
		s.l = l
	}
	return s, true
}

// score brings the segment's promise up to date with the observations.
func (e *exact) score(ol *outlook, s *segment) {
	if s.scoredAt != len(e.obs)+1 {
		s.promise, s.scoredAt = ol.promise(s, e.rng), len(e.obs)+1
	}
}

// replayPiece is the number of backlog boards replayed at a time (and the
// size of a spilled piece). Per observation the replay work (see advance) is
// bounded by Options.MaxReplay while the live set is low (4 times that while
// it is empty), so that an update takes bounded time. When the live set is
// still empty after that, it is refilled from the latest observations, and
// the backlog goes on being replayed at later observations: the first
// consistent boards it yields replace the stand-ins.
const replayPiece = 1 << 16

// fillCap bounds the replay work of a background expansion filling up its
// parents from the backlog (it is opportunistic: the next notice waits).
const fillCap = 1 << 22

// settle runs after each observation, which is applied by then: it replays
// the backlog while the live set is low during our turn, recovers when
// nothing consistent is left, and updates the statistics. Replay is
// opportunistic, so it never fails the observation: when the context ends
// (or replay fails) the boards go back to the backlog and settle stops.
func (e *exact) settle(ctx context.Context) {
	work := 0
	var ol *outlook
	for e.stage == usToMove && e.live.n < e.opts.MinLive && ctx.Err() == nil &&
		(work < e.opts.MaxReplay || e.live.n == 0 && work/4 < e.opts.MaxReplay) {
		if ol == nil {
			ol = newOutlook(e.obs, e.know.color.Other())
		}
		seg, ok := e.popReplayable(ol)
		if !ok {
			break
		}
		head, tail := seg.l.split(replayPiece)
		e.file(segment{at: seg.at, stage: seg.stage, l: tail})
		env := replayEnv{workers: e.opts.Workers, obs: e.obs, perParent: e.perParent, ahead: ol}
		out, def, w, err := env.advance(ctx, segment{at: seg.at, stage: seg.stage, l: head}, e.opts.MemoryBudget-e.liveUsage())
		if err != nil {
			e.file(segment{at: seg.at, stage: seg.stage, l: head})
			e.replayFailed(err)
			break
		}
		work += w
		e.stats.Replayed += int64(head.n)
		e.file(def...)
		if out.n == 0 {
			continue
		}
		if e.liveFromLOS { // consistent boards again: drop the stand-ins
			e.live, e.liveFromLOS = layer{}, false
		}
		merged := layer{parts: append(slices.Clip(e.live.parts), out.parts...), n: e.live.n + out.n}
		s, err := merged.dedupe(ctx, e.opts.Workers)
		if err != nil {
			e.file(segment{at: len(e.obs), stage: e.stage, l: out})
			e.replayFailed(err)
			break
		}
		e.live = layerOf(s)
	}
	if e.live.n == 0 && e.job == nil {
		e.recover()
	}
	e.stats.MaxBoards = max(e.stats.MaxBoards, e.live.n)
	e.stats.PeakBytes = max(e.stats.PeakBytes, e.usage())
}

// replayFailed logs a backlog replay that did not finish for another reason
// than the caller's deadline.
func (e *exact) replayFailed(err error) {
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		e.opts.Logger.Warn("sampler: exact: backlog replay failed; the boards stay in the backlog", "err", err)
	}
}

// recover refills an empty set with boards consistent with the latest
// observations.
func (e *exact) recover() {
	e.live = layerOf(storeOf(e.los.distinct(&e.know, e.opts.PoolSize, e.rng)))
	e.recovered, e.liveFromLOS = true, true
	e.stats.Recoveries++
	if !e.warned {
		e.warned = true
		e.opts.Logger.Warn("sampler: exact: no consistent board left; refilled from the latest observations",
			"turn", e.know.turn, "boards", e.live.n)
	}
}

// startJob starts the background expansion of the live boards (the opponent
// to move), after bringing replayable backlog segments up to date when the
// expansion has room for them.
//
// The segments are filled in order of promise (see popReplayable).
func (e *exact) startJob() {
	budget := e.opts.MemoryBudget - e.liveUsage()
	ol := newOutlook(e.obs, e.know.color.Other())
	var fill []segment
	keep := e.backlog[:0:0]
	for _, s := range e.backlog {
		if s.at < len(e.obs) && s.disk == nil {
			e.score(ol, &s)
			fill = append(fill, s)
			e.inflight += s.l.n
		} else {
			keep = append(keep, s)
		}
	}
	slices.SortStableFunc(fill, func(a, b segment) int {
		return cmp.Or(cmp.Compare(b.promise, a.promise), b.at-a.at)
	})
	e.backlog = keep
	e.inflightSegs = fill
	j := &expandJob{done: make(chan struct{})}
	e.job = j
	env := replayEnv{workers: e.opts.Workers, obs: e.obs, perParent: e.perParent, maxReplay: e.opts.MaxReplay, ahead: ol}
	parents := e.live
	go func() {
		defer close(j.done)
		j.res, j.err = env.runJob(e.bg, parents, fill, budget)
	}()
}

// wait waits for the background expansion and takes its result.
func (e *exact) wait(ctx context.Context) error {
	j := e.job
	if j == nil {
		if e.pending == nil {
			return errors.New("sampler: exact: no expansion to wait for")
		}
		return nil
	}
	select {
	case <-j.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	e.job = nil
	e.inflight, e.inflightSegs = 0, nil
	if j.err != nil {
		return fmt.Errorf("sampler: exact: expansion: %w", j.err)
	}
	r := j.res
	e.pending = r.exp
	e.file(r.deferred...)
	e.stats.Expanded += r.exp.parents
	e.stats.Children += r.exp.children
	e.stats.Replayed += r.replayed
	if r.exp.parents > 0 {
		e.perParent = max(r.exp.peak/r.exp.parents+boardBytes, 200)
	}
	e.stats.PeakBytes = max(e.stats.PeakBytes, e.usage()+r.peak)
	return nil
}

// replayEnv is what replaying boards through observations needs; it holds no
// reference to the sampler, so a background job can use it safely.
type replayEnv struct {
	workers   int
	obs       []observation
	perParent int64
	maxReplay int
	// ahead, when set, drops the boards that cannot reach a later sense
	// before they are expanded (see outlook).
	ahead *outlook
}

// runJob fills the parents from the backlog when there is room (the
// segments in the order given), then expands them by every opponent option.
func (env *replayEnv) runJob(ctx context.Context, parents layer, fill []segment, budget int64) (*jobResult, error) {
	res := &jobResult{}
	maxParents := int(max(budget/max(env.perParent, 1), 64))
	var extra []part
	count := parents.n
	work := 0
	for i, seg := range fill {
		if count >= maxParents/2 || work >= min(env.maxReplay, fillCap) {
			res.deferred = append(res.deferred, fill[i:]...)
			break
		}
		head, tail := seg.l.split(min(maxParents/2-count, replayPiece))
		if tail.n > 0 {
			res.deferred = append(res.deferred, segment{at: seg.at, stage: seg.stage, l: tail})
		}
		out, def, w, err := env.advance(ctx, segment{at: seg.at, stage: seg.stage, l: head}, budget)
		if err != nil {
			return nil, err
		}
		res.replayed += int64(head.n)
		work += w
		res.deferred = append(res.deferred, def...)
		extra = append(extra, out.parts...)
		count += out.n
	}
	if len(extra) > 0 || len(parents.parts) != 1 {
		merged := layer{parts: append(slices.Clip(parents.parts), extra...), n: count}
		s, err := merged.dedupe(ctx, env.workers)
		if err != nil {
			return nil, err
		}
		parents = layerOf(s)
	}
	var base *store
	lo, hi := 0, 0
	if len(parents.parts) == 1 {
		p := parents.parts[0]
		base, lo, hi = p.base, p.lo, p.hi
	} else {
		base = &store{}
	}
	exp, err := expand(ctx, env.workers, base, lo, hi, -1, budget)
	if err != nil {
		return nil, err
	}
	if exp.rest.n > 0 {
		var l layer
		l.add(exp.rest)
		res.deferred = append(res.deferred, segment{at: len(env.obs), stage: oppToMove, l: l})
	}
	res.exp = exp
	res.peak = exp.peak
	return res, nil
}

// advance brings a backlog segment up to date: it applies the observations
// from seg.at on, expanding by the opponent's options (only the group the
// notice names) where the opponent moved. Boards that do not fit the budget
// are returned as new segments. work counts the boards processed at each
// observation, children included (the measure of Options.MaxReplay).
func (env *replayEnv) advance(ctx context.Context, seg segment, budget int64) (layer, []segment, int, error) {
	var deferred []segment
	l, st := seg.l, seg.stage
	work := 0
	for at := seg.at; at < len(env.obs) && l.n > 0; at++ {
		o := &env.obs[at]
		work += l.n
		switch o.kind {
		case obsNotice:
			if st == usToMove {
				if o.square.Valid() {
					l = layer{}
				}
				break
			}
			if env.ahead != nil && env.ahead.ahead(at) {
				// Boards that cannot reach a later sense are not worth expanding.
				if err := l.filter(ctx, env.workers, env.ahead.keep(at)); err != nil {
					return layer{}, nil, work, err
				}
			}
			var next layer
			for _, p := range l.parts {
				if !p.isFlat() {
					return layer{}, nil, work, errors.New("sampler: internal error: children part before the notice")
				}
				exp, err := expand(ctx, env.workers, p.base, p.lo, p.hi, o.group(), budget)
				if err != nil {
					return layer{}, nil, work, err
				}
				next.add(exp.groups[o.group()])
				work += int(exp.children)
				if exp.rest.n > 0 {
					var r layer
					r.add(exp.rest)
					deferred = append(deferred, segment{at: at, stage: oppToMove, l: r})
				}
			}
			l, st = next, usToMove
		case obsSense:
			if err := l.filter(ctx, env.workers, o.sense.match); err != nil {
				return layer{}, nil, work, err
			}
		case obsMove:
			maxOut := int(max(budget/max(env.perParent, 1), 64))
			s, rest, err := l.applyMove(ctx, env.workers, o, maxOut)
			if err != nil {
				return layer{}, nil, work, err
			}
			if rest.n > 0 {
				deferred = append(deferred, segment{at: at, stage: usToMove, l: rest})
			}
			l, st = layerOf(s), oppToMove
		}
	}
	return l, deferred, work, nil
}

func (e *exact) Size() Size {
	d := e.deferred()
	return Size{Boards: e.live.n, Exact: d == 0 && !e.recovered && !e.dropped, Deferred: d}
}

func (e *exact) deferred() int {
	d := e.inflight
	for i := range e.backlog {
		d += e.backlog[i].size()
	}
	return d
}

// Entropy is log2 of the number of boards held, the deferred ones included
// (each counted once, although it may stand for several boards by now).
func (e *exact) Entropy() float64 {
	n := e.live.n + e.deferred()
	if n <= 1 {
		return 0
	}
	return math.Log2(float64(n))
}

// Contains is ContainsErr without a deadline. When it could not look (a
// spilled backlog segment could not be read back) it logs a warning and
// answers true: the boards it could not see still count in Size, and
// Contains never reports an absence it has not seen (see Sampler.Contains).
func (e *exact) Contains(b *chess.Board) bool {
	found, err := e.ContainsErr(context.Background(), b)
	if err != nil {
		e.opts.Logger.Warn("sampler: exact: Contains could not search the whole belief; answering present", "err", err)
		return true
	}
	return found
}

// ContainsErr looks in the live set, then in the backlog: each deferred board
// is replayed depth first through the later observations, without storing
// anything, pruned as soon as the target's opponent pieces are out of reach.
// That search is bounded (containsEffort nodes); past it a deferred board is
// taken as not holding b. ContainsPath answers exactly and cheaply when the
// true game is known. When it could not look (ctx ended, or a spilled
// segment could not be read back and no other part holds b) it returns the
// error, never a plain false.
func (e *exact) ContainsErr(ctx context.Context, b *chess.Board) (bool, error) {
	if found, err := e.live.contains(ctx, e.opts.Workers, b.Key()); found || err != nil {
		return found, err
	}
	env := replayEnv{workers: e.opts.Workers, obs: e.obs}
	bounds := env.reachBounds()
	them := e.know.color.Other()
	var effort atomic.Int64
	effort.Store(containsEffort)
	var unread error // the first segment that could not be read back
	for _, segs := range [][]segment{e.backlog, e.inflightSegs} {
		for _, seg := range segs {
			if effort.Load() <= 0 {
				return false, unread
			}
			l, err := seg.boards()
			if err != nil {
				unread = cmp.Or(unread, err)
				continue // another segment may still hold b
			}
			if seg.at == len(e.obs) {
				if found, err := l.contains(ctx, e.opts.Workers, b.Key()); found || err != nil {
					return found, err
				}
				continue
			}
			var found atomic.Bool
			err = l.forEach(ctx, e.opts.Workers, func(_ int, boards []chess.Board) error {
				for i := range boards {
					if effort.Load() <= 0 {
						return nil
					}
					left := 1 << 12
					if env.reaches(boards[i], seg.stage, seg.at, b, them, bounds, &left) {
						found.Store(true)
						return errFound
					}
					effort.Add(-int64(1<<12 - max(left, 0)))
				}
				return nil
			})
			if found.Load() {
				return true, nil
			}
			if err != nil {
				return false, err
			}
		}
	}
	return false, unread
}

// containsEffort bounds the nodes one call of Contains visits in the backlog.
const containsEffort = 1 << 22

// ContainsPath reports whether the true board is in the belief, given the
// true board after each observation: path[0] is the starting board and
// path[i] the board after the i-th observation (notices, senses and move
// results, in order). A deferred segment holds the true board's future iff it
// holds path at its own point of the game, which is a plain key scan
// (remembered per segment). With a path of the wrong length it falls back
// to ContainsErr. Like ContainsErr it returns an error, not false, when it
// could not look: ctx ended, or a spilled segment could not be read back
// (that segment is asked again next time).
func (e *exact) ContainsPath(ctx context.Context, path []chess.Board) (bool, error) {
	if len(path) != len(e.obs)+1 {
		return e.ContainsErr(ctx, &path[len(path)-1])
	}
	if found, err := e.live.contains(ctx, e.opts.Workers, path[len(e.obs)].Key()); found || err != nil {
		return found, err
	}
	var unread error
	for _, segs := range [][]segment{e.backlog, e.inflightSegs} {
		for _, seg := range segs {
			k := path[seg.at].Key()
			c, ok := e.pathCache[seg.id]
			if !ok || c.key != k || seg.id == 0 {
				l, err := seg.boards()
				if err != nil {
					unread = cmp.Or(unread, err)
					continue // another segment may still hold the true board
				}
				found, err := l.contains(ctx, e.opts.Workers, k)
				if err != nil {
					return false, err
				}
				c = pathCheck{key: k, found: found}
				if seg.id != 0 {
					e.pathCache[seg.id] = c
				}
			}
			if c.found {
				return true, nil
			}
		}
	}
	return false, unread
}

// reachBounds returns, for each observation index, how many opponent moves
// and captures of ours are still to come.
func (env *replayEnv) reachBounds() [][2]int {
	bound := make([][2]int, len(env.obs)+1)
	for i := len(env.obs) - 1; i >= 0; i-- {
		bound[i] = bound[i+1]
		switch o := &env.obs[i]; o.kind {
		case obsNotice:
			bound[i][0]++
		case obsMove:
			if o.square.Valid() {
				bound[i][1]++
			}
		}
	}
	return bound
}

// oppDiff counts the squares where the opponent's pieces differ between a
// and b, per piece type.
func oppDiff(a, b *chess.Board, them chess.Color) int {
	d := 0
	for t := chess.Pawn; t <= chess.King; t++ {
		d += (a.PiecesOf(them, t) ^ b.PiecesOf(them, t)).Count()
	}
	return d
}

// reachable is a necessary condition for target to descend from b: an
// opponent move changes the opponent's placement on two squares (castling on
// four, once), a capture of ours on one.
func reachable(b, target *chess.Board, them chess.Color, left [2]int) bool {
	limit := 2*left[0] + left[1]
	if left[0] > 0 && b.Castling()&castlingOf(them) != 0 {
		limit += 2
	}
	return oppDiff(b, target, them) <= limit
}

// castlingOf returns colour c's castling rights.
func castlingOf(c chess.Color) chess.Castling {
	if c == chess.White {
		return chess.WhiteKingside | chess.WhiteQueenside
	}
	return chess.BlackKingside | chess.BlackQueenside
}

// reaches reports whether replaying b (in stage st, having seen at
// observations) through the later observations can give target, visiting at
// most *effort nodes.
func (env *replayEnv) reaches(b chess.Board, st stage, at int, target *chess.Board, them chess.Color, bounds [][2]int, effort *int) bool {
	*effort--
	if *effort < 0 || !reachable(&b, target, them, bounds[at]) {
		return false
	}
	if at == len(env.obs) {
		return b.Key() == target.Key()
	}
	o := &env.obs[at]
	switch o.kind {
	case obsNotice:
		if st == usToMove {
			return !o.square.Valid() && env.reaches(b, usToMove, at+1, target, them, bounds, effort)
		}
		var buf [256]chess.Move
		for _, m := range b.AppendOptions(buf[:0]) {
			if b.CaptureSquare(m) != o.square {
				continue
			}
			c := b
			c.Apply(m)
			if env.reaches(c, usToMove, at+1, target, them, bounds, effort) {
				return true
			}
		}
		return false
	case obsSense:
		return o.sense.match(&b) && env.reaches(b, st, at+1, target, them, bounds, effort)
	default:
		next, ok := o.applyMove(&b)
		return ok && env.reaches(next, oppToMove, at+1, target, them, bounds, effort)
	}
}

func (e *exact) Stats() BeliefStats {
	s := e.stats
	s.Deferred = e.deferred()
	return s
}

func (e *exact) ForEach(ctx context.Context, fn func(worker int, boards []chess.Board, weights []float64) error) error {
	return e.live.forEach(ctx, e.opts.Workers, func(w int, boards []chess.Board) error { return fn(w, boards, nil) })
}

// Sample draws n distinct boards uniformly from the live set (all of them
// when n is at least its size).
func (e *exact) Sample(ctx context.Context, n int, rng *rand.Rand) ([]Weighted, error) {
	return sampleLayer(ctx, &e.live, n, rng)
}

func (e *exact) Close() error {
	e.stop()
	if e.job != nil {
		<-e.job.done
		e.job = nil
	}
	e.releaseSpill()
	e.backlog = nil
	return nil
}

// sampleLayer draws n distinct boards of l uniformly, each weighing 1/n.
func sampleLayer(ctx context.Context, l *layer, n int, rng *rand.Rand) ([]Weighted, error) {
	if n <= 0 || l.n == 0 {
		return nil, nil
	}
	var idx []int
	if n >= l.n {
		n = l.n
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
	} else {
		// Floyd's algorithm: n distinct indices without a permutation of l.n.
		chosen := make(map[int]bool, n)
		for j := l.n - n; j < l.n; j++ {
			t := rng.IntN(j + 1)
			if chosen[t] {
				t = j
			}
			chosen[t] = true
		}
		for i := range chosen {
			idx = append(idx, i)
		}
		slices.Sort(idx)
	}
	out := make([]Weighted, 0, n)
	w := 1 / float64(n)
	offset := 0
	var buf []chess.Board
	k := 0
	for _, u := range l.units() {
		if k == len(idx) {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		size := u.hi - u.lo
		p := &l.parts[u.part]
		if !p.isFlat() {
			size = len(p.refs[u.lo])
		}
		if idx[k] >= offset+size {
			offset += size
			continue
		}
		boards := l.boards(u, buf)
		if !p.isFlat() {
			buf = boards
		}
		for k < len(idx) && idx[k] < offset+size {
			out = append(out, Weighted{Board: boards[idx[k]-offset], Weight: w})
			k++
		}
		offset += size
	}
	return out, nil
}
