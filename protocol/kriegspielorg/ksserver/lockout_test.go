package ksserver

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/httpserve"
	"github.com/blindfish-rbc/blindfish/internal/stall"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

// serveLimited serves srv as `blindfish ksserver` does (httpserve's
// default limits) on a loopback port and returns its base URL.
func serveLimited(t *testing.T, srv *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- httpserve.Serve(ctx, ln, srv, httpserve.DefaultLimits(), nil) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// hostile keeps n keep-alive connections to addr open until ctx ends, each
// sending one GET /game/mine/active every period (with auth, when not "";
// reconnecting when the server closed it), and returns the answers' status
// codes counted once they are done.
func hostile(ctx context.Context, addr, auth string, n int, period time.Duration) func() map[int]int {
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			var conn net.Conn
			var br *bufio.Reader
			defer func() {
				if conn != nil {
					conn.Close()
				}
			}()
			for ctx.Err() == nil {
				if conn == nil {
					c, err := net.Dial("tcp", addr)
					if err != nil {
						return
					}
					conn, br = c, bufio.NewReader(c)
				}
				req := "GET /game/mine/active HTTP/1.1\r\nHost: x\r\n"
				if auth != "" {
					req += "Authorization: " + auth + "\r\n"
				}
				resp, err := func() (*http.Response, error) {
					if _, err := io.WriteString(conn, req+"\r\n"); err != nil {
						return nil, err
					}
					return http.ReadResponse(br, nil)
				}()
				if err != nil { // closed by the server: a new connection next time
					conn.Close()
					conn = nil
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				codes[resp.StatusCode]++
				mu.Unlock()
				if resp.Close {
					conn.Close()
					conn = nil
				}
				select {
				case <-ctx.Done():
				case <-time.After(period):
				}
			}
		})
	}
	return func() map[int]int {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(codes)
	}
}

// freshCall makes one call on a new connection, as a client that keeps
// none would (the worst case at the cap), and decodes the answer into out.
//
// A call whose connection was closed before its answer (any error but a
// timeout) is tried again, as the site's client does (it reads the
// scoresheet, and asks again when the try did not count), but only when
// this process waited at least starvedDrop for a CPU meanwhile: at the cap
// a flood of newcomers closes the oldest connection whose request has not
// been read yet, and the bot's is read at once unless the machine withholds
// the CPU. Without such a wait a dropped call fails the test, and so does
// the fifth in a row. retried says a call was tried again: the dropped try
// may have counted (a move made), and the caller reads the state before it
// goes on.
func freshCall(t *testing.T, base, method, path, token, body string, out any) (code int, retried bool) {
	t.Helper()
	const starvedDrop, tries = 50 * time.Millisecond, 5
	// The timeout guards against a hang (a bot locked out), not slowness.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: stall.StartTimeout}
	for try := 1; ; try++ {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		probe := stall.Start()
		resp, err := hc.Do(req)
		if err != nil {
			stalled := probe.Stop()
			// A lockout shows as the client's timeout and fails at once. Any
			// other error is the connection closed under the call: EOF or a
			// reset, or, when the server closed it before this starved
			// client had even queued its request, net/http's "server closed
			// idle connection".
			var ne net.Error
			timedOut := errors.As(err, &ne) && ne.Timeout()
			if timedOut || stalled < starvedDrop || try == tries {
				t.Fatalf("%s %s (try %d, the process having waited %v for a CPU): %v", method, path, try, stalled, err)
			}
			t.Logf("%s %s: %v, the process having waited %v for a CPU: again", method, path, err, stalled)
			retried = true
			continue
		}
		defer resp.Body.Close()
		if out != nil {
			if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
				t.Fatalf("%s %s: %d: %v", method, path, resp.StatusCode, err)
			}
		}
		return resp.StatusCode, retried
	}
}

// playUnderAttack plays up to plies moves between alpha and beta through
// fresh connections and returns how long each move call took beyond what
// the machine withheld from this process (stall's allowance), and the
// game's state at the end.
func playUnderAttack(t *testing.T, base, id string, tokens [2]string, plies int) ([]time.Duration, kriegspielorg.State) {
	t.Helper()
	var took []time.Duration
	var st kriegspielorg.State
	for ply := range plies {
		tok := tokens[ply%2]
		st = kriegspielorg.State{}
		if code, _ := freshCall(t, base, http.MethodGet, "/game/"+id+"/state", tok, "", &st); code != http.StatusOK {
			t.Fatalf("state: %d", code)
		}
		if st.State != "active" {
			return took, st
		}
		for _, m := range st.AllowedMoves {
			var mr kriegspielorg.MoveResult
			probe := stall.Start()
			start := time.Now()
			code, retried := freshCall(t, base, http.MethodPost, "/game/"+id+"/move", tok, fmt.Sprintf(`{"uci": %q}`, m), &mr)
			took = append(took, max(time.Since(start)-stall.Allowance(probe.Stop()), 0))
			if code == http.StatusConflict && retried {
				break // the dropped try made the move: not this side's turn now
			}
			if code != http.StatusOK {
				t.Fatalf("move %s: %d", m, code)
			}
			if mr.MoveDone || mr.GameOver {
				break
			}
		}
	}
	freshCall(t, base, http.MethodGet, "/game/"+id+"/state", tokens[0], "", &st)
	return took, st
}

// 64 keep-alive connections that call every second (the server's cap),
// without a token or logged in, keep no bot out: a bot's move on a new
// connection is answered within a second (the median of its calls, beyond
// what a starved machine withheld) and no game is lost on time.
func TestHostileKeepAlivesLockNoBotOut(t *testing.T) {
	for _, tc := range []struct {
		name   string
		logged bool
	}{{"without a token", false}, {"logged in", true}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := New(Config{RegistrationKey: testKey, Clock: time.Minute})
			base := serveLimited(t, srv)
			alpha, beta, mallory := srv.AddBot("alpha"), srv.AddBot("beta"), srv.AddBot("mallory")
			id := startGame(t, base, alpha, beta)
			auth := ""
			if tc.logged {
				auth = "Bearer " + mallory
			}
			ctx, cancel := context.WithCancel(t.Context())
			codes := hostile(ctx, strings.TrimPrefix(base, "http://"), auth, httpserve.DefaultLimits().MaxConns, time.Second)
			time.Sleep(500 * time.Millisecond) // they hold their connections
			took, st := playUnderAttack(t, base, id, [2]string{alpha, beta}, 40)
			cancel()
			seen := codes()
			if len(took) < 20 {
				t.Fatalf("only %d move calls (game %s, %+v)", len(took), st.State, st.Result)
			}
			slices.Sort(took)
			if med := took[len(took)/2]; med >= time.Second {
				t.Errorf("the median move call took %v beyond the machine's stall, want under 1 s (slowest %v)", med, took[len(took)-1])
			}
			if st.Result != nil && st.Result.Reason == "timeout" {
				t.Errorf("a game was lost on time: %+v", st.Result)
			}
			want := http.StatusUnauthorized
			if tc.logged {
				want = http.StatusOK
			}
			if seen[want] == 0 {
				t.Errorf("the hostile connections' answers: %v, want some %d", seen, want)
			}
			t.Logf("%d move calls: median %v, slowest %v; hostile answers %v", len(took), took[len(took)/2], took[len(took)-1], seen)
		})
	}
}
