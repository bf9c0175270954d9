package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg/ksserver"
)

// TestConnectKriegspiel: connect kriegspiel keeps a lobby game open on a
// loopback kriegspiel.org, plays the game another bot joins, saves its
// record (which replay --check re-referees), and a registration prints the
// token. The registration spells it as the subcommand, the game with
// --game=kriegspiel, the alias that older scripts use.
func TestConnectKriegspiel(t *testing.T) {
	srv := ksserver.New(ksserver.Config{RegistrationKey: "reg-key-for-test", TurnLimit: 40})
	hs := httptest.NewServer(srv)
	defer hs.Close()

	t.Setenv("BF_TEST_KS_KEY", "reg-key-for-test")
	code, out, errs := runCmd(t, "connect", "kriegspiel", "--url", hs.URL, "--register", "--username", "bf",
		"--owner-email", "bf@example.org", "--key-env", "BF_TEST_KS_KEY")
	if code != 0 {
		t.Fatalf("register: exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	token := lines[len(lines)-1]
	if len(token) < 16 || strings.Contains(errs, "reg-key-for-test") {
		t.Fatalf("register printed %q (stderr %q)", out, errs)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	oppClient, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: hs.URL, Token: srv.AddBot("opp")})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- kriegspielorg.Listen(ctx, kriegspielorg.ListenConfig{Client: oppClient, Username: "opp",
			Variants: []string{"wild16+chessdraws"}, JoinOpen: true, StopAfter: 1, PollInterval: 10 * time.Millisecond,
			Play:      kriegspielorg.PlayOptions{PollInterval: 5 * time.Millisecond},
			NewPlayer: func(kriegspiel.Ruleset) (kriegspiel.Player, error) { return kriegspiel.NewRandomPlayer(5), nil }})
	}()
	t.Setenv("BF_TEST_KS_TOKEN", token)
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code = run(ctx, []string{"connect", "--game=kriegspiel", "--url", hs.URL, "--username", "bf", "--token-env", "BF_TEST_KS_TOKEN",
		"--bot", "random", "--rules", "wild16+chessdraws", "--create", "--games", "1", "--poll", "10ms", "--out", dir}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if err := <-done; err != nil {
		t.Fatalf("the opponent: %v", err)
	}
	if !strings.Contains(stdout.String(), "1 games: ") || strings.Contains(stderr.String(), token) {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("%d records saved, want 1\n%s", len(files), stdout.String())
	}
	if code, out, errs := runCmd(t, "replay", "--check", files[0]); code != 0 {
		t.Fatalf("replay --check: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestConnectKriegspielSpellings: the subcommand and --game kriegspiel
// (before or after other flags) reach the Kriegspiel client, whose usage
// names the subcommand; --game rbc and no --game stay with the RBC client.
func TestConnectKriegspielSpellings(t *testing.T) {
	for _, args := range [][]string{
		{"connect", "kriegspiel", "--username", "bf", "--token-env", "BF_TEST_NO_SUCH_TOKEN"},
		{"connect", "--game", "kriegspiel", "--username", "bf", "--token-env", "BF_TEST_NO_SUCH_TOKEN"},
		{"connect", "--username", "bf", "--game=kriegspiel", "--token-env", "BF_TEST_NO_SUCH_TOKEN"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "BF_TEST_NO_SUCH_TOKEN") {
			t.Errorf("%q: exit %d, %q; want the Kriegspiel client's missing token", args, code, errs)
		}
	}
	if code, _, errs := runCmd(t, "connect", "kriegspiel", "--help"); code != 0 || !strings.Contains(errs, "blindfish connect kriegspiel --username") {
		t.Errorf("connect kriegspiel --help: exit %d, %q", code, errs)
	}
	for _, args := range [][]string{{"connect", "--username", "bf", "--password-env", "BF_TEST_NO_SUCH_PW"},
		{"connect", "--game", "rbc", "--username", "bf", "--password-env", "BF_TEST_NO_SUCH_PW"}} {
		if code, _, errs := runCmd(t, args...); code != 2 || !strings.Contains(errs, "BF_TEST_NO_SUCH_PW") {
			t.Errorf("%q: exit %d, %q; want the RBC client's missing password", args, code, errs)
		}
	}
}

// TestKSServer: ksserver serves the bot API on a port of its own, prints
// the key it made, and stops on its context.
func TestKSServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	t.Setenv("BF_TEST_NO_KEY", "")
	go func() {
		done <- run(ctx, []string{"ksserver", "--addr", "127.0.0.1:0", "--key-env", "BF_TEST_NO_KEY"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var key, url string
	for url == "" && sc.Scan() {
		line := sc.Text()
		if k, ok := strings.CutPrefix(line, "registration key: "); ok {
			key = k
		}
		if i := strings.Index(line, "http://"); i >= 0 {
			url = line[i:]
		}
	}
	go io.Copy(io.Discard, pr)
	if key == "" || url == "" {
		t.Fatalf("no key or address printed (key %q, url %q)", key, url)
	}
	reg, err := kriegspielorg.Register(ctx, kriegspielorg.Config{URL: url}, key,
		kriegspielorg.BotProfile{Username: "x", DisplayName: "Xxx", OwnerEmail: "x@example.org"})
	if err != nil {
		t.Fatalf("register: %v", err)
	}
	c, err := kriegspielorg.NewClient(kriegspielorg.Config{URL: url, Token: reg.APIToken})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create(ctx, kriegspielorg.CreateRequest{RuleVariant: "wild16"}); err != nil {
		t.Fatalf("create: %v", err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d", code)
	}
}
