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
	// long before our generous limit.
	waitClosed(t, conn, br, 10*time.Second)
}

func TestSlowHeadersAreCutOff(t *testing.T) {
	addr := serve(t, Limits{ReadHeaderTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n") // never ends its headers
	waitClosed(t, conn, bufio.NewReader(conn), 10*time.Second)
}

func TestConnectionsAreCapped(t *testing.T) {
	addr := serve(t, Limits{MaxConns: 2})
	var held []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		get(t, c, bufio.NewReader(c)) // accepted and served: it holds a slot
		held = append(held, c)
	}
	third, err := net.Dial("tcp", addr) // the kernel's backlog takes it
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	answered := make(chan error, 1)
	go func() {
		br := bufio.NewReader(third)
		if _, err := io.WriteString(third, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			answered <- err
			return
		}
		resp, err := http.ReadResponse(br, nil)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	select {
	case err := <-answered:
		t.Fatalf("a third connection was served while two were open (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	held[0].Close() // frees a slot
	select {
	case err := <-answered:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the third connection was not served once a slot was free")
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
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
}
