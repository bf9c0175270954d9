package oppmodel

// Priority sampling (Duffield, Lund and Thorup 2007) keeps a sample of boards
// in proportion to their weights without replacement: each board gets the
// priority w/u, u uniform in (0, 1], and the boards whose priority is at
// least a threshold τ are kept. A board of weight w < τ is kept with
// probability w/τ (in proportion to its weight), one of weight w ≥ τ always,
// and max(1, τ/w) summed over the kept boards is an unbiased estimate of how
// many boards there were (max(w, τ) summed, of their total weight).
//
// u is a hash of the board's key and a salt rather than a draw of a random
// generator: the same board gets the same priority wherever it comes from
// (so deduplication and filtering before a board is built agree), and
// whatever the order or the number of workers that see it, so a run is
// reproducible from its salt.

// KeyUniform maps a 64-bit key to a uniform number in (0, 1].
func KeyUniform(x uint64) float64 {
	x = splitmix(x)
	return (float64(x>>11) + 1) / (1 << 53)
}

// Priority returns the priority of a board of weight w whose key, mixed
// with a salt, is key: w/u with u = KeyUniform(key).
func Priority(key uint64, w float64) float64 { return w / KeyUniform(key) }

// Stands returns how many boards a kept board of weight w stands for when
// the boards of priority at least tau were kept: max(1, tau/w), the inverse
// of its chance of being kept.
func Stands(w, tau float64) float64 { return max(1, tau/w) }

func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
