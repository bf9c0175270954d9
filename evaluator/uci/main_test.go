package uci

import (
	"os"
	"testing"

	"github.com/blindfish-rbc/blindfish/evaluator/internal/fakeengine"
)

// TestMain turns the test binary into a fake UCI engine when it is started
// with fakeengine.EnvMode set.
func TestMain(m *testing.M) {
	fakeengine.Main()
	os.Exit(m.Run())
}
