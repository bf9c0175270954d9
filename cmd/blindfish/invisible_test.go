package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInvisibleCommand: `blindfish invisible versus` plays and prints its
// table and writes its files; a wrong table is refused.
func TestInvisibleCommand(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"invisible", "versus", "--bot", "advisor:depth=1", "--opponent", "random", "--configs", "1B,2R", "--games", "2", "--quiet", "--out", dir}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"| 1B | 2 | ", "| 2R | 2 | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, out.String())
		}
	}
	for _, f := range []string{"versus.txt", "versus.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if code := run(context.Background(), []string{"invisible", "table9"}, &out, &errb); code == 0 {
		t.Error("table9 was accepted")
	}
}
