package rbcclienttest

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blindfish-rbc/blindfish/protocol/internal/gameserver/gameservertest"
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

// A user who sends a body slowly holds up only itself: other users' calls
// and refused ones are answered while that body is still being sent.
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	srv, ts := newTestServer(t)
	// The JSON value is whole only at the last byte.
	body := `{"ranked"` + strings.Repeat(" ", 20) + `: true}`
	head := fmt.Sprintf("POST /api/users/me/ranked HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\n"+
		"Content-Type: application/json\r\n", basic("alice", "pw-a"))
	resp := gameservertest.SlowBody(t, ts.Listener.Addr().String(), head, body, func() {
		for _, c := range []struct {
			path, auth string
			want       int
		}{
			{"/api/invitations", basic("bob", "pw-b"), http.StatusOK},
			{"/api/users/bob/version", basic("bob", "pw-b"), http.StatusOK},
			{"/api/invitations", basic("bob", "wrong"), http.StatusUnauthorized},
		} {
			if code, _, err := gameservertest.Do(ts.URL, http.MethodGet, c.path, map[string]string{"Authorization": c.auth}, ""); err != nil || code != c.want {
				t.Errorf("GET %s: %d %v, want %d", c.path, code, err, c.want)
			}
		}
	})
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !srv.User("alice").Ranked {
		t.Fatalf("the slow call: %d, ranked %v", resp.StatusCode, srv.User("alice").Ranked)
	}
}

// A 50 MB body gets 413 before it is read whole.
func TestHugeBodyGets413(t *testing.T) {
	_, ts := newTestServer(t)
	for _, chunked := range []bool{false, true} {
		t.Run(fmt.Sprintf("chunked=%v", chunked), func(t *testing.T) {
			head := fmt.Sprintf("POST /api/users/me/max_games HTTP/1.1\r\nHost: x\r\nAuthorization: %s\r\n", basic("alice", "pw-a"))
			// JSON's whitespace, without end.
			gameservertest.HugeBody(t, ts.Listener.Addr().String(), head, 50<<20, chunked, "", ' ')
		})
	}
}
