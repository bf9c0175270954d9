package sampler

import (
	"math/rand/v2"
	"testing"
)

// TestSeenFilter: Seen reports a key seen only when an earlier Seen recorded
// it and no key since took its slot; key 0 is never seen; the size is
// clamped.
func TestSeenFilter(t *testing.T) {
	cases := []struct {
		name string
		bits int
		keys []uint64
		want []bool
		// slots is the filter's size, 1<<bits after clamping.
		slots int
	}{
		{name: "empty", bits: 4, slots: 16},
		{name: "new then seen", bits: 4, keys: []uint64{7, 7, 7}, want: []bool{false, true, true}, slots: 16},
		{name: "distinct keys", bits: 12, keys: []uint64{1, 2, 3, 1, 2, 3}, want: []bool{false, false, false, true, true, true}, slots: 4096},
		{name: "key zero is never seen", bits: 4, keys: []uint64{0, 0, 0}, want: []bool{false, false, false}, slots: 16},
		// In a 2-slot filter keys 1 and 3 share a slot, 2 and 4 the other.
		{name: "an evicted key is forgotten", bits: 1, keys: []uint64{1, 3, 1, 1, 3}, want: []bool{false, false, false, true, false}, slots: 2},
		{name: "other slot keeps its key", bits: 1, keys: []uint64{2, 1, 3, 2}, want: []bool{false, false, false, true}, slots: 2},
		{name: "bits below 1", bits: 0, keys: []uint64{5, 5}, want: []bool{false, true}, slots: 2},
		{name: "bits below 0", bits: -3, keys: []uint64{5}, want: []bool{false}, slots: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := NewSeenFilter(tc.bits)
			if f.Len() != tc.slots {
				t.Errorf("Len %d, want %d", f.Len(), tc.slots)
			}
			for i, k := range tc.keys {
				if got := f.Seen(k); got != tc.want[i] {
					t.Errorf("key %d (#%d): Seen %v, want %v", k, i, got, tc.want[i])
				}
			}
		})
	}
}

// TestSeenFilterNeverLies: over random keys with many repeats, a key
// reported seen was always recorded before, and a small filter both reports
// some repeats and forgets others.
func TestSeenFilterNeverLies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	f := NewSeenFilter(6)
	recorded := map[uint64]bool{}
	seen, forgotten := 0, 0
	for range 100_000 {
		k := rng.Uint64N(500)
		got := f.Seen(k)
		switch {
		case got && !recorded[k]:
			t.Fatalf("key %d reported seen before it was recorded", k)
		case got:
			seen++
		case recorded[k] && k != 0:
			forgotten++
		}
		recorded[k] = true
	}
	if seen == 0 || forgotten == 0 {
		t.Errorf("%d repeats seen and %d forgotten: want both", seen, forgotten)
	}
}
