package botspec

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
)

func TestNewPlayerSpecs(t *testing.T) {
	r := NewResolver(nil, t.TempDir())
	p, err := r.NewPlayer("random", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*rbcp.Client); ok {
		t.Fatal("a built-in spec gave a protocol client")
	}
	p, err = r.NewPlayer(`cmd:"/path with space/engine" --flag 'a b'`, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*rbcp.Client); !ok {
		t.Fatalf("cmd: spec gave %T", p)
	}
	p.(io.Closer).Close()
	for _, bad := range []string{"cmd:", "cmd:  ", `cmd:"open`, "nosuchbot", "blindfish:nosuchsetting=1", "build:", "build:HEAD:cmd:x"} {
		if _, err := r.NewPlayer(bad, 1); err == nil {
			t.Errorf("NewPlayer(%q) succeeded", bad)
		}
	}
}

// TestProbeStartsTheEngine: a cmd: spec whose program does not exist builds a
// client (nothing runs yet) but fails the probe, so a command refuses it
// before its first game.
func TestProbeStartsTheEngine(t *testing.T) {
	r := NewResolver(nil, t.TempDir())
	if err := r.Probe(context.Background(), "random"); err != nil {
		t.Errorf("random: %v", err)
	}
	err := r.Probe(context.Background(), "cmd:/no/such/engine-binary")
	if err == nil || !strings.Contains(err.Error(), "/no/such/engine-binary") {
		t.Errorf("missing program: %v", err)
	}
}

func TestCanonicalLeavesOtherSpecs(t *testing.T) {
	r := NewResolver(nil, t.TempDir())
	for _, spec := range []string{"random", "blindfish:depth=6", "cmd:x --y"} {
		got, err := r.Canonical(context.Background(), spec, nil)
		if err != nil || got != spec {
			t.Errorf("Canonical(%q) = %q, %v", spec, got, err)
		}
	}
	if _, err := r.Canonical(context.Background(), "build:no-such-rev-xyz", nil); err == nil || !strings.Contains(err.Error(), "unknown revision") {
		t.Errorf("unknown revision: %v", err)
	}
}

func TestFormatSortsSettings(t *testing.T) {
	cases := []struct {
		name   string
		params engine.Params
		want   string
	}{
		{"random", nil, "random"},
		{"blindfish", engine.Params{"samples": "300", "depth": "6"}, "blindfish:depth=6,samples=300"},
	}
	for _, c := range cases {
		if got := Format(c.name, c.params); got != c.want {
			t.Errorf("Format(%q, %v) = %q, want %q", c.name, c.params, got, c.want)
		}
	}
	name, params, err := engine.ParseSpec("blindfish:samples=300,depth=6")
	if err != nil || Format(name, params) != "blindfish:depth=6,samples=300" {
		t.Errorf("round trip: %q %v %v", name, params, err)
	}
}

func TestIsExternal(t *testing.T) {
	for spec, want := range map[string]bool{"cmd:x": true, "build:HEAD": true, "blindfish": false, "trout": false} {
		if IsExternal(spec) != want {
			t.Errorf("IsExternal(%q) = %v", spec, !want)
		}
	}
}

// TestCheckAndCanonicalAll: a match's specs come back canonical, in order;
// Check builds a built-in bot, and builds but does not start an rbcp
// engine (it starts with its first game), so a missing program passes here.
func TestCheckAndCanonicalAll(t *testing.T) {
	r := NewResolver(nil, t.TempDir())
	ctx := context.Background()
	got, err := r.CanonicalAll(ctx, nil, "random", "cmd:x --y")
	if err != nil || strings.Join(got, "|") != "random|cmd:x --y" {
		t.Errorf("CanonicalAll = %q, %v", got, err)
	}
	if _, err := r.CanonicalAll(ctx, nil, "random", "build:no-such-rev-xyz"); err == nil {
		t.Error("an unknown revision: no error")
	}
	if err := r.Check(ctx, "random"); err != nil {
		t.Errorf("random: %v", err)
	}
	if err := r.Check(ctx, "no-such-bot"); err == nil {
		t.Error("an unknown bot: no error")
	}
	if err := r.Check(ctx, "cmd:/no/such/engine-binary"); err != nil {
		t.Errorf("an rbcp engine is not started: %v", err)
	}
}
