// Package proctest has test helpers that check that engine processes are
// reaped and that no goroutines leak.
package proctest

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Children returns the pids of this process's child processes that still
// exist, zombies included (read from /proc). ok is false when /proc cannot
// be read (not Linux).
func Children() (pids []int, ok bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses and may
		// contain spaces: state ppid ...
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil && ppid == self {
			pids = append(pids, pid)
		}
	}
	return pids, true
}

// Reaped reports whether pid no longer exists, not even as a zombie.
func Reaped(pid int) bool {
	err := syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH)
}

// settle is how long the checks below wait for a process to be reaped or
// goroutines to end. They return as soon as that happens (milliseconds on
// an idle machine), so the bound only guards against a real leak: a
// starved machine (a race pass at nice 19 beside busy processes) can take
// seconds to run the few instructions a kill, a reap or a goroutine's
// return needs, and a bound of two or three seconds failed there.
const settle = 30 * time.Second

// RequireReaped fails the test unless pid is gone (it waits up to settle).
func RequireReaped(t testing.TB, pid int) {
	t.Helper()
	if pid <= 0 {
		t.Fatalf("no pid to check (%d)", pid)
	}
	deadline := time.Now().Add(settle)
	for !Reaped(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("engine process %d was not reaped", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// RequireNoChildren fails the test if this process still has children
// after settle.
func RequireNoChildren(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for {
		pids, ok := Children()
		if !ok {
			t.Log("cannot list child processes (no /proc); check skipped")
			return
		}
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("child processes left behind: %v", pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// RequireGoroutines fails the test unless the number of goroutines falls
// back to at most before within settle; it prints all stacks on failure.
func RequireGoroutines(t testing.TB, before int) {
	t.Helper()
	deadline := time.Now().Add(settle)
	for {
		n := runtime.NumGoroutine()
		if n <= before {
			return
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Fatalf("goroutines leaked: %d before, %d after\n%s", before, n, buf)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
