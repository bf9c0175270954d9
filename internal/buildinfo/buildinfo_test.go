package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestText: the module version, the revision and whether the tree was
// modified, and the Go version and platform; a build without build info
// still names the Go version.
func TestText(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.99.1",
		Main:      debug.Module{Path: "github.com/blindfish-rbc/blindfish", Version: "v0.0.0-20260101000000-abcdef123456+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "abcdef1234567890"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := Text(bi)
	for _, want := range []string{"blindfish v0.0.0-20260101000000-abcdef123456+dirty\n", "revision abcdef1234567890 (modified)\n", "go1.99.1 " + runtime.GOOS + "/" + runtime.GOARCH + "\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("Text = %q, want it to contain %q", got, want)
		}
	}
	bi.Settings[2].Value = "false"
	if got := Text(bi); strings.Contains(got, "modified") {
		t.Errorf("clean tree: Text = %q", got)
	}
	if got := Text(nil); !strings.Contains(got, runtime.Version()) {
		t.Errorf("no build info: Text = %q", got)
	}
}
