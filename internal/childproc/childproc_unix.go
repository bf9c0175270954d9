//go:build unix

package childproc

import (
	"os/exec"
	"syscall"
)

// Prepare sets cmd up, before Start, to run in a process group of its own
// and, on Linux, to be killed when its parent dies. It replaces
// cmd.SysProcAttr.
func Prepare(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Setpgid: true}
	setParentDeathSignal(attr)
	cmd.SysProcAttr = attr
}

// Kill sends SIGKILL to cmd's process group and to cmd's process. Call it
// only before cmd.Wait has returned: once the child is reaped its pid, and
// so its group id, may be another process's.
func Kill(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
