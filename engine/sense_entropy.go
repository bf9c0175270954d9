package engine

// newEntropySense maximises the entropy of the sense outcome: the bits the
// sense is expected to reveal. It favours many small groups where size
// favours splitting the big ones.
func newEntropySense(*Config) SenseStrategy {
	return &partitionSense{name: "entropy", score: outcomeEntropy}
}
