package engine

import (
	"testing"
	"time"
)

func TestMemoryBound(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		spec    string
		initial time.Duration
		want    int64
	}{
		{"blindfish", time.Minute, 2*90*mib + playerOverhead},      // 1.5 MB a second of clock
		{"blindfish", 10 * time.Second, 2*64*mib + playerOverhead}, // the smallest budget
		{"blindfish", time.Hour, 2*768*mib + playerOverhead},       // the largest
		{"blindfish:memory=100", time.Hour, 2*100*mib + playerOverhead},
		{"random", time.Minute, baselineMemory},
		{"trout", time.Minute, baselineMemory},
	} {
		got, err := MemoryBound(c.spec, c.initial)
		if err != nil || got != c.want {
			t.Errorf("MemoryBound(%q, %v) = %d MiB, %v; want %d MiB", c.spec, c.initial, got/mib, err, c.want/mib)
		}
	}
	for _, spec := range []string{"nobot", "blindfish:memroy=100", ":"} {
		if _, err := MemoryBound(spec, time.Minute); err == nil {
			t.Errorf("MemoryBound(%q) gave no error", spec)
		}
	}
}
