package match

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one of N deterministic parts of a match's schedule: game i
// belongs to shard i mod N. A game keeps the seeds, colours and record name
// it has in the whole schedule (Config.Game), so N shards played anywhere
// (the tasks of a cluster's job array, say) and merged give the games of one
// run. The zero Shard is the whole schedule.
type Shard struct {
	K, N int
}

// ParseShard reads "K/N" with 0 ≤ K < N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want K/N, e.g. 0/4", s)
	}
	ki, err := strconv.Atoi(strings.TrimSpace(k))
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: K: %w", s, err)
	}
	ni, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil {
		return Shard{}, fmt.Errorf("shard %q: N: %w", s, err)
	}
	if ni < 1 || ki < 0 || ki >= ni {
		return Shard{}, fmt.Errorf("shard %q: want 0 ≤ K < N", s)
	}
	return Shard{ki, ni}, nil
}

// Check reports a shard that names no part of a schedule.
func (s Shard) Check() error {
	if s == (Shard{}) {
		return nil
	}
	if s.N < 1 || s.K < 0 || s.K >= s.N {
		return fmt.Errorf("shard %d/%d: want 0 ≤ K < N", s.K, s.N)
	}
	return nil
}

// Whole reports whether s is the whole schedule (the zero Shard, or 0/1).
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether game i belongs to s.
func (s Shard) Has(i int) bool { return s.Whole() || i%s.N == s.K }

// Count returns how many of a schedule's games belong to s.
func (s Shard) Count(games int) int {
	if s.Whole() {
		return games
	}
	if games <= s.K {
		return 0
	}
	return (games-s.K-1)/s.N + 1
}

// String shows s as --shard takes it: "K/N".
func (s Shard) String() string {
	if s.Whole() {
		return "0/1"
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}
