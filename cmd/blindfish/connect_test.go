package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient/rbcclienttest"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

const (
	connectUser     = "bf-test"
	connectPassword = "pa55-w0rd-never-shown"
	connectPassEnv  = "BLINDFISH_TEST_RBC_PASSWORD"
)

// loopbackServer starts a loopback tournament server with the given faults
// and the user invited to n games against random bots, colours alternating.
func loopbackServer(t *testing.T, f rbcclienttest.Faults, n, turnLimit int) (*rbcclienttest.Server, string) {
	t.Helper()
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = 60*time.Second, time.Second
	opts.TurnLimit = turnLimit
	opts.Logger = slog.New(slog.DiscardHandler)
	srv := rbcclienttest.New(rbcclienttest.Config{Users: map[string]string{connectUser: connectPassword}, Game: opts, Faults: f})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
	})
	for i := range n {
		color := chess.White
		if i%2 == 1 {
			color = chess.Black
		}
		bot, err := engine.NewPlayer("random", int64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		srv.Invite(connectUser, color, fmt.Sprintf("random%d", i), bot)
	}
	return srv, hs.URL
}

func checkServerGames(t *testing.T, srv *rbcclienttest.Server, n int) {
	t.Helper()
	games := srv.Games()
	if len(games) != n {
		t.Fatalf("%d games, want %d", len(games), n)
	}
	for _, g := range games {
		if !g.Over || !g.Finished || g.ErrorResigned {
			t.Errorf("game %d: over %v, finished %v, error-resigned %v (%v)", g.ID, g.Over, g.Finished, g.ErrorResigned, g.Outcome)
		}
		switch g.Outcome.Reason {
		case rbc.KingCapture, rbc.MoveLimit, rbc.TurnLimit:
		default:
			t.Errorf("game %d ended by %v", g.ID, g.Outcome)
		}
	}
}

func noCredentials(t *testing.T, texts ...string) {
	t.Helper()
	token := base64.StdEncoding.EncodeToString([]byte(connectUser + ":" + connectPassword))
	for _, s := range texts {
		if strings.Contains(s, connectPassword) || strings.Contains(s, token) {
			t.Fatalf("the credentials appear in the output:\n%s", s)
		}
	}
}

func TestConnectPlaysAndSavesUnderFaults(t *testing.T) {
	// A light dose of every fault (protocol/rbcclient's tests take them one by
	// one and heavier): the command retries at the reference's 0.5 s.
	faults := rbcclienttest.Faults{Seed: 3, Burst5xx: 0.004, Slow: 0.004, SlowDelay: 30 * time.Millisecond,
		Drop: 0.004, DropAfter: 0.004, Malformed: 0.004}
	srv, url := loopbackServer(t, faults, 3, 40)
	t.Setenv(connectPassEnv, connectPassword)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	code := run(ctx, []string{"connect", "--server", url, "--username", connectUser, "--password-env", connectPassEnv,
		"--bot", "random", "--games", "3", "--max-games", "3", "--poll", "20ms", "--out", dir, "-v"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	checkServerGames(t, srv, 3)
	noCredentials(t, stdout.String(), stderr.String())
	if !strings.Contains(stdout.String(), "3 games: ") {
		t.Errorf("no summary:\n%s", stdout.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 3 {
		t.Fatalf("%d records saved, want 3: %v\n%s", len(files), files, stdout.String())
	}
	for _, f := range files {
		h, err := record.LoadHistoryFile(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if h.WhiteName != connectUser && h.BlackName != connectUser {
			t.Errorf("%s: players %s and %s", f, h.WhiteName, h.BlackName)
		}
	}
	if n := srv.FaultCounts(); len(n) == 0 {
		t.Error("no fault was injected")
	}
}

func TestConnectUsageAndAuthErrors(t *testing.T) {
	_, url := loopbackServer(t, rbcclienttest.Faults{EchoAuthOn401: true}, 0, 0)
	t.Setenv(connectPassEnv, "wrong-"+connectPassword)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"connect", "--server", url, "--username", connectUser,
		"--password-env", connectPassEnv, "--bot", "random", "--poll", "20ms"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "401") {
		t.Fatalf("wrong password: exit %d\n%s", code, stderr.String())
	}
	noCredentials(t, stdout.String(), stderr.String())
	if strings.Contains(stderr.String(), "wrong-"+connectPassword) {
		t.Fatalf("the wrong password appears in the output:\n%s", stderr.String())
	}
	for _, args := range [][]string{
		{"connect"},
		{"connect", "--username", "x", "--password-env", "BLINDFISH_TEST_UNSET_VAR"},
		{"connect", "--username", "x", "--password-env", connectPassEnv, "--bot", "nosuchbot"},
		{"connect", "--username", "x", "--password-env", connectPassEnv, "--bot", "cmd:/nonexistent/engine"},
		{"connect", "--username", "x", "--password-env", connectPassEnv, "--server", "https://x:" + connectPassword + "@h/"},
	} {
		stderr.Reset()
		if code := run(context.Background(), args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, stderr.String())
		}
		noCredentials(t, stderr.String())
	}
}

// TestConnectInterruptFinishesGames runs the binary, interrupts it while it
// plays, and checks that it finished the game, went unranked and exited 0.
func TestConnectInterruptFinishesGames(t *testing.T) {
	bin := blindfishBinary(t)
	srv, url := loopbackServer(t, rbcclienttest.Faults{}, 2, 25)
	dir := t.TempDir()
	cmd := exec.Command(bin, "connect", "--server", url, "--username", connectUser, "--password-env", connectPassEnv,
		"--ranked", "--bot", "cmd:"+bin+" engine --bot random", "--poll", "20ms", "--max-games", "1", "--out", dir)
	cmd.Env = append(os.Environ(), connectPassEnv+"="+connectPassword)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		games := srv.Games()
		if len(games) > 0 && games[0].Started && srv.User(connectUser).Ranked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no game started\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s\n%s", err, stdout.String(), stderr.String())
		}
	case <-time.After(90 * time.Second):
		t.Fatalf("connect did not exit after SIGINT\n%s", stderr.String())
	}
	if srv.User(connectUser).Ranked {
		t.Error("still ranked after SIGINT")
	}
	games := srv.Games()
	first := games[0]
	if !first.Over || !first.Finished || first.ErrorResigned {
		t.Errorf("the running game was not played out: %+v", first)
	}
	if second := games[1]; second.Started {
		t.Errorf("a game was started after SIGINT: %+v", second)
	}
	if !strings.Contains(stdout.String(), "1 games: ") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	noCredentials(t, stdout.String(), stderr.String())
}

// Both clients, pointed with -v at a server that answers every call with
// a same-origin redirect to itself whose target quotes the caller's own
// secret (shared/attacks/fake_echo.py), stop with one error after at most
// 10 requests and print the secret nowhere.
func TestConnectEchoedSecrets(t *testing.T) {
	const secret = "Echo-s3cret-9931"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"reconchess", []string{"connect", "--username", connectUser, "--password-env", "BF_TEST_ECHO_SECRET", "--bot", "random"}},
		{"kriegspiel.org", []string{"connect", "kriegspiel", "--username", "bf", "--token-env", "BF_TEST_ECHO_SECRET", "--bot", "random"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("BF_TEST_ECHO_SECRET", secret)
			var hits atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := hits.Add(1)
				sec := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				if b, ok := strings.CutPrefix(sec, "Basic "); ok {
					raw, _ := base64.StdEncoding.DecodeString(b)
					_, sec, _ = strings.Cut(string(raw), ":")
				}
				w.Header().Set("Location", fmt.Sprintf("/loop%d?s=%s", n, sec))
				w.WriteHeader(http.StatusTemporaryRedirect)
			}))
			defer srv.Close()
			urlFlag := "--server"
			if tc.name == "kriegspiel.org" {
				urlFlag = "--url"
			}
			args := append(tc.args, urlFlag, srv.URL, "--out", t.TempDir(), "-v")
			code, out, errs := runCmd(t, args...)
			if code == 0 {
				t.Fatalf("exit 0 against a redirect loop\n%s%s", out, errs)
			}
			if n := hits.Load(); n > 10 {
				t.Errorf("%d requests, want at most 10 (no retry)", n)
			}
			if strings.Contains(out+errs, secret) {
				t.Errorf("the output quotes the secret:\n%s%s", out, errs)
			}
			if !strings.Contains(errs, "redirect loop") {
				t.Errorf("stderr does not name the redirect loop:\n%s", errs)
			}
			t.Logf("%d requests; stderr:\n%s", hits.Load(), errs)
		})
	}
}
