package sampler

import (
	"context"
	"fmt"
)

// PartitionedKeys deduplicates keys on several workers at once, without
// locks, and with the same result whatever the number of workers. It is the
// dedup of RBC's expansion and of Kriegspiel's exact belief.
//
// A key's top bits choose its partition, and each partition has a key set
// of its own, small enough to stay in the cache (about 8,000 keys): one set
// for millions of keys would miss the cache on nearly every key. Runs of
// consecutive partitions form units, and a unit is one worker's at a time,
// so no two workers ever touch one set. Within a unit the keys go in in the
// caller's order, runs in order and each run's keys in order, so the key
// found new is always the first of its value in that order, and the rest
// are its duplicates, however the units were spread over the workers.
//
// Callers feed it in batches, each run's keys sorted by partition so that a
// unit reads one contiguous slice of each run: Kriegspiel's belief gives
// Mark runs of keys in the order made (KeyRun), which it sorts; RBC's
// expansion (expander.dedup) sorts its records, which carry more than the
// key, as it makes them, and inserts them itself through forUnits, marking
// the record of each new key. Keys stay in the sets from batch to batch: a
// key is new only once.
type PartitionedKeys struct {
	// shift maps a key to its partition: its top 64-shift bits.
	shift uint
	// unitParts is the number of partitions in a unit.
	unitParts int
	// tableKeys is the number of keys a partition's set is first sized
	// for; the sets are made by the workers that first fill them, so that
	// clearing the memory is shared too.
	tableKeys int
	tables    []*keySet
}

// Partition sizing.
const (
	// partKeys is the most keys a partition is planned for: its set then
	// stays in the cache.
	partKeys = 8192
	// maxPartBits bounds the partitions to 1<<maxPartBits.
	maxPartBits = 12
	// maxUnits bounds the units: enough for the workers to balance and for
	// one unit's sets to stay in a core's cache (about 128 KiB for RBC's
	// bench belief of 296k parents), few enough that each unit reads runs of
	// a good length. The units never change which key is found new.
	maxUnits = 512
)

// NewPartitionedKeys sizes the partitions for about keys keys, duplicates
// included, deduplicated by up to workers workers: about 8,000 a partition,
// and for more than 65,536 keys at least 8 partitions a worker so that the
// workers balance. Each partition's set is first sized for half its share
// (a batch's duplicates usually take the other half) and grows as needed.
func NewPartitionedKeys(keys, workers int) *PartitionedKeys {
	pbits := uint(0)
	for pbits < maxPartBits && (keys>>pbits > partKeys || (keys > 8*partKeys && 1<<pbits < 8*workers)) {
		pbits++
	}
	nparts := 1 << pbits
	return &PartitionedKeys{
		shift:     64 - pbits,
		unitParts: max(1, nparts/maxUnits),
		tableKeys: keys >> pbits / 2,
		tables:    make([]*keySet, nparts),
	}
}

// Units returns the number of units.
func (pk *PartitionedKeys) Units() int { return len(pk.tables) / pk.unitParts }

// Unit returns the unit of key k.
func (pk *PartitionedKeys) Unit(k uint64) int { return int(k>>pk.shift) / pk.unitParts }

// parts returns the number of partitions.
func (pk *PartitionedKeys) parts() int { return len(pk.tables) }

// Bytes returns the memory the sets take, counting a set not made yet at
// the size it will be made.
func (pk *PartitionedKeys) Bytes() int64 {
	var n int64
	for _, t := range pk.tables {
		if t != nil {
			n += t.bytes()
		} else {
			n += int64(keySetSlots(pk.tableKeys)) * 8
		}
	}
	return n
}

// forUnits runs fn(u) for every unit u on up to workers workers, each unit
// on one worker, with the unit's sets made. fn may add to the sets of unit
// u (tables[u*unitParts:(u+1)*unitParts]) and no others.
func (pk *PartitionedKeys) forUnits(ctx context.Context, workers int, fn func(u int) error) error {
	return parallelFor(ctx, workers, pk.Units(), func(_, u int) error {
		for p := u * pk.unitParts; p < (u+1)*pk.unitParts; p++ {
			if pk.tables[p] == nil {
				pk.tables[p] = newKeySet(pk.tableKeys)
			}
		}
		return fn(u)
	})
}

// KeyRun is one run of keys for PartitionedKeys.Mark: the keys in the
// order made, and after Mark which of them are duplicates. The zero value is
// an empty run; Reset empties one for reuse, keeping its memory.
type KeyRun struct {
	// Keys are the run's keys, in order (appended with Append).
	Keys []uint64
	// Dup, after Mark, tells for each key whether an earlier key (of this
	// run, an earlier run of the batch, or an earlier batch) had its value.
	Dup []bool
	// Mark's working copy of the run, laid out as RBC's expansion lays out
	// its records: sorted holds the keys sorted by partition (stably), idx
	// each one's index in Keys, with dupBit set once it is found a
	// duplicate, and parts[p] where partition p's keys start
	// (parts[len(tables)] is len(Keys)).
	sorted []uint64
	idx    []uint32
	parts  []int32
	// pk is the PartitionedKeys the keys were appended with.
	pk *PartitionedKeys
}

// dupBit marks a duplicate's index in KeyRun.idx.
const dupBit = 1 << 31

// Reset empties r.
func (r *KeyRun) Reset() {
	r.Keys, r.Dup, r.pk = r.Keys[:0], r.Dup[:0], nil
}

// Append appends key k to run r. A run's keys are all appended with one
// PartitionedKeys; appending with another one panics.
func (pk *PartitionedKeys) Append(r *KeyRun, k uint64) {
	if r.pk != pk {
		if r.pk != nil {
			panic("sampler: KeyRun appended to by two PartitionedKeys")
		}
		r.pk = pk
	}
	r.Keys = append(r.Keys, k)
}

// Mark adds the keys of runs run(0) … run(n-1), in that order, on up to
// workers workers, and sets each run's Dup: a key is a duplicate when a key
// before it in that order, or in an earlier batch, had its value. The
// result is the same whatever the number of workers. run is called from
// several workers at once and must return the same run for the same i.
//
// It works in three steps: each run's keys are sorted by partition into
// one buffer, with a stable counting sort that stays in the run's few
// kilobytes; each unit then adds, run by run in order, the run's contiguous
// slice of each of its partitions to that partition's set
// (keySet.addRun, whose loop keeps the set's fields in registers and loads
// slots a few keys ahead, so that their cache misses overlap); and each
// run's marks go back to its keys' order.
func (pk *PartitionedKeys) Mark(ctx context.Context, workers, n int, run func(i int) *KeyRun) error {
	for i := range n {
		r := run(i)
		if r.pk != pk && len(r.Keys) > 0 {
			return fmt.Errorf("sampler: PartitionedKeys.Mark given run %d, appended to with another PartitionedKeys", i)
		}
	}
	err := parallelFor(ctx, workers, n, func(_, i int) error {
		pk.sortRun(run(i))
		return nil
	})
	if err != nil {
		return err
	}
	err = pk.forUnits(ctx, workers, func(u int) error {
		for i := range n {
			r := run(i)
			for p := u * pk.unitParts; p < (u+1)*pk.unitParts; p++ {
				lo, hi := r.parts[p], r.parts[p+1]
				pk.tables[p].addRun(r.sorted[lo:hi], r.idx[lo:hi])
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return parallelFor(ctx, workers, n, func(_, i int) error {
		r := run(i)
		for _, x := range r.idx {
			r.Dup[x&^dupBit] = x&dupBit != 0
		}
		return nil
	})
}

// sortRun sizes r's Dup and sorts its keys by partition into r.sorted and
// r.idx, stably, with r.parts[p] where partition p's start.
func (pk *PartitionedKeys) sortRun(r *KeyRun) {
	n, nparts := len(r.Keys), len(pk.tables)
	if cap(r.Dup) < n {
		r.Dup = make([]bool, n)
	}
	if cap(r.sorted) < n {
		r.sorted, r.idx = make([]uint64, n), make([]uint32, n)
	}
	r.Dup, r.sorted, r.idx = r.Dup[:n], r.sorted[:n], r.idx[:n]
	if cap(r.parts) < nparts+1 {
		r.parts = make([]int32, nparts+1)
	}
	parts := r.parts[:nparts+1]
	r.parts = parts
	clear(parts)
	shift := pk.shift
	for _, k := range r.Keys {
		parts[k>>shift+1]++
	}
	for p := 1; p <= nparts; p++ {
		parts[p] += parts[p-1]
	}
	// parts[p] is now where partition p starts; each of its keys moves it
	// one on, so that afterwards parts[p] is where partition p+1 starts.
	sorted, idx := r.sorted, r.idx
	for j, k := range r.Keys {
		p := k >> shift
		at := parts[p]
		sorted[at], idx[at] = k, uint32(j)
		parts[p] = at + 1
	}
	copy(parts[1:], parts[:nparts])
	parts[0] = 0
}
