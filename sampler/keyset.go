package sampler

import "math/bits"

// keySet is a set of 64-bit board keys: open addressing with linear probing
// over a power-of-two table. Deduplicating millions of keys this way is about
// four times faster than a Go map (no hashing of its own, no buckets, no
// pointers for the garbage collector to follow). Key 0 is kept aside because
// it marks an empty slot.
type keySet struct {
	slots []uint64
	mask  uint64
	n     int
	// limit is the number of keys past which the table doubles.
	limit   int
	hasZero bool
	// sink takes what addRun's early loads read, so that the compiler
	// keeps them.
	sink uint64
}

// maxLoad is the load factor past which the table doubles (7/10).
const maxLoadNum, maxLoadDen = 7, 10

// newKeySet returns a set that holds n keys without growing.
func newKeySet(n int) *keySet {
	s := &keySet{}
	s.reset(n)
	return s
}

// reset empties the set and sizes it for n keys, reusing the table if it is
// large enough.
func (s *keySet) reset(n int) {
	size := keySetSlots(n)
	if cap(s.slots) >= size {
		s.slots = s.slots[:size]
		clear(s.slots)
	} else {
		s.slots = make([]uint64, size)
	}
	s.setSize()
	s.n = 0
	s.hasZero = false
}

// keySetSlots returns the table length that holds n keys without growing.
func keySetSlots(n int) int {
	size := 16
	if want := n*maxLoadDen/maxLoadNum + 1; want > size {
		size = 1 << bits.Len(uint(want-1))
	}
	return size
}

// setSize derives the mask and the limit from the table's length.
func (s *keySet) setSize() {
	s.mask = uint64(len(s.slots) - 1)
	s.limit = len(s.slots) * maxLoadNum / maxLoadDen
}

// mix spreads a key's bits over the low bits used for the slot. Zobrist keys
// are already uniform, but keys that share their high bits (a partition) must
// not collide on their low bits either, so a cheap multiply is kept.
func mix(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 >> 17 }

// add inserts k and reports whether it was new. The rare cases (key 0, a
// full table) take addSlow, so that add's common path is one probe loop. It
// is not inlined: the probe loop and the call to addSlow cost the inliner
// about 120 where it allows 80, and no shape of it tried fits, so RBC's
// expansion (expander.dedup) pays a call a key; PartitionedKeys.Mark, which
// has its keys in one slice a set, calls addRun instead.
func (s *keySet) add(k uint64) bool {
	if k == 0 || s.n >= s.limit {
		return s.addSlow(k)
	}
	i := mix(k) & s.mask
	for s.slots[i] != 0 {
		if s.slots[i] == k {
			return false
		}
		i = (i + 1) & s.mask
	}
	s.slots[i] = k
	s.n++
	return true
}

// addRun adds keys, all of this set, in order, and sets dupBit in idx[j]
// when keys[j] was there already. It is add over a run with the table's
// fields held in registers, and each key's first slot loaded a few keys
// ahead, so that the cache misses of several keys overlap.
func (s *keySet) addRun(keys []uint64, idx []uint32) {
	idx = idx[:len(keys)]
	slots, mask := s.slots, s.mask
	var sink uint64
	for j, k := range keys {
		if j+addAhead < len(keys) {
			sink ^= slots[mix(keys[j+addAhead])&mask]
		}
		if k == 0 || s.n >= s.limit {
			if !s.addSlow(k) {
				idx[j] |= dupBit
			}
			slots, mask = s.slots, s.mask
			continue
		}
		i := mix(k) & mask
		for {
			v := slots[i]
			if v == 0 {
				slots[i] = k
				s.n++
				break
			}
			if v == k {
				idx[j] |= dupBit
				break
			}
			i = (i + 1) & mask
		}
	}
	s.sink = sink
}

// addAhead is how many keys ahead addRun loads a key's first slot.
const addAhead = 8

// addSlow is add for key 0 and for a table that must grow first.
func (s *keySet) addSlow(k uint64) bool {
	if k == 0 {
		if s.hasZero {
			return false
		}
		s.hasZero = true
		s.n++
		return true
	}
	s.grow()
	return s.add(k)
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.setSize()
	for _, k := range old {
		if k == 0 {
			continue
		}
		i := mix(k) & s.mask
		for s.slots[i] != 0 {
			i = (i + 1) & s.mask
		}
		s.slots[i] = k
	}
}

// len returns the number of keys in the set.
func (s *keySet) len() int { return s.n }

// bytes returns the memory the table takes.
func (s *keySet) bytes() int64 { return int64(cap(s.slots)) * 8 }
