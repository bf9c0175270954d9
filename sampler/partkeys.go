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
// Callers feed it in batches: Mark takes runs of keys filed by unit as they
// were made (KeyRun). RBC's expansion (expander.dedup), whose children
// outnumber Kriegspiel's many times over, instead sorts each run's records
// by unit, so that a unit reads one contiguous slice of each run, and
// inserts them itself through forUnits, marking the record of each new key.
// Keys stay in the sets from batch to batch: a key is new only once.
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
	// sinks[u] takes what Mark's early loads of unit u's slots read, so
	// that the compiler keeps them.
	sinks []uint64
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
// order made, filed by unit as they are appended, and after Mark which of
// them are duplicates. The zero value is an empty run; Reset empties one for
// reuse, keeping its memory.
type KeyRun struct {
	// Keys are the run's keys, in order (appended with Append).
	Keys []uint64
	// Dup, after Mark, tells for each key whether an earlier key (of this
	// run, an earlier run of the batch, or an earlier batch) had its value.
	Dup []bool
	// units lists for each unit the indexes in Keys of its keys; pk is the
	// PartitionedKeys that filed them.
	units [][]int32
	pk    *PartitionedKeys
}

// Reset empties r.
func (r *KeyRun) Reset() {
	r.Keys, r.Dup, r.pk = r.Keys[:0], r.Dup[:0], nil
	for u := range r.units {
		r.units[u] = r.units[u][:0]
	}
}

// Append appends key k to run r, filing it by its unit. A run's keys are
// all filed by one PartitionedKeys; appending with another one panics.
func (pk *PartitionedKeys) Append(r *KeyRun, k uint64) {
	if r.pk != pk {
		if r.pk != nil {
			panic("sampler: KeyRun appended to by two PartitionedKeys")
		}
		r.pk = pk
		if n := pk.Units(); len(r.units) < n {
			r.units = append(r.units, make([][]int32, n-len(r.units))...)
		}
	}
	u := pk.Unit(k)
	r.units[u] = append(r.units[u], int32(len(r.Keys)))
	r.Keys = append(r.Keys, k)
}

// Mark adds the keys of runs run(0) … run(n-1), in that order, on up to
// workers workers, and sets each run's Dup: a key is a duplicate when a key
// before it in that order, or in an earlier batch, had its value. The
// result is the same whatever the number of workers. run is called from
// several workers at once and must return the same run for the same i.
func (pk *PartitionedKeys) Mark(ctx context.Context, workers, n int, run func(i int) *KeyRun) error {
	for i := range n {
		r := run(i)
		if r.pk != pk && len(r.Keys) > 0 {
			return fmt.Errorf("sampler: PartitionedKeys.Mark given run %d, filed by another PartitionedKeys", i)
		}
		if cap(r.Dup) < len(r.Keys) {
			r.Dup = make([]bool, len(r.Keys))
		}
		r.Dup = r.Dup[:len(r.Keys)]
	}
	if len(pk.sinks) < pk.Units() {
		pk.sinks = make([]uint64, pk.Units())
	}
	return pk.forUnits(ctx, workers, func(u int) error {
		var sink uint64
		for i := range n {
			r := run(i)
			if r.pk != pk {
				continue // empty
			}
			// A key's slot is a cache miss nearly every time (the sets
			// together are far larger than the cache): the group's slots
			// are loaded first, all at once, and the adds then find them
			// in the cache.
			idx := r.units[u]
			for lo := 0; lo < len(idx); lo += markGroup {
				grp := idx[lo:min(lo+markGroup, len(idx))]
				for _, j := range grp {
					k := r.Keys[j]
					sink ^= pk.tables[k>>pk.shift].peek(k)
				}
				for _, j := range grp {
					k := r.Keys[j]
					r.Dup[j] = !pk.tables[k>>pk.shift].add(k)
				}
			}
		}
		pk.sinks[u] = sink
		return nil
	})
}

// markGroup is how many keys Mark loads the slots of before adding them:
// enough misses in flight at once to hide most of their wait, few enough
// that the slots are still in the cache when the keys are added.
const markGroup = 8
