package shutdown

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log sink safe for the watcher goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestGamesOutliveTheFirstSignal: the games' context stays alive when ctx
// ends (the first signal) and ends at the second signal.
func TestGamesOutliveTheFirstSignal(t *testing.T) {
	var logs lockedBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	ctx, interrupt := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	gameCtx, stop := games(ctx, log, "finishing the games", sigs)
	defer stop()
	sigs <- os.Interrupt // the first signal, which also ends ctx
	interrupt()
	select {
	case <-gameCtx.Done():
		t.Fatal("the games ended with the first signal")
	case <-time.After(50 * time.Millisecond):
	}
	sigs <- os.Interrupt
	select {
	case <-gameCtx.Done():
	case <-time.After(time.Minute):
		t.Fatal("the games outlived the second signal")
	}
	if out := logs.String(); !strings.Contains(out, "finishing the games") || !strings.Contains(out, "abandoning the running games") {
		t.Errorf("logs:\n%s", out)
	}
}

// TestGamesStop: the returned function ends the games' context.
func TestGamesStop(t *testing.T) {
	gameCtx, stop := Games(context.Background(), slog.New(slog.DiscardHandler), "")
	stop()
	select {
	case <-gameCtx.Done():
	case <-time.After(time.Minute):
		t.Fatal("not ended")
	}
}
