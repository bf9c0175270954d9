package botspec

import (
	"os"
	"runtime/debug"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/engine"
)

func TestLimitMemory(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	t.Setenv("GOMEMLIMIT", "") // restored after the test
	os.Unsetenv("GOMEMLIMIT")

	bf, err := engine.MemoryBound("blindfish", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	rnd, err := engine.MemoryBound("random", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// Two games at once of Blindfish against random, and an external engine
	// (its own process: nothing here).
	want := ProcessMemory + 2*(bf+rnd)
	if got := LimitMemory([]string{"blindfish", "random", "cmd:stockfish-rbc --fast"}, 2, time.Minute); got != want {
		t.Errorf("limit %d MiB, want %d MiB", got>>20, want>>20)
	}
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("the runtime's limit is %d MiB, want %d MiB", got>>20, want>>20)
	}

	// A bot the registry cannot bound leaves the limit alone.
	if got := LimitMemory([]string{"blindfish", "sampling:belief=los"}, 1, time.Minute); got != 0 {
		t.Errorf("a Kriegspiel bot's limit: %d, want none", got)
	}
	// So does a limit the user set.
	t.Setenv("GOMEMLIMIT", "3GiB")
	if got := LimitMemory([]string{"blindfish"}, 1, time.Minute); got != 0 {
		t.Errorf("with GOMEMLIMIT set: limit %d, want none", got)
	}
	if got := debug.SetMemoryLimit(-1); got != want {
		t.Errorf("the runtime's limit changed to %d MiB", got>>20)
	}
}
