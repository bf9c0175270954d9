//go:build linux

package rbcp

import (
	"log/slog"
	"syscall"
	"testing"
)

// TestClientEngineDiesWithUs: the engine runs in a process group of its own
// (a kill reaches what it started) and with the parent-death signal, so that
// a crash of ours leaves no engine running (internal/childproc tests that the
// kernel keeps that promise).
func TestClientEngineDiesWithUs(t *testing.T) {
	p, err := startProcess(engineConfig(t, "sleep"), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer p.reap()
	defer p.kill()
	attr := p.cmd.SysProcAttr
	if attr == nil || !attr.Setpgid || attr.Pdeathsig != syscall.SIGKILL {
		t.Fatalf("engine started with %+v; want its own process group and SIGKILL at our death", attr)
	}
}
