package sampler

import (
	"context"

	"github.com/blindfish-rbc/blindfish/chess"
)

// Expansion turns the boards after our move (the opponent to move) into every
// board the opponent's move can lead to, deduplicated by key and grouped by
// the capture square each child announces, so that the capture notice at the
// start of our turn selects a group at once.
//
// It runs on all workers in batches of parents, each in two phases:
//  1. Workers take runs of parents, derive every child's key from its
//     parent's (chess.Board.AppendChildren, no board is built) and write
//     (key, ref) records to a scratch buffer in the order made, then sort the
//     run's records by partition (the key's top bits) with a stable counting
//     sort into the run's own buffer, sized exactly. Writing in order and
//     scattering within a run that fits the cache is what keeps this phase
//     fast (appending each child straight to one of thousands of bins would
//     miss the cache on nearly every child).
//  2. Workers take units (ranges of partitions); for each run in order a
//     unit reads one contiguous slice of the run's records and inserts their
//     keys into the partitions' own open-addressing tables, which stay small
//     enough for the cache, marking the records of new keys as kept.
//  3. Workers take runs and collect each run's kept refs, sorted by capture
//     group and then by parent (a counting sort over the run's parents).
//
// The partitions, their tables and the units are a PartitionedKeys:
// partitions never share a key and a unit is one worker's alone, so no locks
// are needed and the dedup is exact. Because phase 2 reads the runs in parent
// order, the child kept for a key is always its first in parent and option
// order, whatever the number of workers. Between batches the memory is
// measured; when the next batch would pass the budget the remaining parents
// are left unexpanded for the backlog. At the end each group is the runs'
// refs of that group laid end to end, which is parent order.

// expRecord is a child during expansion: its key and its ref, with keptFlag
// set by phase 2 when the child is the first with its key.
type expRecord struct {
	key, ref uint64
}

// keptFlag marks a kept record's ref. It is the ref's bit 15, which packMove
// never sets (a move takes bits 0-14).
const keptFlag = 1 << 15

// expansion is the result of expanding a range of a store's boards.
type expansion struct {
	base *store
	// groups holds the distinct children by the capture group they announce.
	groups [numGroups]part
	// rest holds the parents left unexpanded because of the budget.
	rest part
	// parents and children count the boards expanded and the children made.
	parents, children int64
	// peak is the most memory the expansion's own tables and refs took.
	peak int64
}

// recordBytesPerParent is the phase-1 record memory per parent of a batch.
const recordBytesPerParent = 36 * 16

// runLen is the number of parents a worker takes at a time in phase 1.
const runLen = 512

// expand expands base[lo:hi]. With only ≥ 0 it keeps only the children of
// that capture group (used when the capture notice is already known). budget
// bounds the memory of the expansion's own tables, records and refs; a first
// batch of at least 64 parents is always expanded, so that replaying the
// backlog makes progress even when the budget is spent.
func expand(ctx context.Context, workers int, base *store, lo, hi int, only int, budget int64) (*expansion, error) {
	res := &expansion{base: base}
	if hi-lo <= 0 {
		return res, nil
	}
	e := newExpander(workers, base, hi-lo, only)
	cur, err := e.batches(ctx, res, lo, hi, budget)
	if err != nil {
		return nil, err
	}
	res.rest = flatPart(base, cur, hi)
	e.runs, e.scratch = nil, nil
	if err := e.group(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

// expander holds an expansion's working state: the partitioned key tables,
// the kept refs, the batch's runs and each worker's scratch.
type expander struct {
	workers int
	base    *store
	only    int
	keys    *PartitionedKeys
	// kept holds every expanded run's distinct children, in parent order.
	kept []expKept
	// runs holds the batch's runs; their buffers are reused by the next
	// batch.
	runs []expRun
	// scratch is each worker's phase-1 state.
	scratch []expScratch
	// perParent estimates the persistent bytes a parent adds, refined after
	// every batch.
	perParent int64
}

// expKept is one run's distinct children: their refs sorted by capture group
// and, within a group, by parent; group g's are refs[start[g]:start[g+1]].
type expKept struct {
	refs  []uint64
	start [numGroups + 1]int32
}

// expRun is one run's children, sorted by partition.
type expRun struct {
	recs []expRecord
	// units[u] is where unit u's records start in recs; units[nunits] is
	// len(recs).
	units []int32
}

// expScratch is a worker's phase-1 state: the run's records in the order
// made, the counts per partition and the children buffer. The padding keeps
// two workers' headers off one cache line.
type expScratch struct {
	recs     []expRecord
	counts   []int32
	children []chess.Child
	// byParent and sorted are phase 3's counts per parent and buffer.
	byParent []int32
	sorted   []uint64
	// seen holds keys of children this worker wrote: a child whose key is
	// there is a duplicate of an earlier child and is dropped at once.
	seen *SeenFilter
	_    [64]byte
}

// seenBits sizes a worker's seen filter (1<<seenBits keys). Duplicate
// children come mostly from neighbouring parents (siblings of the previous
// expansion are stored together), so a filter that stays in the cache drops
// about half of them before they are written, sorted and looked up in the
// partitions' tables.
//
// Dropping is exact: a worker takes runs in increasing order, so the key in
// the filter always belongs to a child before this one in parent and option
// order, and the first child of every key is still written.
const seenBits = 12

// newExpander sizes the partitions for n parents: about 8k distinct children
// per partition keeps its table in the cache.
func newExpander(workers int, base *store, n, only int) *expander {
	estChildren := int64(n) * 36
	perParent := int64(36 * 56) // bytes per parent until measured
	if only >= 0 {
		estChildren = int64(n) * 2
		perParent = 2 * 56
	}
	keys := NewPartitionedKeys(int(estChildren), workers)
	nparts := keys.parts()
	e := &expander{
		workers:   workers,
		base:      base,
		only:      only,
		keys:      keys,
		scratch:   make([]expScratch, workers),
		perParent: perParent,
	}
	for w := range e.scratch {
		e.scratch[w].counts = make([]int32, nparts)
		e.scratch[w].children = make([]chess.Child, 0, 256)
		e.scratch[w].seen = NewSeenFilter(seenBits)
		e.scratch[w].byParent = make([]int32, runLen+1)
	}
	return e
}

// measure returns the bytes of the tables and kept refs, which outlive a
// batch, and of the runs and scratch, which a batch reuses.
func (e *expander) measure() (persistent, transient int64) {
	persistent = e.keys.Bytes()
	for k := range e.kept {
		persistent += int64(cap(e.kept[k].refs))*8 + (numGroups+1)*4
	}
	for r := range e.runs {
		transient += int64(cap(e.runs[r].recs))*16 + int64(cap(e.runs[r].units))*4
	}
	for w := range e.scratch {
		transient += int64(cap(e.scratch[w].recs))*16 + int64(cap(e.scratch[w].sorted))*8
	}
	return
}

// batches expands base[lo:hi] batch by batch while the budget allows and
// returns where it stopped: the parents from there on are left for the
// backlog.
func (e *expander) batches(ctx context.Context, res *expansion, lo, hi int, budget int64) (int, error) {
	cur := lo
	for cur < hi {
		persistent, transient := e.measure()
		res.peak = max(res.peak, persistent+transient)
		room := budget - persistent
		batch := int(min(room/(e.perParent+recordBytesPerParent)/2, 1<<18))
		if cur > lo && batch < 64 {
			break // the budget is spent: leave the rest for the backlog
		}
		batch = max(batch, 64)
		end := min(hi, cur+batch)

		made, err := e.fill(ctx, cur, end)
		if err != nil {
			return cur, err
		}
		res.children += made
		_, transient = e.measure()
		if err := e.dedup(ctx); err != nil {
			return cur, err
		}
		if err := e.collect(ctx, cur, end); err != nil {
			return cur, err
		}
		res.parents += int64(end - cur)
		before := persistent
		persistent, _ = e.measure()
		res.peak = max(res.peak, persistent+transient)
		if grew := persistent - before; grew > 0 {
			e.perParent = max(e.perParent/4, grew/int64(end-cur)*5/4)
		}
		cur = end
	}
	return cur, nil
}

// fill is phase 1: workers expand runs of base[from:to] into e.runs, each
// sorted by partition. It returns the number of children made.
func (e *expander) fill(ctx context.Context, from, to int) (int64, error) {
	nruns := (to - from + runLen - 1) / runLen
	if cap(e.runs) >= nruns {
		e.runs = e.runs[:nruns]
	} else {
		e.runs = append(e.runs[:cap(e.runs)], make([]expRun, nruns-cap(e.runs))...)
	}
	made := make([]int64, e.workers)
	err := parallelFor(ctx, e.workers, nruns, func(w, r int) error {
		lo := from + r*runLen
		n := e.fillRun(&e.scratch[w], &e.runs[r], lo, min(to, lo+runLen))
		made[w] += int64(n)
		return nil
	})
	var total int64
	for _, c := range made {
		total += c
	}
	return total, err
}

// fillRun expands base[lo:hi] into run and returns the number of children
// made (those the seen filter dropped included).
func (e *expander) fillRun(sc *expScratch, run *expRun, lo, hi int) int {
	recs := sc.recs[:0]
	children := sc.children
	seen := *sc.seen // a copy sharing the slots: its fields stay in registers
	made := 0
	only, shift, unitParts := e.only, e.keys.shift, e.keys.unitParts
	for i := lo; i < hi; i++ {
		// The children's keys come from the parent's: no child board is
		// built here, only refs are kept.
		children = e.base.at(i).AppendChildren(children[:0])
		for _, c := range children {
			g := groupOf(c.Capture)
			if only >= 0 && g != only {
				continue
			}
			made++
			if seen.Seen(c.Key) {
				continue // an earlier child has this key
			}
			recs = append(recs, expRecord{key: c.Key, ref: makeRef(i, g, c.Move)})
		}
	}
	sc.recs, sc.children = recs, children

	// A stable counting sort by partition into the run's buffer.
	counts := sc.counts
	clear(counts)
	for _, rec := range recs {
		counts[rec.key>>shift]++
	}
	nunits := e.keys.Units()
	if cap(run.units) < nunits+1 {
		run.units = make([]int32, nunits+1)
	}
	run.units = run.units[:nunits+1]
	at := int32(0)
	for p, c := range counts {
		if p%unitParts == 0 {
			run.units[p/unitParts] = at
		}
		counts[p] = at
		at += c
	}
	run.units[nunits] = at
	if cap(run.recs) < len(recs) {
		run.recs = make([]expRecord, len(recs))
	}
	out := run.recs[:len(recs)]
	for _, rec := range recs {
		p := rec.key >> shift
		out[counts[p]] = rec
		counts[p]++
	}
	run.recs = out
	return made
}

// dedup is phase 2: workers take units and mark the records of the keys
// their partitions' tables have not seen, reading the runs in order.
func (e *expander) dedup(ctx context.Context) error {
	shift, tables := e.keys.shift, e.keys.tables
	return e.keys.forUnits(ctx, e.workers, func(u int) error {
		for r := range e.runs {
			run := &e.runs[r]
			recs := run.recs[run.units[u]:run.units[u+1]]
			for j := range recs {
				if tables[recs[j].key>>shift].add(recs[j].key) {
					recs[j].ref |= keptFlag
				}
			}
		}
		return nil
	})
}

// collect is phase 3: workers take the batch's runs (base[from:to]) and
// append each run's kept refs to e.kept, sorted by group and then by parent.
// Within a parent the refs stay in the order of the run's records.
func (e *expander) collect(ctx context.Context, from, to int) error {
	first := len(e.kept)
	e.kept = append(e.kept, make([]expKept, len(e.runs))...)
	return parallelFor(ctx, e.workers, len(e.runs), func(w, r int) error {
		lo := from + r*runLen
		e.collectRun(&e.scratch[w], &e.runs[r], lo, min(to, lo+runLen), &e.kept[first+r])
		return nil
	})
}

// collectRun sorts the kept refs of run (the children of base[lo:hi]) by
// parent with a counting sort, then by group stably into out.
func (e *expander) collectRun(sc *expScratch, run *expRun, lo, hi int, out *expKept) {
	byParent := sc.byParent[:hi-lo+1]
	clear(byParent)
	var byGroup [numGroups + 1]int32
	n := 0
	for _, rec := range run.recs {
		if rec.ref&keptFlag != 0 {
			n++
			byParent[int(rec.ref>>24)-lo+1]++
			byGroup[rec.ref>>16&0xff+1]++
		}
	}
	for i := 1; i < len(byParent); i++ {
		byParent[i] += byParent[i-1]
	}
	for g := 1; g <= numGroups; g++ {
		byGroup[g] += byGroup[g-1]
	}
	if cap(sc.sorted) < n {
		sc.sorted = make([]uint64, n)
	}
	sorted := sc.sorted[:n]
	for _, rec := range run.recs {
		if rec.ref&keptFlag != 0 {
			p := int(rec.ref>>24) - lo
			sorted[byParent[p]] = rec.ref &^ keptFlag
			byParent[p]++
		}
	}
	out.start = byGroup
	refs := make([]uint64, n)
	for _, r := range sorted {
		g := r >> 16 & 0xff
		refs[byGroup[g]] = r
		byGroup[g]++
	}
	out.refs = refs
}

// group lays each group's refs from every run end to end into res.groups:
// the runs are in parent order and each run's refs of a group are sorted by
// parent, so each group is sorted by parent and rebuilding children
// (filters, scans, samples) reads the parents in order rather than at
// random. It frees the tables and the runs' refs.
func (e *expander) group(ctx context.Context, res *expansion) error {
	e.keys = nil // the tables are done with
	for g := range res.groups {
		total := 0
		for k := range e.kept {
			total += int(e.kept[k].start[g+1] - e.kept[k].start[g])
		}
		grp := part{base: e.base, refs: [][]uint64{}, n: total}
		if total > 0 {
			all := make([]uint64, 0, total)
			for k := range e.kept {
				all = append(all, e.kept[k].refs[e.kept[k].start[g]:e.kept[k].start[g+1]]...)
			}
			for lo := 0; lo < len(all); lo += chunkLen {
				end := min(len(all), lo+chunkLen)
				grp.refs = append(grp.refs, all[lo:end:end])
			}
		}
		res.groups[g] = grp
	}
	e.kept = nil
	return ctx.Err()
}
