//go:build !unix

package childproc

import "os/exec"

// Prepare does nothing where there are no process groups.
func Prepare(*exec.Cmd) {}

// Kill kills cmd's process (its children are not reached).
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
