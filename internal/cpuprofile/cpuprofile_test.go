package cpuprofile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStart: a gzipped profile at the path, and an error for a path that
// cannot be created.
func TestStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	stop, err := Start(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1e5; i++ {
		_ = strings.Repeat("x", i%7)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile: %d bytes, %v", len(b), err)
	}
	if _, err := Start(filepath.Join(t.TempDir(), "no", "such", "cpu.prof")); err == nil {
		t.Error("no error for a path in a missing folder")
	}
}
