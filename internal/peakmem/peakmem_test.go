package peakmem

import (
	"os"
	"os/exec"
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

// TestProcessSeesAChild: a child's own peak, read while it runs, is its
// program's (a shell: a few MB), not this process's (which has touched
// 256 MiB above when run with it).
func TestProcessSeesAChild(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := Process(os.Getpid()); ok {
			t.Fatalf("a peak on %s", runtime.GOOS)
		}
		t.Skipf("not reported on %s", runtime.GOOS)
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		if i%4096 == 0 {
			buf[i] = 1
		}
	}
	self, ok := Process(os.Getpid())
	runtime.KeepAlive(buf)
	if !ok || self < 64<<20 {
		t.Fatalf("this process: %d bytes, %v", self, ok)
	}
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting sleep: %v", err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	child, ok := Process(cmd.Process.Pid)
	if !ok || child <= 0 || child >= 32<<20 {
		t.Errorf("sleep's peak: %d bytes, %v (want a few MB)", child, ok)
	}
	if _, ok := Process(-1); ok {
		t.Error("a peak for pid -1")
	}
}
