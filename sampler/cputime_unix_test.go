//go:build unix

package sampler

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used (user and system), so
// that benchmarks can report rates per CPU-second on a shared machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
