//go:build linux

package childproc

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// TestParentDeath: on Linux a prepared child dies with its parent.
func TestParentDeath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), "CHILDPROC_TEST_PARENT=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	child := readPid(t, bufio.NewReader(out))
	if err := parent.Wait(); err != nil {
		t.Fatalf("helper parent: %v", err)
	}
	requireGone(t, child, "the child of a dead parent")
}
