package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStartProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	var stderr bytes.Buffer
	stop := startProfile(path, &stderr)
	for i := 0; i < 1e6; i++ {
		_ = strings.Repeat("x", i%7)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b { // a gzipped profile
		t.Fatalf("profile: %d bytes, %v; stderr %q", len(b), err, stderr.String())
	}
	// A path that cannot be written is reported, and the command runs on.
	stderr.Reset()
	startProfile(filepath.Join(t.TempDir(), "no", "such", "dir", "cpu.prof"), &stderr)()
	if !strings.Contains(stderr.String(), "BLINDFISH_CPUPROFILE") {
		t.Errorf("no complaint about a bad profile path: %q", stderr.String())
	}
	startProfile("", &stderr)() // none asked: nothing to do
}
