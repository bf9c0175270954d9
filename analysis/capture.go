package analysis

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
)

// Capture is a slog.Handler that keeps what a bot logs until it is taken:
// give the bot a logger on a Capture, and after each decision Take returns
// the lines the decision logged (the Blindfish player logs its chosen sense
// and move with their values and the runners-up at debug level). Lines are
// text as slog's TextHandler writes them, without time and level.
type Capture struct {
	inner slog.Handler
	store *captureStore
}

// Entry is one logged line.
type Entry struct {
	// Text is the line: the message, then key=value pairs.
	Text string
	// Message is the record's message, Attrs its own attributes as text
	// (not those added with With), for a caller that looks for a value.
	Message string
	Attrs   map[string]string
}

// captureStore is shared by a Capture and the handlers derived from it by
// WithAttrs and WithGroup.
type captureStore struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	entries []Entry
	limit   int
	dropped int
}

// NewCapture returns a Capture of records at level and above, keeping at
// most limit lines between two Takes (a bot that logs in a loop must not
// fill the memory); the lines past it are counted.
func NewCapture(level slog.Leveler, limit int) *Capture {
	st := &captureStore{limit: limit}
	inner := slog.NewTextHandler(&st.buf, &slog.HandlerOptions{Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
				return slog.Attr{}
			}
			return a
		}})
	return &Capture{inner: inner, store: st}
}

// Enabled implements slog.Handler.
func (c *Capture) Enabled(ctx context.Context, l slog.Level) bool { return c.inner.Enabled(ctx, l) }

// Handle implements slog.Handler.
func (c *Capture) Handle(ctx context.Context, r slog.Record) error {
	st := c.store
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.entries) >= st.limit {
		st.dropped++
		return nil
	}
	st.buf.Reset()
	if err := c.inner.Handle(ctx, r); err != nil {
		return err
	}
	e := Entry{Text: strings.TrimSpace(r.Message + " " + st.buf.String()), Message: r.Message, Attrs: map[string]string{}}
	r.Attrs(func(a slog.Attr) bool {
		e.Attrs[a.Key] = a.Value.Resolve().String()
		return true
	})
	st.entries = append(st.entries, e)
	return nil
}

// WithAttrs implements slog.Handler.
func (c *Capture) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &Capture{inner: c.inner.WithAttrs(attrs), store: c.store}
}

// WithGroup implements slog.Handler.
func (c *Capture) WithGroup(name string) slog.Handler {
	return &Capture{inner: c.inner.WithGroup(name), store: c.store}
}

// Take returns the lines logged since the last Take, and how many past the
// limit were dropped.
func (c *Capture) Take() (entries []Entry, dropped int) {
	st := c.store
	st.mu.Lock()
	defer st.mu.Unlock()
	entries, dropped = st.entries, st.dropped
	st.entries, st.dropped = nil, 0
	return entries, dropped
}
