//go:build linux

package uci

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts the engine in its own process group (so that killTree
// also reaches anything it spawned, e.g. when the engine is a wrapper
// script) and asks the kernel to kill it if Blindfish dies.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killTree sends SIGKILL to the engine's process group and to the engine.
func killTree(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
