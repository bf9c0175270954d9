//go:build !linux

package uci

import (
	"os/exec"
	"syscall"
)

// sysProcAttr returns no special attributes outside Linux.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killTree kills the engine process.
func killTree(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
