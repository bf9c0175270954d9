package rbcclienttest

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func newTestServer(t *testing.T) (*Server, *httptest.Server) {
	t.Helper()
	srv := New(Config{Users: map[string]string{"alice": "pw-a", "bob": "pw-b"}})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return srv, ts
}

func basic(user, pass string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
}

func get(base, path, auth string) (int, error) {
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		return 0, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// A user who sends a body slowly holds up only itself: other users' calls
// and refused ones are answered while that body is still being sent.
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	srv, ts := newTestServer(t)
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The JSON value is whole only at the last byte, which is held back
	// until the other calls are answered (or 10 s have passed).
	body := `{"ranked"` + strings.Repeat(" ", 20) + `: true}`
	fmt.Fprintf(conn, "POST /api/users/me/ranked HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n", basic("alice", "pw-a"), len(body))
	started, othersDone, lastSent := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		for i := range len(body) - 1 {
			if _, err := conn.Write([]byte{body[i]}); err != nil {
				return
			}
			if i == 1 {
				close(started)
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
	for _, c := range []struct {
		path, auth string
		want       int
	}{
		{"/api/invitations", basic("bob", "pw-b"), http.StatusOK},
		{"/api/users/bob/version", basic("bob", "pw-b"), http.StatusOK},
		{"/api/invitations", basic("bob", "wrong"), http.StatusUnauthorized},
	} {
		if code, err := get(ts.URL, c.path, c.auth); err != nil || code != c.want {
			t.Errorf("GET %s: %d %v, want %d", c.path, code, err, c.want)
		}
	}
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
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !srv.User("alice").Ranked {
		t.Fatalf("the slow call: %d, ranked %v", resp.StatusCode, srv.User("alice").Ranked)
	}
}

type countingWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// A 50 MB body gets 413 before it is read whole.
func TestHugeBodyGets413(t *testing.T) {
	const size = 50 << 20
	_, ts := newTestServer(t)
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			length := fmt.Sprintf("Content-Length: %d", size)
			if chunked {
				length = "Transfer-Encoding: chunked"
			}
			fmt.Fprintf(conn, "POST /api/users/me/max_games HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\n%s\r\n\r\n",
				basic("alice", "pw-a"), length)
			cw := &countingWriter{w: conn}
			var w io.Writer = cw
			if chunked {
				w = httputil.NewChunkedWriter(cw)
			}
			sent := make(chan struct{})
			go func() {
				defer close(sent)
				chunk := bytes.Repeat([]byte(" "), 64<<10) // JSON's whitespace, without end
				for n := 0; n < size; n += len(chunk) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
				if c, ok := w.(io.Closer); ok {
					c.Close()
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
			if written >= size {
				t.Fatalf("the answer came after the whole body (%d bytes) was sent", written)
			}
		})
	}
}
