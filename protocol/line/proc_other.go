//go:build !unix

package line

import "os/exec"

// setProcessGroup does nothing where there are no process groups.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup kills the engine process.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
