//go:build unix

package childproc

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gone reports whether pid no longer runs: it does not exist, or it is a
// zombie waiting for whoever adopted it to reap it.
func gone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false // no /proc, or it ended just now: the next look tells
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// requireGone fails the test unless pid stops running within a few seconds;
// it kills pid in any case, so that a failing test leaves nothing behind.
func requireGone(t *testing.T, pid int, what string) {
	t.Helper()
	defer syscall.Kill(pid, syscall.SIGKILL)
	deadline := time.Now().Add(5 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readPid reads the first line of r as a pid.
func readPid(t *testing.T, r *bufio.Reader) int {
	t.Helper()
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("reading a pid: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("reading a pid: %v", err)
	}
	return pid
}

// TestKillReachesTheGroup: Kill stops the child and what the child started.
func TestKillReachesTheGroup(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 300 & echo $!; wait")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	Prepare(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	grandchild := readPid(t, bufio.NewReader(out))
	Kill(cmd)
	if err := cmd.Wait(); err == nil {
		t.Error("the child exited normally after Kill")
	}
	requireGone(t, grandchild, "the child's own child")
}

// TestKillBeforeStart: Kill of a command that never started does nothing.
func TestKillBeforeStart(t *testing.T) {
	Kill(exec.Command("true"))
}

// TestMain doubles as the helper parent of TestParentDeath: run with
// CHILDPROC_TEST_PARENT=1 it starts a prepared child, prints its pid and
// exits at once, leaving the child behind.
func TestMain(m *testing.M) {
	if os.Getenv("CHILDPROC_TEST_PARENT") == "1" {
		cmd := exec.Command("sleep", "300")
		Prepare(cmd)
		if err := cmd.Start(); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString(strconv.Itoa(cmd.Process.Pid) + "\n")
		os.Exit(0)
	}
	os.Exit(m.Run())
}
