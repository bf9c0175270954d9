//go:build linux

package childproc

import "syscall"

// setParentDeathSignal asks the kernel to send the child SIGKILL when its
// parent dies. (Strictly, when the thread that started it ends: the Go
// runtime ends a thread only when a goroutine locked to it with
// runtime.LockOSThread returns without unlocking, which Blindfish never
// does.)
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
