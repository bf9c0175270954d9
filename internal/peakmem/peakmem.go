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
