//go:build linux || darwin || freebsd || netbsd || openbsd

package peakmem

import (
	"runtime"
	"syscall"
)

func now() Usage {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return Usage{}
	}
	// Linux and the BSDs count Maxrss in KiB, macOS in bytes.
	unit := int64(1024)
	if runtime.GOOS == "darwin" {
		unit = 1
	}
	return Usage{Self: int64(self.Maxrss) * unit, Children: int64(children.Maxrss) * unit, OK: true}
}
