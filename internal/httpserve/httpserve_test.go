package httpserve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// serve starts Serve on a loopback port and returns its address; the
// server is shut down when the test ends.
func serve(t *testing.T, lim Limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	go func() { done <- Serve(ctx, ln, h, lim, nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// get sends one keep-alive GET on conn and reads its answer.
func get(t *testing.T, conn net.Conn, br *bufio.Reader) {
	t.Helper()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

// waitClosed fails the test unless the server closes conn within limit.
func waitClosed(t *testing.T, conn net.Conn, br *bufio.Reader, limit time.Duration) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(limit))
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the server kept the connection open (read: %v)", err)
	}
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	addr := serve(t, Limits{IdleTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	get(t, conn, br)
	// The connection is now idle between requests: the server must hang up
	// (our limit guards a hang, not slowness).
	waitClosed(t, conn, br, hangTimeout)
}

func TestSlowHeadersAreCutOff(t *testing.T) {
	addr := serve(t, Limits{ReadHeaderTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n") // never ends its headers
	waitClosed(t, conn, bufio.NewReader(conn), hangTimeout)
}

// busyServer serves a handler that holds each request until release is
// closed (each request's arrival is sent on started), so that its
// connections are busy, not idle.
func busyServer(t *testing.T, lim Limits) (addr string, started <-chan struct{}, release chan<- struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	st, rel := make(chan struct{}, 100), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st <- struct{}{}
		if r.URL.Path == "/hold" {
			<-rel
		}
		fmt.Fprintln(w, "ok")
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, h, lim, nil) }()
	t.Cleanup(func() {
		select {
		case <-rel:
		default:
			close(rel)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String(), st, rel
}

// send sends a GET of path on a new connection and returns the channel
// its answer's error comes on.
func send(t *testing.T, addr, path string) (net.Conn, <-chan error) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	answered := make(chan error, 1)
	go func() {
		if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			answered <- err
			return
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	return c, answered
}

// hangTimeout guards the waits for an event against a hang, not against
// slowness (a starved machine may take seconds).
const hangTimeout = stall.StartTimeout

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(hangTimeout):
		t.Fatalf("%s: not within %v", what, hangTimeout)
	}
}

func waitAnswer(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err := <-ch:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(hangTimeout):
		t.Fatalf("%s: no answer within %v", what, hangTimeout)
	}
}

func TestConnectionsAreCapped(t *testing.T) {
	addr, started, release := busyServer(t, Limits{MaxConns: 2, IdleTimeout: time.Hour})
	for range 2 { // two clients answered once, now with a call in progress, hold both places
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		get(t, c, bufio.NewReader(c))
		waitFor(t, started, "a first call")
		io.WriteString(c, "GET /hold HTTP/1.1\r\nHost: x\r\n\r\n")
		waitFor(t, started, "a call at a free place")
	}
	_, third := send(t, addr, "/") // the kernel's backlog takes it
	select {
	case err := <-third:
		t.Fatalf("a third connection was served while two were busy (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(release) // the two answer and go idle: one makes way
	waitAnswer(t, third, "the third connection once a place was free")
}

func TestIdleConnectionMakesWay(t *testing.T) {
	// The server counts a connection idle once it has written the answer,
	// which the client may read first. The second connection is opened a
	// while after the first was answered, so that the first is idle in the
	// server's eyes before the second is, unless the machine withheld the
	// CPU from the server that long.
	const gap = 20 * time.Millisecond
	addr := serve(t, Limits{MaxConns: 2, IdleTimeout: time.Hour})
	probe := stall.Start()
	var conns []net.Conn
	var idle []*bufio.Reader
	for i := range 2 {
		if i > 0 {
			time.Sleep(gap)
		}
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		br := bufio.NewReader(c)
		get(t, c, br) // answered, and kept open: idle
		conns, idle = append(conns, c), append(idle, br)
	}
	// A third client is served at once: the connection idle longest is
	// closed for it (its client reconnects when it next calls).
	_, third := send(t, addr, "/")
	waitAnswer(t, third, "a new connection at a cap of idle ones")
	// Which one closed is read on both, each bounded: on a starved machine
	// the second can be the one closed.
	closed := make(chan int, len(idle))
	for i, br := range idle {
		conns[i].SetReadDeadline(time.Now().Add(hangTimeout))
		go func() {
			if _, err := br.ReadByte(); err == io.EOF {
				closed <- i
				return
			}
			closed <- -1
		}()
	}
	switch first, stalled := <-closed, probe.Stop(); {
	case first < 0:
		t.Errorf("no idle connection was closed for the new one")
	case first == 1 && stalled < gap:
		t.Errorf("the newer idle connection was closed, not the one idle longest (the process waited only %v for a CPU)", stalled)
	case first == 1:
		t.Logf("the newer idle connection was closed: the process waited %v for a CPU, and the server saw it idle first", stalled)
	}
}

func TestSilentConnectionsMakeWay(t *testing.T) {
	const pool = 3
	addr := serve(t, Limits{MaxConns: 10, MaxNewConns: pool, ReadHeaderTimeout: time.Hour, IdleTimeout: time.Hour})
	var silent []net.Conn
	for range pool {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		silent = append(silent, c)
	}
	// The pool of unanswered connections is full of clients that send
	// nothing: a new client's call closes the oldest of them and is served.
	_, call := send(t, addr, "/")
	waitAnswer(t, call, "a call beside a full pool of silent connections")
	silent[0].SetReadDeadline(time.Now().Add(hangTimeout))
	if _, err := silent[0].Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the oldest silent connection was not closed (read: %v)", err)
	}
}

// fakeConn is a connection from addr for the limiter's own tests; only
// its address and Close are used.
type fakeConn struct {
	net.Conn
	addr   net.Addr
	closed bool
}

func (c *fakeConn) RemoteAddr() net.Addr { return c.addr }
func (c *fakeConn) Close() error         { c.closed = true; return nil }

func TestPeerShare(t *testing.T) {
	l := newConnLimiter(nil, Limits{MaxConns: 10, MaxNewConns: 10, MaxConnsPerPeer: 2}.withDefaults())
	admit := func(ip string) (*conn, bool) {
		nc := &fakeConn{addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 1}}
		c := &conn{Conn: nc, l: l, peer: peerOf(nc), opened: time.Now()}
		ok, err := l.admit(c)
		if err != nil {
			t.Fatal(err)
		}
		return c, ok
	}
	a1, _ := admit("192.0.2.1")
	if _, ok := admit("192.0.2.1"); !ok {
		t.Fatal("a peer's second connection was refused")
	}
	if _, ok := admit("192.0.2.1"); ok {
		t.Error("a third connection of a peer with two busy ones was admitted")
	}
	if _, ok := admit("198.51.100.7"); !ok {
		t.Error("another peer was refused")
	}
	for range 5 { // loopback clients have no share of their own
		if _, ok := admit("127.0.0.1"); !ok {
			t.Fatal("a loopback connection was refused")
		}
	}
	l.connState(a1, http.StateIdle)
	if _, ok := admit("192.0.2.1"); !ok {
		t.Error("a peer at its share was refused though one of its connections was idle")
	}
	if !a1.Conn.(*fakeConn).closed {
		t.Error("the peer's idle connection was not closed to make way")
	}
}

func TestShutdownWhileAtTheCap(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	go func() { done <- Serve(ctx, ln, h, Limits{MaxConns: 1, IdleTimeout: time.Hour}, nil) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	get(t, c, bufio.NewReader(c))
	cancel() // Accept is waiting for a slot: Serve must still return
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hangTimeout):
		t.Fatal("Serve did not return after its context ended")
	}
}

// TestCallBeingAnsweredIsNotClosed: a connection whose request is in and
// is being answered (slowly, as on a starved machine) keeps its place when
// a flood of new connections fills the pool of unanswered ones: the
// newcomers make way for each other, and the call gets its answer.
func TestCallBeingAnsweredIsNotClosed(t *testing.T) {
	for _, tc := range []struct{ name, request string }{
		{"without a body", "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"},
		{"with a body", "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n{\"uci\": 1}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const pool = 2
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			started, release := make(chan struct{}), make(chan struct{})
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/slow" {
					io.Copy(io.Discard, r.Body)
					close(started)
					<-release
				}
				fmt.Fprintln(w, "ok")
			})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				done <- Serve(ctx, ln, h, Limits{MaxConns: 10, MaxNewConns: pool, ReadHeaderTimeout: time.Hour, IdleTimeout: time.Hour}, nil)
			}()
			defer func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Serve: %v", err)
				}
			}()
			addr := ln.Addr().String()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := io.WriteString(c, tc.request); err != nil {
				t.Fatal(err)
			}
			waitFor(t, started, "the slow call's handler")
			for range 3 * pool {
				s, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
			}
			// The last newcomer is admitted only once a place was made:
			// a call on it is answered.
			_, call := send(t, addr, "/")
			waitAnswer(t, call, "a call after the flood")
			close(release)
			c.SetReadDeadline(time.Now().Add(hangTimeout))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("the call being answered lost its connection: %v", err)
			}
			resp.Body.Close()
		})
	}
}
