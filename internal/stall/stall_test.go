package stall

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestParseWait reads the second field of a schedstat line.
func TestParseWait(t *testing.T) {
	for _, tc := range []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"205771198 868039993 132\n", 868039993, true},
		{"0 17437207 1", 17437207, true},
		{"12", 0, false},
		{"1 x 2", 0, false},
		{"1 -5 2", 0, false},
		{"", 0, false},
	} {
		got, ok := parseWait(tc.line)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseWait(%q) = %v, %v; want %v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// busy spins for d of CPU time on n goroutines.
func busy(n int, d time.Duration) {
	done := make(chan struct{})
	for range n {
		go func() {
			defer func() { done <- struct{}{} }()
			for end := time.Now().Add(d); time.Now().Before(end); {
			}
		}()
	}
	for range n {
		<-done
	}
}

// pinToOneCPU pins every thread of this process to CPU 0, skipping the
// test where the counts or taskset are missing, and returns what undoes it.
func pinToOneCPU(t *testing.T) (unpin func()) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the counts come from Linux's /proc")
	}
	if len(Start().start) == 0 {
		t.Skip("no schedstat here")
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("no taskset")
	}
	pid := os.Getpid()
	if out, err := exec.Command(taskset, "-a", "-p", "-c", "0", strconv.Itoa(pid)).CombinedOutput(); err != nil {
		t.Skipf("taskset: %v\n%s", err, out)
	}
	return func() {
		all := "0-" + strconv.Itoa(runtime.NumCPU()-1)
		if out, err := exec.Command(taskset, "-a", "-p", "-c", all, strconv.Itoa(pid)).CombinedOutput(); err != nil {
			t.Errorf("taskset back to %s: %v\n%s", all, err, out)
		}
	}
}

// TestProbeSeesAWaitForACPU pins this process to one CPU and runs two
// spinning threads on it, so that each waits for the other about half the
// time: the probe must count those waits.
func TestProbeSeesAWaitForACPU(t *testing.T) {
	defer pinToOneCPU(t)()
	prev := runtime.GOMAXPROCS(2)
	defer runtime.GOMAXPROCS(prev)
	p := Start()
	start := time.Now()
	busy(2, 300*time.Millisecond)
	took, stalled := time.Since(start), p.Stop()
	t.Logf("two spinning threads on one CPU: %v of wall time, %v waiting for the CPU", took, stalled)
	if stalled < 200*time.Millisecond {
		t.Errorf("the probe counted %v of waits for the CPU; two threads shared one for %v", stalled, took)
	}
}

func TestWithTimeout(t *testing.T) {
	// On a machine that withholds nothing it is a plain timeout (a stall
	// only makes it later, which no check here can fail).
	ctx, cancel := WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	select {
	case <-ctx.Done():
	case <-time.After(StartTimeout):
		t.Fatal("the timeout never ended the context")
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("Err() = %v, want DeadlineExceeded", ctx.Err())
	}
	// The parent's end and cancel end it too, with their errors.
	parent, pcancel := context.WithCancel(context.Background())
	ctx, cancel = WithTimeout(parent, time.Hour)
	defer cancel()
	if ctx.Err() != nil {
		t.Fatalf("Err() = %v before any end", ctx.Err())
	}
	pcancel()
	<-ctx.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("after the parent's cancel: Err() = %v", ctx.Err())
	}
	ctx, cancel = WithTimeout(context.Background(), time.Hour)
	cancel()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("after cancel: Err() = %v", ctx.Err())
	}
}

// TestWorkTimeoutEndsWhileItsProcessIsBusy pins this process to one CPU and
// keeps four threads spinning on it until the timeout ends: each waits
// three quarters of the time, so their waits added up grow three times as
// fast as the clock, and a timeout pushed back by that sum would run to its
// cap (StartTimeout). Pushed back by the longest wait it ends after about
// four times d, or later only by what the rest of the machine withholds.
func TestWorkTimeoutEndsWhileItsProcessIsBusy(t *testing.T) {
	defer pinToOneCPU(t)()
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	ctx, cancel := WithWorkTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for ctx.Err() == nil {
			}
		}()
	}
	for range 4 {
		<-done
	}
	// A hang guard: the cap is three minutes, the expected end well under
	// one second; a second at nice 19 beside busy neighbours is far slower.
	if took := time.Since(start); took > StartTimeout/3 {
		t.Errorf("the timeout of 20ms ended after %v with its process busy", took)
	} else {
		t.Logf("ended after %v", took)
	}
}
