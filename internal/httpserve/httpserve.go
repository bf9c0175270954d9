// Package httpserve serves an http.Handler the way a server reachable by
// untrusted local clients must be served: every connection has deadlines
// for its headers, its body, its answer and its idle time, and the
// connections at once are capped in a way that no one client fills: a
// connection not yet answered is one of a small pool whose oldest member
// makes way for a newer one, a keep-alive connection idle between calls
// makes way for a new connection at the cap, and one remote host (other
// than this machine) holds a bounded share of the cap. A client that is
// slow, idle or many can so hold neither the server's goroutines nor its
// file descriptors for long, nor keep another client out.
package httpserve

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
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
	// MaxConns caps the connections open at once. At the cap a new
	// connection takes the place of the keep-alive connection that has been
	// idle longest (it is closed: its client reconnects when it next
	// calls); when none is idle, the new one waits in the kernel's backlog
	// until a connection closes.
	MaxConns int
	// MaxNewConns caps the connections that have not yet been answered and
	// kept open: those whose first request has not arrived, or is still
	// being read or answered. Past it a new connection closes the oldest of
	// them, so that clients that connect and send nothing, or send one byte
	// at a time, hold at most this many places, and only until newer
	// connections come. A server that answers a refusal (401) with
	// "Connection: close" so keeps clients without credentials in this pool
	// (see ksserver).
	MaxNewConns int
	// MaxConnsPerPeer caps the connections of one remote IP address other
	// than a loopback one (every client on this machine is one loopback
	// peer, and is bounded by the caps above). Past it a new connection of
	// that peer's takes the place of its own longest-idle one, and is
	// closed at once when none of its connections is idle.
	MaxConnsPerPeer int
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
		MaxNewConns:       16,
		MaxConnsPerPeer:   16,
	}
}

// withDefaults fills the zero fields of l from DefaultLimits; the pool of
// new connections and a peer's share are at most the cap.
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
	if l.MaxNewConns <= 0 {
		l.MaxNewConns = d.MaxNewConns
	}
	if l.MaxConnsPerPeer <= 0 {
		l.MaxConnsPerPeer = d.MaxConnsPerPeer
	}
	l.MaxNewConns = min(l.MaxNewConns, l.MaxConns)
	l.MaxConnsPerPeer = min(l.MaxConnsPerPeer, l.MaxConns)
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
	cl := newConnLimiter(ln, lim)
	hs := &http.Server{
		Handler:           cl.follow(h),
		ConnContext:       withConn,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout,
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		ConnState:         cl.connState,
	}
	stop := context.AfterFunc(ctx, func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(sctx); err != nil {
			hs.Close()
		}
	})
	defer stop()
	err := hs.Serve(cl)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// connLimiter is a listener that admits connections under Limits' caps,
// closing others' to make room as the caps say. The http.Server's
// ConnState hook tells it which connections are idle and which have been
// answered.
type connLimiter struct {
	net.Listener
	lim      Limits
	freed    chan struct{} // a token when a connection closed or went idle
	done     chan struct{}
	doneOnce sync.Once

	mu      sync.Mutex
	conns   map[*conn]struct{}
	fresh   int            // connections not yet answered
	perPeer map[string]int // connections of each non-loopback peer
}

func newConnLimiter(ln net.Listener, lim Limits) *connLimiter {
	return &connLimiter{Listener: ln, lim: lim, freed: make(chan struct{}, 1), done: make(chan struct{}),
		conns: map[*conn]struct{}{}, perPeer: map[string]int{}}
}

// conn is an admitted connection; it gives its place back when it is
// closed (once, however often it is closed).
type conn struct {
	net.Conn
	l      *connLimiter
	peer   string // the remote IP, "" for a loopback one
	opened time.Time
	once   sync.Once

	// Under l.mu:
	answered  bool      // it has been idle between two requests once
	read      bool      // its first request has been read whole
	idle      bool      // it is idle now
	idleSince time.Time // when it last became idle
	evicting  bool      // it is being closed to make room
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.release(c) })
	return err
}

// Accept returns the next connection the caps admit. It closes the
// connections that must make way for it, refuses (closes) one from a
// peer over its share, and waits while the cap is full of busy
// connections.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		c := &conn{Conn: nc, l: l, peer: peerOf(nc), opened: time.Now()}
		ok, err := l.admit(c)
		if err != nil {
			nc.Close()
			return nil, err
		}
		if ok {
			return c, nil
		}
		nc.Close()
	}
}

// admit makes room for c and takes it in; false when c is refused, an
// error when the listener was closed meanwhile.
func (l *connLimiter) admit(c *conn) (bool, error) {
	for {
		l.mu.Lock()
		victim, act := l.pick(c)
		if act == admitIt {
			l.conns[c] = struct{}{}
			l.fresh++
			if c.peer != "" {
				l.perPeer[c.peer]++
			}
		}
		if victim != nil {
			victim.evicting = true
		}
		l.mu.Unlock()
		switch act {
		case admitIt:
			return true, nil
		case refuse:
			return false, nil
		case evict:
			victim.Close()
			// Under a flood of new connections, let those admitted read the
			// requests already waiting on them before more are taken in
			// (and they are pushed out in turn).
			runtime.Gosched()
		case wait:
			select {
			case <-l.freed:
			case <-l.done:
				return false, net.ErrClosed
			}
		}
	}
}

type action int

const (
	admitIt action = iota
	evict
	wait
	refuse
)

// pick says what to do about newcomer c (with l.mu held): take it in, close
// a connection to make room, wait for one to close, or refuse c.
func (l *connLimiter) pick(c *conn) (*conn, action) {
	if c.peer != "" && l.perPeer[c.peer] >= l.lim.MaxConnsPerPeer {
		if v := l.longestIdle(c.peer); v != nil {
			return v, evict
		}
		return nil, refuse
	}
	if l.fresh >= l.lim.MaxNewConns {
		if v := l.oldestFresh(); v != nil {
			return v, evict
		}
		return nil, wait // the unanswered ones are all being closed
	}
	if len(l.conns) >= l.lim.MaxConns {
		if v := l.longestIdle(""); v != nil {
			return v, evict
		}
		return nil, wait
	}
	return nil, admitIt
}

// longestIdle is the connection idle longest (of peer's, unless peer is
// ""), nil when none is idle.
func (l *connLimiter) longestIdle(peer string) *conn {
	var best *conn
	for c := range l.conns {
		if c.idle && !c.evicting && (peer == "" || c.peer == peer) && (best == nil || c.idleSince.Before(best.idleSince)) {
			best = c
		}
	}
	return best
}

// oldestFresh is the oldest connection not yet answered whose request is
// still being read. One whose request is in, and is being answered, is not
// closed to make room: on a starved machine a bot's call can wait that
// long for its answer while a flood of new connections comes.
func (l *connLimiter) oldestFresh() *conn {
	var best *conn
	for c := range l.conns {
		if !c.answered && !c.read && !c.evicting && (best == nil || c.opened.Before(best.opened)) {
			best = c
		}
	}
	return best
}

// connKey is the context key of a request's connection.
type connKey struct{}

// withConn keeps a request's connection in its context (ConnContext).
func withConn(ctx context.Context, nc net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, nc)
}

// follow wraps h to mark a connection's request read once its body has
// been read whole (at once for a request without a body), so that the
// connection is no longer one a newcomer may close (oldestFresh).
func (l *connLimiter) follow(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := r.Context().Value(connKey{}).(*conn); ok {
			done := func() { l.markRead(c) }
			if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
				done()
			} else {
				r.Body = &readBody{ReadCloser: r.Body, left: r.ContentLength, done: done}
			}
		}
		h.ServeHTTP(w, r)
	})
}

// markRead marks c's request read.
func (l *connLimiter) markRead(c *conn) {
	l.mu.Lock()
	c.read = true
	l.mu.Unlock()
}

// readBody calls done once its body has been read whole: its declared
// length read (left, -1 when unknown), or its end met.
type readBody struct {
	io.ReadCloser
	left int64
	done func()
	once sync.Once
}

func (b *readBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.left > 0 {
		b.left -= int64(n)
	}
	if err == io.EOF || b.left == 0 {
		b.once.Do(b.done)
	}
	return n, err
}

// release gives c's place back.
func (l *connLimiter) release(c *conn) {
	l.mu.Lock()
	if _, ok := l.conns[c]; ok {
		delete(l.conns, c)
		if !c.answered {
			l.fresh--
		}
		if c.peer != "" {
			if l.perPeer[c.peer]--; l.perPeer[c.peer] <= 0 {
				delete(l.perPeer, c.peer)
			}
		}
	}
	l.mu.Unlock()
	l.wake()
}

// wake tells a waiting Accept to look again.
func (l *connLimiter) wake() {
	select {
	case l.freed <- struct{}{}:
	default:
	}
}

// connState follows the http.Server's view of each connection: idle
// between requests (and so answered), or busy with one.
func (l *connLimiter) connState(nc net.Conn, st http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	switch st {
	case http.StateIdle:
		l.mu.Lock()
		if !c.answered {
			c.answered = true
			if _, ok := l.conns[c]; ok {
				l.fresh--
			}
		}
		c.idle, c.idleSince = true, time.Now()
		l.mu.Unlock()
		l.wake() // an idle connection may make way for one that waits
	case http.StateActive:
		l.mu.Lock()
		c.idle = false
		l.mu.Unlock()
	case http.StateHijacked, http.StateClosed:
		c.once.Do(func() { l.release(c) })
	}
}

func (l *connLimiter) Close() error {
	l.doneOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// peerOf is the remote IP of c, "" when it is a loopback address (or
// unknown): the per-peer share does not apply to it.
func peerOf(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return ""
	}
	ip := net.ParseIP(host)
	if ip == nil || ip.IsLoopback() {
		return ""
	}
	return ip.String()
}
