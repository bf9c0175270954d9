// Package peakmem reports the peak resident memory of this process and of
// its finished children, so that a long match can say how much memory its
// players used at most (the soak's bound) without sampling it.
package peakmem

// Usage is a peak resident set size in bytes, of this process (Self) and of
// the largest of its children that have exited and been waited for
// (Children: engines a player started and closed). OK is false where the
// operating system does not report it.
type Usage struct {
	Self, Children int64
	OK             bool
}

// Now returns the peaks so far.
func Now() Usage { return now() }

// Process returns the peak resident memory of the running process pid since
// it started its program (Linux's VmHWM; false elsewhere, or once the
// process has exited). Usage.Children cannot stand in for it on Linux: a
// child Go starts shares the parent's memory until it runs its program, and
// the kernel counts the parent's peak at that moment as the child's, so an
// engine must be asked before it is stopped.
func Process(pid int) (int64, bool) { return process(pid) }
