// Package httpserve serves an http.Handler the way a server reachable by
// untrusted local clients must be served: every connection has deadlines
// for its headers, its body, its answer and its idle time, and the number
// of connections at once is capped, so that slow or idle clients can hold
// neither the server's goroutines nor its file descriptors for long.
package httpserve

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bounds what one client can take of a server. A zero field takes
// its value from DefaultLimits.
type Limits struct {
	// ReadHeaderTimeout bounds the reading of a request's headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds the reading of a whole request, body included.
	ReadTimeout time.Duration
	// WriteTimeout bounds a request from the end of its headers to the
	// end of its answer; it must exceed the longest a handler waits.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that sends no new request.
	IdleTimeout time.Duration
	// MaxHeaderBytes bounds a request's headers.
	MaxHeaderBytes int
	// MaxConns caps the connections open at once; a client past the cap
	// waits in the kernel's backlog until one closes.
	MaxConns int
}

// DefaultLimits are meant for a bot API whose calls answer at once and
// whose bodies are a few kilobytes: generous for a client on the same
// machine, short enough that a stalled one is dropped in seconds.
func DefaultLimits() Limits {
	return Limits{
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       30 * time.Second,
		MaxHeaderBytes:    16 << 10,
		MaxConns:          64,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.ReadHeaderTimeout <= 0 {
		l.ReadHeaderTimeout = d.ReadHeaderTimeout
	}
	if l.ReadTimeout <= 0 {
		l.ReadTimeout = d.ReadTimeout
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = d.WriteTimeout
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = d.IdleTimeout
	}
	if l.MaxHeaderBytes <= 0 {
		l.MaxHeaderBytes = d.MaxHeaderBytes
	}
	if l.MaxConns <= 0 {
		l.MaxConns = d.MaxConns
	}
	return l
}

// Serve serves h on ln under lim until ctx is done, then shuts down,
// giving the calls in progress up to 5 s. It returns nil after a shutdown
// and the listener's error otherwise; ln is closed either way. The
// server's own diagnostics go to log (nil discards them).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, lim Limits, log *slog.Logger) error {
	lim = lim.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			hs.Close()
		}
	})
	defer stop()
	err := hs.Serve(LimitListener(ln, lim.MaxConns))
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// LimitListener returns a listener that accepts at most n connections of
// ln's at once: Accept waits while n are open.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	sem      chan struct{}
	done     chan struct{}
	doneOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	l.doneOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when it is closed (once, however often
// it is closed).
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
