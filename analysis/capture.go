package analysis

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// Capture is a slog.Handler that keeps what a bot logs until it is taken:
// give the bot a logger on a Capture, and after each decision Take returns
// the lines the decision logged (the Blindfish player logs its chosen sense
// and move with their values and the runners-up at debug level). A line is
// the message and the record's own attributes as slog's TextHandler writes
// them; attributes added with With (the bot's name and colour, said once
// by the caller) are left out.
type Capture struct {
	level  slog.Leveler
	groups []string
	store  *captureStore
}

// Entry is one logged line.
type Entry struct {
	// Text is the line: the message, then key=value pairs.
	Text string
	// Message is the record's message, Attrs its attributes as text, for a
	// caller that looks for a value.
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
	return &Capture{level: level, store: &captureStore{limit: limit}}
}

// Enabled implements slog.Handler.
func (c *Capture) Enabled(_ context.Context, l slog.Level) bool { return l >= c.level.Level() }

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
	var h slog.Handler = slog.NewTextHandler(&st.buf, &slog.HandlerOptions{Level: c.level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
				return slog.Attr{}
			}
			return a
		}})
	for _, g := range c.groups {
		h = h.WithGroup(g)
	}
	if err := h.Handle(ctx, r); err != nil {
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

// WithAttrs implements slog.Handler; the attributes are not shown.
func (c *Capture) WithAttrs([]slog.Attr) slog.Handler { return c }

// WithGroup implements slog.Handler.
func (c *Capture) WithGroup(name string) slog.Handler {
	if name == "" {
		return c
	}
	return &Capture{level: c.level, groups: append(slices.Clone(c.groups), name), store: c.store}
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
