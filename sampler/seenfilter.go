package sampler

// SeenFilter is a small, lossy set of 64-bit keys: a table of 1<<bits slots,
// each holding the last key whose multiplicative hash chose it. An expansion
// keeps one per worker to skip a child whose key it met a moment ago (a
// duplicate, usually from a neighbouring parent) before the child is built,
// judged or sent to the exact dedup, which is far dearer than one probe of a
// table that stays in the cache.
//
// It may forget: a key written to a slot evicts the one there, so a key seen
// before can be reported new, and the exact dedup downstream still catches
// it. It never lies about "seen": Seen reports true only when the very key is
// in its slot, which only an earlier Seen of that key put there, so a caller
// that skips on true skips only repeats. Key 0 is never reported seen, since
// it is also what an empty slot holds.
//
// A SeenFilter is one goroutine's; it has no locks.
type SeenFilter struct {
	slots []uint64
	// shift is 64-bits: the hash's top bits pick the slot.
	shift uint
}

// Minimum and maximum sizes of a SeenFilter, in bits: 2 slots to 16M slots
// (128 MiB), far past any filter that still fits a cache.
const (
	minSeenFilterBits = 1
	maxSeenFilterBits = 24
)

// NewSeenFilter returns an empty filter of 1<<bits slots (8<<bits bytes).
// bits is clamped to [1, 24].
func NewSeenFilter(bits int) *SeenFilter {
	bits = min(max(bits, minSeenFilterBits), maxSeenFilterBits)
	return &SeenFilter{slots: make([]uint64, 1<<bits), shift: uint(64 - bits)}
}

// Seen reports whether k is in the filter, that is whether an earlier Seen
// of k recorded it and no other key has taken its slot since, and records k.
// It is small enough to be inlined into an expansion's inner loop.
func (f *SeenFilter) Seen(k uint64) bool {
	// shift is in [40, 63]; the mask tells the compiler so, which spares
	// the check Go makes for shifts of 64 or more.
	slot := &f.slots[k*0x9E3779B97F4A7C15>>(f.shift&63)]
	if *slot == k && k != 0 {
		return true
	}
	*slot = k
	return false
}

// Len returns the number of slots.
func (f *SeenFilter) Len() int { return len(f.slots) }
