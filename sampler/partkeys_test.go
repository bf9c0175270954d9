package sampler

import (
	"context"
	"slices"
	"testing"
)

// splitmix returns the i-th value of a fixed pseudo-random sequence.
func splitmix(i uint64) uint64 {
	z := i*0x9E3779B97F4A7C15 + 0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// TestPartitionedKeys: whatever the number of workers (and so of
// partitions), Mark marks as a duplicate exactly the keys that a key before
// them had, in the order of the batches, their runs and the runs' keys; the
// first of each value is the one kept. The same holds when the keys go in
// by unit through forUnits, as the expansion feeds them.
func TestPartitionedKeys(t *testing.T) {
	cases := []struct {
		name string
		// estimate is what NewPartitionedKeys is told; the batches hold
		// batches×runs×perRun keys drawn from distinct values.
		estimate, batches, runs, perRun, distinct int
		// topBits, when > 0, keeps only the keys' low 64-topBits bits, so
		// that all fall in the first partition.
		topBits uint
	}{
		{name: "empty", estimate: 0, batches: 1, runs: 3, perRun: 0, distinct: 1},
		{name: "one partition", estimate: 1000, batches: 1, runs: 4, perRun: 200, distinct: 300},
		{name: "all distinct", estimate: 50_000, batches: 2, runs: 8, perRun: 3000, distinct: 1 << 40},
		{name: "many duplicates", estimate: 100_000, batches: 3, runs: 16, perRun: 2000, distinct: 5000},
		{name: "across batches", estimate: 20_000, batches: 5, runs: 2, perRun: 2000, distinct: 15_000},
		{name: "units of several partitions", estimate: 1 << 21, batches: 2, runs: 6, perRun: 4000, distinct: 10_000},
		{name: "one hot partition", estimate: 200_000, batches: 2, runs: 6, perRun: 3000, distinct: 4000, topBits: 20},
		{name: "key zero", estimate: 100, batches: 2, runs: 3, perRun: 50, distinct: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// batches[b][r] are the keys of run r of batch b.
			batches := make([][][]uint64, tc.batches)
			// want[b][r][j] is whether a key before it had its value.
			want := make([][][]bool, tc.batches)
			seen := map[uint64]bool{}
			i := uint64(0)
			for b := range batches {
				batches[b] = make([][]uint64, tc.runs)
				want[b] = make([][]bool, tc.runs)
				for r := range batches[b] {
					for range tc.perRun {
						k := splitmix(splitmix(i) % uint64(tc.distinct))
						if tc.distinct <= 3 {
							k = i % uint64(tc.distinct) // 0, 1, 2
						}
						if tc.topBits > 0 {
							k &= 1<<(64-tc.topBits) - 1
						}
						i++
						batches[b][r] = append(batches[b][r], k)
						want[b][r] = append(want[b][r], seen[k])
						seen[k] = true
					}
				}
			}
			for _, workers := range []int{1, 2, 3, 8} {
				pk := NewPartitionedKeys(tc.estimate, workers)
				if pk.Units() < 1 || pk.Units() > maxUnits || pk.parts()%pk.Units() != 0 {
					t.Fatalf("workers=%d: %d units of %d partitions", workers, pk.Units(), pk.parts())
				}
				runs := make([]KeyRun, tc.runs)
				for b := range batches {
					for r := range runs {
						runs[r].Reset()
						for _, k := range batches[b][r] {
							pk.Append(&runs[r], k)
						}
					}
					err := pk.Mark(context.Background(), workers, len(runs), func(r int) *KeyRun { return &runs[r] })
					if err != nil {
						t.Fatal(err)
					}
					for r := range runs {
						if !slices.Equal(runs[r].Keys, batches[b][r]) {
							t.Fatalf("workers=%d, batch %d, run %d: keys %v, want %v", workers, b, r, runs[r].Keys, batches[b][r])
						}
						for j, dup := range runs[r].Dup {
							if dup != want[b][r][j] {
								t.Fatalf("workers=%d (%d partitions), batch %d, run %d: key %d (%#x) dup %v, want %v",
									workers, pk.parts(), b, r, j, runs[r].Keys[j], dup, want[b][r][j])
							}
						}
						if len(runs[r].Dup) != len(batches[b][r]) {
							t.Fatalf("workers=%d: %d dup marks for %d keys", workers, len(runs[r].Dup), len(batches[b][r]))
						}
					}
				}

				// The expansion's way: each unit reads the keys of its
				// partitions in order and adds them itself.
				pk = NewPartitionedKeys(tc.estimate, workers)
				for b := range batches {
					got := make([][]bool, tc.runs)
					for r := range got {
						got[r] = make([]bool, len(batches[b][r]))
					}
					err := pk.forUnits(context.Background(), workers, func(u int) error {
						for r := range batches[b] {
							for j, k := range batches[b][r] {
								if pk.Unit(k) == u {
									got[r][j] = !pk.tables[k>>pk.shift].add(k)
								}
							}
						}
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					for r := range got {
						if !slices.Equal(got[r], want[b][r]) {
							t.Fatalf("workers=%d, batch %d, run %d: forUnits marks differ from the order's", workers, b, r)
						}
					}
				}
				if pk.Bytes() <= 0 {
					t.Errorf("workers=%d: Bytes %d", workers, pk.Bytes())
				}
			}
		})
	}
}

// TestPartitionedKeysSizing: about 8,000 keys a partition, at least 8
// partitions a worker past 65,536 keys, at most 4096 partitions and 512
// units.
func TestPartitionedKeysSizing(t *testing.T) {
	for _, tc := range []struct {
		keys, workers, parts, units int
	}{
		{0, 1, 1, 1},
		{8192, 1, 1, 1},
		{8193, 1, 2, 2},
		{65_536, 16, 8, 8},
		{65_537, 16, 128, 128},
		{1 << 20, 2, 128, 128},
		{1 << 21, 2, 256, 256},
		{1 << 23, 2, 1024, 512},
		{1 << 40, 64, 4096, 512},
	} {
		pk := NewPartitionedKeys(tc.keys, tc.workers)
		if pk.parts() != tc.parts || pk.Units() != tc.units {
			t.Errorf("NewPartitionedKeys(%d, %d): %d partitions in %d units, want %d in %d",
				tc.keys, tc.workers, pk.parts(), pk.Units(), tc.parts, tc.units)
		}
	}
}

// TestPartitionedKeysMisfiled: a run filed by one PartitionedKeys cannot be
// marked or appended to by another.
func TestPartitionedKeysMisfiled(t *testing.T) {
	a, b := NewPartitionedKeys(1<<20, 2), NewPartitionedKeys(1<<20, 2)
	var r KeyRun
	a.Append(&r, 42)
	if err := b.Mark(context.Background(), 2, 1, func(int) *KeyRun { return &r }); err == nil {
		t.Error("Mark took a run filed by another PartitionedKeys")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Append filed into a run of another PartitionedKeys")
			}
		}()
		b.Append(&r, 43)
	}()
	r.Reset()
	b.Append(&r, 43) // after Reset the run is anyone's
	if err := b.Mark(context.Background(), 2, 1, func(int) *KeyRun { return &r }); err != nil || r.Dup[0] {
		t.Errorf("Mark after Reset: %v, dup %v", err, r.Dup)
	}
}
