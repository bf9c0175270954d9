package kriegspiel

import (
	"context"

	"github.com/blindfish-rbc/blindfish/sampler"
)

// partitionedKeys deduplicates the boards of a batch of runs on several
// workers at once, as RBC's expansion does: a key's top bits choose its
// partition, each partition has a key set of its own, small enough to stay
// in the cache, and the workers take partitions, so no two ever share a
// key. Each partition goes through the runs in order, so the board marked
// new is the first of its key in the belief's order, whatever the number of
// workers.
type partitionedKeys struct {
	shift  uint
	tables []*sampler.KeySet
}

// newPartitionedKeys sizes the partitions for about n keys (some 8,000 a
// partition).
func newPartitionedKeys(n int) *partitionedKeys {
	pbits := uint(0)
	for pbits < 10 && n>>pbits > 8192 {
		pbits++
	}
	pk := &partitionedKeys{shift: 64 - pbits, tables: make([]*sampler.KeySet, 1<<pbits)}
	for i := range pk.tables {
		pk.tables[i] = sampler.NewKeySet(n >> pbits)
	}
	return pk
}

// part returns the partition of key k.
func (pk *partitionedKeys) part(k uint64) int { return int(k >> pk.shift) }

// mark sets outs[r].dup[j] for every board whose key an earlier board (of
// these runs or of earlier batches) had. The runs' bins must list, for each
// partition, the boards whose keys fall in it.
func (pk *partitionedKeys) mark(ctx context.Context, workers int, outs []runOut) error {
	for r := range outs {
		o := &outs[r]
		if cap(o.dup) < len(o.keys) {
			o.dup = make([]bool, len(o.keys))
		}
		o.dup = o.dup[:len(o.keys)]
	}
	return sampler.ParallelFor(ctx, workers, len(pk.tables), func(_, p int) error {
		t := pk.tables[p]
		for r := range outs {
			o := &outs[r]
			if p >= len(o.bins) {
				continue
			}
			for _, j := range o.bins[p] {
				o.dup[j] = !t.Add(o.keys[j])
			}
		}
		return nil
	})
}

// bin records that board j of o has key k.
func (pk *partitionedKeys) bin(o *runOut, j int, k uint64) {
	p := pk.part(k)
	if len(o.bins) < len(pk.tables) {
		o.bins = append(o.bins, make([][]int32, len(pk.tables)-len(o.bins))...)
	}
	o.bins[p] = append(o.bins[p], int32(j))
}
