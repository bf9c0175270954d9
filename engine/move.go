package engine

import (
	"fmt"
	"strings"
)

// moveEntry is one registered move strategy.
type moveEntry struct {
	name    string
	summary string
	build   func(cfg *Config) MoveStrategy
}

// moveStrategies lists the move strategies by name. To add one, write its
// file and add a line here.
func moveStrategies() []moveEntry {
	return []moveEntry{
		{"meanmin", "weighted mean and minimum of each request's score over the belief, with seek and hide", newMeanMin},
		{"static", "meanmin on static scores, no engine (a baseline and the clock's last resort)", newStaticMove},
	}
}

// MoveNames returns the move strategy names in the table's order.
func MoveNames() []string {
	var names []string
	for _, e := range moveStrategies() {
		names = append(names, e.name)
	}
	return names
}

// NewMoveStrategy builds the move strategy registered under name.
func NewMoveStrategy(name string, cfg *Config) (MoveStrategy, error) {
	for _, e := range moveStrategies() {
		if e.name == name {
			return e.build(cfg), nil
		}
	}
	return nil, fmt.Errorf("engine: unknown move strategy %q (have %s)", name, strings.Join(MoveNames(), ", "))
}
