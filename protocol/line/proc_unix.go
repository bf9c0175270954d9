//go:build unix

package line

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the engine in a process group of its own, so that a
// kill reaches the programs it started too (a shell wrapper's child, say).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup kills the engine and everything in its process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
