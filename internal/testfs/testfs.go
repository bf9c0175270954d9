// Package testfs holds the file-system helpers that tests of several
// packages share.
package testfs

import (
	"os"
	"testing"
)

// Names lists the names in dir, sorted (os.ReadDir's order), failing the
// test when dir cannot be read: what a test that checks which files a run
// left behind compares.
func Names(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
