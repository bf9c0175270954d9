//go:build !race

package evaluator

// poolRaceEnabled tells the throughput smoke test that the race detector
// slows the Go side down.
const poolRaceEnabled = false
