// Package gameservertest is the test rig of the game servers: the checks
// of docs/security.md's limits that both servers must pass the same way,
// each server's tests giving only its own request.
package gameservertest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// SlowBody sends to addr the request whose start is head (its request
// line and headers, each ending "\r\n", without Content-Length) with body
// sent one byte per 100 ms. The body's last byte is held back until others
// has made the other calls (or 10 s have passed): t fails if they were
// answered only once the body was whole, since a slow client must delay
// only itself. It returns the slow call's answer, for the caller to check
// (and close).
func SlowBody(t *testing.T, addr, head, body string, others func()) *http.Response {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "%sContent-Length: %d\r\n\r\n", head, len(body))
	started, othersDone, lastSent := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		for i := range len(body) - 1 {
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
			if i == 1 {
				close(started) // the server is inside the call by now
			}
			time.Sleep(100 * time.Millisecond)
		}
		select {
		case <-othersDone:
		case <-time.After(10 * time.Second):
		}
		close(lastSent)
		conn.Write([]byte{body[len(body)-1]})
	}()
	<-started
	others()
	select {
	case <-lastSent:
		t.Fatal("the other calls were answered only once the slow body was whole")
	default:
	}
	close(othersDone)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// countingWriter counts the bytes it passes on.
type countingWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// HugeBody sends to addr the request whose start is head (request line
// and headers, each ending "\r\n") with a body of size bytes, announced by
// its Content-Length or sent in chunks: prefix, then filler without end
// (so that a server decoding JSON as it reads never finds the value's
// end). t fails unless the answer is 413 and comes before the whole body
// was sent.
func HugeBody(t *testing.T, addr, head string, size int, chunked bool, prefix string, filler byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	length := fmt.Sprintf("Content-Length: %d", size)
	if chunked {
		length = "Transfer-Encoding: chunked"
	}
	fmt.Fprintf(conn, "%s%s\r\n\r\n", head, length)
	cw := &countingWriter{w: conn}
	var w io.Writer = cw
	if chunked {
		w = httputil.NewChunkedWriter(cw)
	}
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		if _, err := io.WriteString(w, prefix); err != nil {
			return
		}
		chunk := bytes.Repeat([]byte{filler}, 64<<10)
		for n := len(prefix); n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the server hung up: expected
			}
		}
		if c, ok := w.(io.Closer); ok {
			c.Close() // the last chunk
		}
	}()
	conn.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	written := cw.n.Load()
	conn.Close()
	<-sent
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", resp.StatusCode)
	}
	if written >= int64(size) {
		t.Fatalf("the answer came after the whole body (%d bytes) was sent", written)
	}
}

// Do makes one call to the server at base, with the headers of header that
// are not empty, and returns the answer's status and body.
func Do(base, method, path string, header map[string]string, body string) (int, []byte, error) {
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	for k, v := range header {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}
