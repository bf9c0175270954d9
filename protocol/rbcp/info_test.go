package rbcp

import (
	"log/slog"
	"strings"
	"testing"
)

// Each record from the level up is one info line, without the time.
func TestInfoLogger(t *testing.T) {
	var lines []string
	log := InfoLogger(func(s string) { lines = append(lines, s) }, slog.LevelInfo)
	log.Debug("hidden")
	log.Info("belief", "size", 12)
	log.Warn("slow", "took", "2s")
	want := []string{"level=INFO msg=belief size=12", "level=WARN msg=slow took=2s"}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("info lines %q, want %q", lines, want)
	}
}
