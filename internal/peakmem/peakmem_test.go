package peakmem

import (
	"runtime"
	"testing"
)

// TestNowSeesAnAllocation: the peak grows past a large allocation that is
// touched (so resident), and never falls.
func TestNowSeesAnAllocation(t *testing.T) {
	before := Now()
	if !before.OK {
		if runtime.GOOS == "linux" {
			t.Fatal("no peak memory on Linux")
		}
		t.Skipf("not reported on %s", runtime.GOOS)
	}
	buf := make([]byte, 256<<20)
	for i := range buf {
		if i%4096 == 0 {
			buf[i] = 1
		}
	}
	after := Now()
	runtime.KeepAlive(buf)
	if after.Self < before.Self || after.Self < 256<<20 {
		t.Errorf("peak %d bytes before, %d after touching 256 MiB", before.Self, after.Self)
	}
}
