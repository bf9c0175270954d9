package bots

import (
	"errors"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/internal/spec"
)

// TestNewRefusesBadSpecs: a spec that breaks the grammar is refused as the
// RBC bots refuse it (spec.ErrBadSpec), and a bad setting's error names the
// setting and, when unknown, the bot's settings.
func TestNewRefusesBadSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec, err string
		grammar   bool
	}{
		{"", `bots: bad bot spec "": no bot name`, true},
		{"sampling:depth", `bots: bad bot spec "sampling:depth": setting "depth" is not key=value`, true},
		{"mcts:depth=2,depth=3", `bots: bad bot spec "mcts:depth=2,depth=3": setting "depth" given twice`, true},
		{"trout", `unknown kriegspiel bot "trout" (want random, capturer, sampling, mcts, darkboard)`, false},
		{"random:seed=1", `kriegspiel bot "random:seed=1": random takes no settings`, false},
		{"sampling:speed=3", `kriegspiel bot "sampling:speed=3": speed: unknown setting (sampling has samples, depth, eval, belief, size, movetime, limit, recover)`, false},
		{"mcts:eval=embedded", `kriegspiel bot "mcts:eval=embedded": eval: unknown setting (mcts has boards, c, depth, iterations, approach, k, belief, size, movetime, limit, recover)`, false},
		{"mcts:c=-1", `kriegspiel bot "mcts:c=-1": c: "-1" is not a finite number at least 0`, false},
		{"sampling:samples=0", `kriegspiel bot "sampling:samples=0": samples: "0" is not a positive integer`, false},
		{"sampling:recover=maybe", `kriegspiel bot "sampling:recover=maybe": recover: "maybe" is neither hybrid nor none`, false},
		{"mcts:movetime=0s", `kriegspiel bot "mcts:movetime=0s": movetime: "0s" is not a positive duration`, false},
		// The first bad key in sorted order is the one named, on every run.
		{"mcts:size=0,boards=0", `kriegspiel bot "mcts:size=0,boards=0": boards: "0" is not a positive integer`, false},
	} {
		_, err := New(tc.spec, 1, nil)
		if err == nil || err.Error() != tc.err {
			t.Errorf("New(%q) = %v, want %q", tc.spec, err, tc.err)
			continue
		}
		if errors.Is(err, spec.ErrBadSpec) != tc.grammar {
			t.Errorf("New(%q): errors.Is(ErrBadSpec) = %v, want %v", tc.spec, !tc.grammar, tc.grammar)
		}
	}
}

func TestNames(t *testing.T) {
	got := Names()
	if !slices.Equal(got, []string{"random", "capturer", "sampling", "mcts", "darkboard"}) {
		t.Errorf("Names() = %v", got)
	}
}

// TestCheck: a known spec passes, an unknown bot or key does not.
func TestCheck(t *testing.T) {
	if err := Check("random", nil); err != nil {
		t.Errorf("random: %v", err)
	}
	for _, spec := range []string{"capturer", "darkboard:depth=2,alpha=0.7,nodes=500,movetime=200ms"} {
		if err := Check(spec, nil); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	for _, spec := range []string{"nobot", "random:nokey=1", "capturer:x=1", "darkboard:alpha=1", "darkboard:alpha=0", "darkboard:depth=0", "darkboard:movetime=-1s"} {
		if err := Check(spec, nil); err == nil {
			t.Errorf("%s: no error", spec)
		}
	}
}
