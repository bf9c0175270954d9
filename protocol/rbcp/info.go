package rbcp

import (
	"log/slog"
	"strings"
)

// InfoLogger returns a logger that sends each record from level up as one
// info line through info (the info function an Engine's NewPlayer gets),
// in slog's text form without the time (the harness stamps its own), so
// that a player's decision logs reach the harness's log.
func InfoLogger(info func(text string), level slog.Level) *slog.Logger {
	return slog.New(slog.NewTextHandler(infoWriter(info), &slog.HandlerOptions{
		Level:       level,
		ReplaceAttr: dropTime,
	}))
}

// infoWriter sends each record a text handler writes as one info line.
type infoWriter func(string)

func (w infoWriter) Write(p []byte) (int, error) {
	w(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func dropTime(groups []string, a slog.Attr) slog.Attr {
	if len(groups) == 0 && a.Key == slog.TimeKey {
		return slog.Attr{}
	}
	return a
}
