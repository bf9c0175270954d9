//go:build unix && !linux

package childproc

import "syscall"

// setParentDeathSignal does nothing: there is no parent-death signal here.
func setParentDeathSignal(*syscall.SysProcAttr) {}
