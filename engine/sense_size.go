package engine

// newSizeSense maximises the expected share of boards the sense rules out,
// 1 − Σnᵢ²/N² (StrangeFish2's cheap rule): the sense that shrinks the belief
// most on average.
func newSizeSense(*Config) SenseStrategy {
	return &partitionSense{name: "size", score: setReduction}
}
