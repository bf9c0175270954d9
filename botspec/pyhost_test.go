package botspec

import (
	"io"
	"os"
	"slices"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/protocol/reconchess"
)

// TestPySpec: a py: spec runs $PYTHON on the built-in host with the bot as
// its argument, the host written once into the cache folder.
func TestPySpec(t *testing.T) {
	cache := t.TempDir()
	t.Setenv(PythonEnv, "/opt/my/python")
	r := NewResolver(nil, cache)
	argv, err := r.pyCommand("py:bots/my bot.py")
	if err != nil {
		t.Fatal(err)
	}
	if len(argv) != 3 || argv[0] != "/opt/my/python" || argv[2] != "bots/my bot.py" {
		t.Fatalf("py: runs %q", argv)
	}
	src, err := os.ReadFile(argv[1])
	if err != nil || string(src) != reconchess.HostScript() {
		t.Fatalf("the host at %s is not the built-in one (%v)", argv[1], err)
	}
	again, err := r.pyCommand("py:reconchess.bots.trout_bot")
	if err != nil || again[1] != argv[1] || again[2] != "reconchess.bots.trout_bot" {
		t.Fatalf("second py: spec runs %q, %v", again, err)
	}

	t.Setenv(PythonEnv, "")
	if argv, _ := r.pyCommand("py:x.py"); argv[0] != "python3" {
		t.Errorf("without %s the interpreter is %q", PythonEnv, argv[0])
	}
	p, err := r.NewPlayer("py:x.py", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(*rbcp.Client); !ok {
		t.Fatalf("py: spec gave %T", p)
	}
	p.(io.Closer).Close()
	for _, bad := range []string{"py:", "py:  ", "build:HEAD:py:x.py"} {
		if _, err := r.NewPlayer(bad, 1); err == nil {
			t.Errorf("NewPlayer(%q) succeeded", bad)
		}
	}
	if !IsExternal("py:x.py") {
		t.Error("a py: spec is not external")
	}
}

// TestPyHostRewritten: a host file that is not the built-in one (cut short,
// or edited) is written again.
func TestPyHostRewritten(t *testing.T) {
	cache := t.TempDir()
	argv, err := NewResolver(nil, cache).pyCommand("py:x.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(argv[1], []byte("print('not the host')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := NewResolver(nil, cache).pyCommand("py:x.py")
	if err != nil || !slices.Equal(again, argv) {
		t.Fatalf("%q, %v", again, err)
	}
	if src, _ := os.ReadFile(argv[1]); string(src) != reconchess.HostScript() {
		t.Fatal("the damaged host was not written again")
	}
}
