package engine

// newHSUCSense minimises the largest group of boards the window cannot tell
// apart (the HSUC rule, N − max group): the best worst case.
func newHSUCSense(*Config) SenseStrategy {
	return &partitionSense{name: "hsuc", score: func(p []float64) float64 { return 1 - largestGroupShare(p) }}
}
