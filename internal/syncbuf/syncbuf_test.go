package syncbuf

import (
	"strings"
	"sync"
	"testing"
)

// TestConcurrentWrites: writers at once lose nothing (and -race sees no
// race).
func TestConcurrentWrites(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("x"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := b.String(); got != strings.Repeat("x", 800) {
		t.Errorf("got %d bytes, want 800", len(got))
	}
}
