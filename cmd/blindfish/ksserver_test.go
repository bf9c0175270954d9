package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/stall"
	"github.com/blindfish-rbc/blindfish/internal/testfs"
)

const ksTestKey = "ksserver-test-key"

// ksServer is a running `blindfish ksserver`, its stdout read line by line.
type ksServer struct {
	url   string
	lines chan string
	stop  func() // ends the server and waits for it (once)
}

func startKSServer(t *testing.T, args ...string) *ksServer {
	t.Helper()
	t.Setenv("BF_TEST_KSSERVER_KEY", ksTestKey)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	exited := make(chan int, 1)
	go func() {
		var stderr strings.Builder
		code := run(ctx, append([]string{"ksserver", "--addr", "127.0.0.1:0", "--key-env", "BF_TEST_KSSERVER_KEY"}, args...), pw, &stderr)
		if code != 0 {
			t.Errorf("ksserver: exit %d: %s", code, stderr.String())
		}
		pw.Close()
		exited <- code
	}()
	s := &ksServer{lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			cancel()
			<-exited
		})
	}
	t.Cleanup(s.stop)
	line := s.next(t)
	addr, ok := strings.CutPrefix(line, "serving the kriegspiel.org bot API on ")
	if !ok {
		t.Fatalf("ksserver printed %q first", line)
	}
	s.url = addr
	return s
}

// next is the server's next line of stdout.
func (s *ksServer) next(t *testing.T) string {
	t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			t.Fatal("ksserver ended its output")
		}
		return l
	case <-time.After(30 * time.Second):
		t.Fatal("ksserver printed nothing for 30 s")
	}
	return ""
}

// api makes one call and decodes its JSON answer into out (when not nil).
func (s *ksServer) api(t *testing.T, method, path string, header map[string]string, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, s.url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

func (s *ksServer) register(t *testing.T, name string) (string, int) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"username": name, "display_name": "D", "owner_email": "a@b.c"})
	var reg struct {
		Token string `json:"api_token"`
	}
	code := s.api(t, http.MethodPost, "/auth/bots/register", map[string]string{"X-Bot-Registration-Key": ksTestKey}, string(body), &reg)
	return reg.Token, code
}

// resignedGame has two new bots start a game that one of them (0 White,
// 1 Black) resigns; it returns the line the server printed for it.
func (s *ksServer) resignedGame(t *testing.T, white, black string, resigner int) string {
	t.Helper()
	auth := func(tok string) map[string]string { return map[string]string{"Authorization": "Bearer " + tok} }
	var toks [2]string
	for i, name := range []string{white, black} {
		var code int
		if toks[i], code = s.register(t, name); code != http.StatusCreated {
			t.Fatalf("register %q: %d", name, code)
		}
	}
	var c struct {
		GameID   string `json:"game_id"`
		GameCode string `json:"game_code"`
	}
	if code := s.api(t, http.MethodPost, "/game/create", auth(toks[0]), `{"rule_variant": "wild16", "play_as": "white"}`, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := s.api(t, http.MethodPost, "/game/join/"+c.GameCode, auth(toks[1]), "", nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	if code := s.api(t, http.MethodPost, "/game/"+c.GameID+"/resign", auth(toks[resigner]), "", nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	return s.next(t)
}

// A server restarted on the same --out numbers its games after the
// records already there and never writes over one.
func TestKSServerRestartKeepsRecords(t *testing.T) {
	dir := t.TempDir()
	s := startKSServer(t, "--out", dir)
	line := s.resignedGame(t, "alpha", "beta", 0)
	if !strings.HasPrefix(line, "game g0001: ") {
		t.Fatalf("the first game's line: %q", line)
	}
	if !strings.Contains(line, `"alpha" vs "beta"`) {
		t.Errorf("the names are not quoted: %q", line)
	}
	s.stop()
	first := filepath.Join(dir, "g0001-alpha-beta.json")
	before, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}

	s = startKSServer(t, "--out", dir)
	// The same players, the other result: a record written over would show.
	if line := s.resignedGame(t, "alpha", "beta", 1); !strings.HasPrefix(line, "game g0002: ") {
		t.Errorf("the restarted server's first game: %q", line)
	}
	s.stop()
	if got, want := testfs.Names(t, dir), []string{"g0001-alpha-beta.json", "g0002-alpha-beta.json"}; !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
	after, err := os.ReadFile(first)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Error("the first run's record was written over")
	}
}

// A long username, or one with control characters, is refused with 400
// and leaves no file behind.
func TestKSServerRefusesBadUsernames(t *testing.T) {
	dir := t.TempDir()
	s := startKSServer(t, "--out", dir)
	for _, name := range []string{strings.Repeat("a", 300), "red\x1b[31m", "cr\rlf\n", ""} {
		want := http.StatusBadRequest
		if name == "" {
			want = http.StatusUnprocessableEntity // missing, as the site says
		}
		if _, code := s.register(t, name); code != want {
			t.Errorf("register %q: %d, want %d", name, code, want)
		}
	}
	if names := testfs.Names(t, dir); len(names) != 0 {
		t.Fatalf("files appeared: %q", names)
	}
}

// --idle-timeout closes idle keep-alive connections; bad limits are
// refused.
func TestKSServerIdleTimeout(t *testing.T) {
	for _, args := range [][]string{{"--max-conns", "0"}, {"--idle-timeout", "0s"}} {
		if code, _, _ := runCmd(t, append([]string{"ksserver", "--addr", "127.0.0.1:0"}, args...)...); code != 2 {
			t.Errorf("ksserver %v: exit %d, want 2", args, code)
		}
	}
	s := startKSServer(t, "--idle-timeout", "100ms")
	tok, code := s.register(t, "idler")
	if code != http.StatusCreated {
		t.Fatalf("register: %d", code)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// A call with a token is kept alive (one without is answered 401 and
	// closed).
	io.WriteString(conn, "GET /game/mine/active HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "+tok+"\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("status %d, close %v: want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	conn.SetReadDeadline(time.Now().Add(stall.StartTimeout)) // guards a hang, not slowness
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("the idle connection was not closed (read: %v)", err)
	}
}

// connect --register needs no key where the server registers bots without
// one (ksserver --open-registration, as kriegspiel.org does today), and
// says which variable to set where the server wants one.
func TestKSServerOpenRegistration(t *testing.T) {
	t.Setenv("BF_TEST_NO_KS_KEY", "")
	register := func(url, name string) (int, string, string) {
		return runCmd(t, "connect", "kriegspiel", "--url", url, "--register", "--username", name,
			"--owner-email", "a@example.org", "--key-env", "BF_TEST_NO_KS_KEY")
	}
	open := startKSServer(t, "--open-registration")
	code, out, errs := register(open.url, "nokey")
	if code != 0 || !strings.Contains(out, "registered nokey") {
		t.Fatalf("register without a key on an open server: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs := register(startKSServer(t).url, "nokey"); code == 0 || !strings.Contains(errs, "BF_TEST_NO_KS_KEY") {
		t.Fatalf("register without a key on a keyed server: exit %d, stderr %q", code, errs)
	}
}
