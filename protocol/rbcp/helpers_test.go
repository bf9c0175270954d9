package rbcp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// testEngine is the engine the in-process tests serve: a random player with
// a "seed" and a "style" option (internal/testengine serves the same one as
// a process).
func testEngine(hook func(p *randbot.Player)) Engine {
	return Engine{
		Name:   "Test Engine 1.0",
		Author: "Blindfish tests",
		Options: []Option{
			{Name: "seed", Type: "spin", Default: "1", HasDefault: true, Min: 0, Max: 1 << 30},
			{Name: "style", Type: "combo", Default: "calm", HasDefault: true, Vars: []string{"calm", "wild"}},
		},
		NewPlayer: func(ctx context.Context, opts map[string]string, info func(string)) (rbc.Player, error) {
			seed, err := strconv.ParseUint(opts["seed"], 10, 64)
			if err != nil {
				return nil, err
			}
			p := randbot.New(seed)
			p.SetInfo(info)
			if hook != nil {
				hook(p)
			}
			return p, nil
		},
	}
}

// testEnginePath is the test engine binary, built once by TestMain.
var testEnginePath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "rbcp-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testEnginePath = filepath.Join(dir, "testengine")
	// Built without -race even when the tests use it: an instrumented binary
	// takes seconds to start on a loaded machine.
	// go test puts its own toolchain first on PATH.
	build := exec.Command("go", "build", "-o", testEnginePath, "./internal/testengine")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the test engine:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// engineConfig returns a config that runs the test engine in mode.
func engineConfig(t *testing.T, mode string) ClientConfig {
	t.Helper()
	return ClientConfig{
		Command: []string{testEnginePath, "-mode", mode},
		Stderr:  os.Stderr,
	}
}

// checkGoroutines fails the test if goroutines started during it are still
// running shortly after it ends.
func checkGoroutines(t *testing.T) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		deadline := time.Now().Add(3 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%d goroutines leaked:\n%s", n-before, buf)
		}
	})
}
