package sampler

import (
	"context"
	"math/bits"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// Expansion turns the boards after our move (the opponent to move) into every
// board the opponent's move can lead to, deduplicated by key and grouped by
// the capture square each child announces, so that the capture notice at the
// start of our turn selects a group at once.
//
// It runs on all workers in batches of parents, each in two phases:
//  1. Workers take runs of parents, apply every option to a copy and write
//     (key, ref) records to a scratch buffer in the order made, then sort the
//     run's records by partition (the key's top bits) with a stable counting
//     sort into the run's own buffer, sized exactly. Writing in order and
//     scattering within a run that fits the cache is what keeps this phase
//     fast (appending each child straight to one of thousands of bins would
//     miss the cache on nearly every child).
//  2. Workers take units (ranges of partitions); for each run in order a
//     unit reads one contiguous slice of the run's records and inserts their
//     keys into the partitions' own open-addressing tables, which stay small
//     enough for the cache, keeping the refs of new keys.
//
// The partitions, their tables and the units are a PartitionedKeys:
// partitions never share a key and a unit is one worker's alone, so no locks
// are needed and the dedup is exact. Because phase 2 reads the runs in parent
// order, the child kept for a key is always its first in parent and option
// order, whatever the number of workers. Between batches the memory is
// measured; when the next batch would pass the budget the remaining parents
// are left unexpanded for the backlog. At the end each partition's refs are
// split by capture group.

// expRecord is a child during expansion: its key and its ref.
type expRecord struct {
	key, ref uint64
}

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
	if err := e.group(ctx, res, hi); err != nil {
		return nil, err
	}
	return res, nil
}

// expander holds an expansion's working state: the partitioned key tables
// and each partition's refs, the batch's runs and each worker's scratch.
type expander struct {
	workers int
	base    *store
	only    int
	keys    *PartitionedKeys
	refs    [][]uint64
	// runs holds the batch's runs; their buffers are reused by the next
	// batch.
	runs []expRun
	// scratch is each worker's phase-1 state.
	scratch []expScratch
	// perParent estimates the persistent bytes a parent adds, refined after
	// every batch.
	perParent int64
}

// expRun is one run's children, sorted by partition.
type expRun struct {
	recs []expRecord
	// units[u] is where unit u's records start in recs; units[nunits] is
	// len(recs).
	units []int32
}

// expScratch is a worker's phase-1 state: the run's records in the order
// made, the counts per partition and the move buffer. The padding keeps two
// workers' headers off one cache line.
type expScratch struct {
	recs   []expRecord
	counts []int32
	moves  []rbc.Move
	_      [64]byte
}

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
		refs:      make([][]uint64, nparts),
		scratch:   make([]expScratch, workers),
		perParent: perParent,
	}
	for w := range e.scratch {
		e.scratch[w].counts = make([]int32, nparts)
		e.scratch[w].moves = make([]rbc.Move, 0, 256)
	}
	return e
}

// measure returns the bytes of the tables and refs, which outlive a batch,
// and of the runs and scratch, which a batch reuses.
func (e *expander) measure() (persistent, transient int64) {
	persistent = e.keys.Bytes()
	for p := range e.refs {
		persistent += int64(cap(e.refs[p])) * 8
	}
	for r := range e.runs {
		transient += int64(cap(e.runs[r].recs))*16 + int64(cap(e.runs[r].units))*4
	}
	for w := range e.scratch {
		transient += int64(cap(e.scratch[w].recs)) * 16
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

// fillRun expands base[lo:hi] into run and returns the number of children.
func (e *expander) fillRun(sc *expScratch, run *expRun, lo, hi int) int {
	recs := sc.recs[:0]
	moves := sc.moves
	only, shift, unitParts := e.only, e.keys.shift, e.keys.unitParts
	for i := lo; i < hi; i++ {
		parent := e.base.at(i)
		moves = parent.AppendOptions(moves[:0])
		for _, m := range moves {
			if only >= 0 && groupOf(parent.CaptureSquare(m)) != only {
				continue
			}
			child := *parent
			g := groupOf(child.Apply(m))
			recs = append(recs, expRecord{key: child.Key(), ref: makeRef(i, g, m)})
		}
	}
	sc.recs, sc.moves = recs, moves

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
	return len(recs)
}

// dedup is phase 2: workers take units and keep the refs of the keys their
// partitions' tables have not seen, reading the runs in order.
func (e *expander) dedup(ctx context.Context) error {
	shift, tables := e.keys.shift, e.keys.tables
	return e.keys.forUnits(ctx, e.workers, func(u int) error {
		for r := range e.runs {
			run := &e.runs[r]
			for _, rec := range run.recs[run.units[u]:run.units[u+1]] {
				p := rec.key >> shift
				if tables[p].add(rec.key) {
					e.refs[p] = append(e.refs[p], rec.ref)
				}
			}
		}
		return nil
	})
}

// group splits the refs by capture group into res.groups, each sorted by
// parent so that rebuilding children (filters, scans, samples) reads the
// parents in order rather than at random. It frees the tables.
func (e *expander) group(ctx context.Context, res *expansion, hi int) error {
	nparts := e.keys.parts()
	perPart := make([][numGroups][]uint64, nparts)
	err := parallelFor(ctx, e.workers, nparts, func(_, p int) error {
		var count [numGroups]int
		for _, r := range e.refs[p] {
			count[r>>16&0xff]++
		}
		for g, c := range count {
			if c > 0 {
				perPart[p][g] = make([]uint64, 0, c)
			}
		}
		for _, r := range e.refs[p] {
			g := r >> 16 & 0xff
			perPart[p][g] = append(perPart[p][g], r)
		}
		e.refs[p] = nil
		e.keys.release(p)
		return nil
	})
	if err != nil {
		return err
	}
	for g := range res.groups {
		grp := part{base: e.base, refs: [][]uint64{}}
		all, err := gatherSorted(ctx, e.workers, perPart, g, hi)
		if err != nil {
			return err
		}
		for lo := 0; lo < len(all); lo += chunkLen {
			end := min(len(all), lo+chunkLen)
			grp.refs = append(grp.refs, all[lo:end:end])
		}
		grp.n = len(all)
		res.groups[g] = grp
	}
	return nil
}

// gatherSorted collects group g's refs from every partition, sorted by
// parent (all parents below limit). The refs are first scattered into
// buckets of parent ranges, in parallel over partitions, then each bucket is
// sorted, in parallel over buckets.
func gatherSorted(ctx context.Context, workers int, perPart [][numGroups][]uint64, g, limit int) ([]uint64, error) {
	total := 0
	for p := range perPart {
		total += len(perPart[p][g])
	}
	if total == 0 {
		return nil, nil
	}
	const nb = 64 // buckets
	shift := uint(max(0, bits.Len(uint(limit))-6))
	counts := make([][nb]int, len(perPart))
	err := parallelFor(ctx, workers, len(perPart), func(_, p int) error {
		for _, r := range perPart[p][g] {
			counts[p][r>>24>>shift]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Each (bucket, partition) gets its own range of the output.
	offsets := make([][nb]int, len(perPart))
	var bucketStart [nb + 1]int
	at := 0
	for b := range nb {
		bucketStart[b] = at
		for p := range perPart {
			offsets[p][b] = at
			at += counts[p][b]
		}
	}
	bucketStart[nb] = at
	all := make([]uint64, total)
	err = parallelFor(ctx, workers, len(perPart), func(_, p int) error {
		off := offsets[p]
		for _, r := range perPart[p][g] {
			b := r >> 24 >> shift
			all[off[b]] = r
			off[b]++
		}
		perPart[p][g] = nil
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = parallelFor(ctx, workers, nb, func(_, b int) error {
		// A bucket's parents share their bits from shift up.
		sortByParent(all[bucketStart[b]:bucketStart[b+1]], int(shift))
		return nil
	})
	return all, err
}

// sortByParent sorts refs by parent index, whose bits from nbits up are the
// same in every ref, with a stable radix sort in as few passes of at most 13
// bits as cover nbits (one pass for the buckets of up to 8k parents that
// gatherSorted makes from up to half a million).
func sortByParent(refs []uint64, nbits int) {
	if len(refs) < 2 || nbits == 0 {
		return
	}
	const maxRadix = 13
	passes := (nbits + maxRadix - 1) / maxRadix
	radix := (nbits + passes - 1) / passes
	tmp := make([]uint64, len(refs))
	var counts [1 << maxRadix]int
	count := counts[:1<<radix]
	src, dst := refs, tmp
	for shift := 0; shift < nbits; shift += radix {
		mask := uint64(1)<<radix - 1
		clear(count)
		for _, r := range src {
			count[(r>>24>>shift)&mask]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, r := range src {
			d := (r >> 24 >> shift) & mask
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &refs[0] {
		copy(refs, src)
	}
}
