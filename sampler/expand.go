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
//  1. Workers take runs of parents, apply every option to a copy and append
//     (key, ref) records to per-worker bins chosen by the key's top bits.
//  2. Workers take partitions; each inserts its records' keys into the
//     partition's own open-addressing table, which stays small enough for the
//     cache, and keeps the refs of new keys.
//
// Partitions never share a key, so no locks are needed and the dedup is exact.
// Between batches the memory is measured; when the next batch would pass the
// budget the remaining parents are left unexpanded for the backlog. At the
// end each partition's refs are split by capture group.

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
	e.bins = nil
	if err := e.group(ctx, res, hi); err != nil {
		return nil, err
	}
	return res, nil
}

// expander holds an expansion's working state: the partitions' key tables
// and refs, and each worker's record bins and move buffer.
type expander struct {
	workers int
	base    *store
	only    int
	// shift maps a key to its partition (its top bits).
	shift  uint
	tables []*keySet
	refs   [][]uint64
	// bins[w][p] holds worker w's records of partition p until phase 2.
	bins     [][][]expRecord
	moveBufs [][]rbc.Move
	// perParent estimates the persistent bytes a parent adds, refined after
	// every batch.
	perParent int64
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
	pbits := 0
	for pbits < 12 && (estChildren>>pbits > 8192 || (estChildren > 65536 && 1<<pbits < 8*workers)) {
		pbits++
	}
	nparts := 1 << pbits
	e := &expander{
		workers:   workers,
		base:      base,
		only:      only,
		shift:     uint(64 - pbits),
		tables:    make([]*keySet, nparts),
		refs:      make([][]uint64, nparts),
		bins:      make([][][]expRecord, workers),
		moveBufs:  make([][]rbc.Move, workers),
		perParent: perParent,
	}
	for p := range e.tables {
		e.tables[p] = newKeySet(int(estChildren>>pbits) / 2)
	}
	for w := range e.bins {
		e.bins[w] = make([][]expRecord, nparts)
		e.moveBufs[w] = make([]rbc.Move, 0, 256)
	}
	return e
}

// measure returns the bytes of the tables and refs, which outlive a batch,
// and of the bins, which a batch empties.
func (e *expander) measure() (persistent, transient int64) {
	for p := range e.tables {
		persistent += e.tables[p].bytes() + int64(cap(e.refs[p]))*8
	}
	for w := range e.bins {
		for p := range e.bins[w] {
			transient += int64(cap(e.bins[w][p])) * 16
		}
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

// fill is phase 1: workers expand runs of base[from:to] into their bins. It
// returns the number of children made.
func (e *expander) fill(ctx context.Context, from, to int) (int64, error) {
	nruns := (to - from + runLen - 1) / runLen
	counts := make([]int64, e.workers)
	err := parallelFor(ctx, e.workers, nruns, func(w, r int) error {
		bin := e.bins[w]
		buf := e.moveBufs[w]
		lo := from + r*runLen
		hi := min(to, lo+runLen)
		var made int64
		for i := lo; i < hi; i++ {
			parent := e.base.at(i)
			buf = parent.AppendOptions(buf[:0])
			for _, m := range buf {
				if e.only >= 0 && groupOf(parent.CaptureSquare(m)) != e.only {
					continue
				}
				child := *parent
				g := groupOf(child.Apply(m))
				k := child.Key()
				pb := &bin[k>>e.shift]
				*pb = append(*pb, expRecord{key: k, ref: makeRef(i, g, m)})
				made++
			}
		}
		e.moveBufs[w] = buf
		counts[w] += made
		return nil
	})
	var total int64
	for _, c := range counts {
		total += c
	}
	return total, err
}

// dedup is phase 2: workers take partitions and keep the refs of the keys
// their partition's table has not seen, emptying the bins.
func (e *expander) dedup(ctx context.Context) error {
	return parallelFor(ctx, e.workers, len(e.tables), func(_, p int) error {
		t := e.tables[p]
		out := e.refs[p]
		for w := range e.bins {
			for _, rec := range e.bins[w][p] {
				if t.add(rec.key) {
					out = append(out, rec.ref)
				}
			}
			e.bins[w][p] = e.bins[w][p][:0]
		}
		e.refs[p] = out
		return nil
	})
}

// group splits the refs by capture group into res.groups, each sorted by
// parent so that rebuilding children (filters, scans, samples) reads the
// parents in order rather than at random. It frees the tables.
func (e *expander) group(ctx context.Context, res *expansion, hi int) error {
	nparts := len(e.tables)
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
		e.tables[p] = nil
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
		sortByParent(all[bucketStart[b]:bucketStart[b+1]], limit)
		return nil
	})
	return all, err
}

// sortByParent sorts refs by parent index (all below limit) with a stable
// radix sort of 11 bits a pass.
func sortByParent(refs []uint64, limit int) {
	if len(refs) < 2 {
		return
	}
	const radix = 11
	nbits := bits.Len(uint(limit))
	tmp := make([]uint64, len(refs))
	src, dst := refs, tmp
	for shift := 0; shift < nbits; shift += radix {
		var count [1 << radix]int
		for _, r := range src {
			count[(r>>24>>shift)&(1<<radix-1)]++
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, r := range src {
			d := (r >> 24 >> shift) & (1<<radix - 1)
			dst[count[d]] = r
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &refs[0] {
		copy(refs, src)
	}
}
