package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// binDir holds the blindfish binary the protocol tests run as a subprocess.
var binDir string

func TestMain(m *testing.M) {
	// The commands run in this process, many at once: none may set Go's
	// memory limit for it (botspec.LimitMemory leaves a GOMEMLIMIT the user set
	// alone; TestLimitMemory clears it for itself).
	os.Setenv("GOMEMLIMIT", "off")
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

var buildOnce = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "blindfish-bin")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "blindfish")
	// Built without -race even under it: an instrumented binary starts slowly
	// on a loaded machine, and it is the shipped binary that is under test.
	// go test puts its own toolchain first on PATH.
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building blindfish: %v\n%s", err, out)
	}
	return bin, nil
})

// blindfishBinary returns the path of a freshly built blindfish binary.
func blindfishBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildOnce()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func quickGame(initial time.Duration) rbc.Options {
	o := rbc.DefaultOptions()
	o.InitialTime, o.Increment = initial, 0
	o.GameEndTimeout = 5 * time.Second
	o.Logger = slog.New(slog.DiscardHandler)
	return o
}

func normalEnd(o rbc.Outcome) bool {
	switch o.Reason {
	case rbc.KingCapture, rbc.MoveLimit, rbc.TurnLimit:
		return true
	}
	return false
}

// TestEngineConformanceGames drives `blindfish engine` through whole games
// under the referee, as White and as Black, through the protocol client.
func TestEngineConformanceGames(t *testing.T) {
	bin := blindfishBinary(t)
	spec := "cmd:" + bin + " engine --bot random"
	for g, engineColor := range []chess.Color{chess.White, chess.Black} {
		ext, err := botspec.NewResolver(os.Stderr, "").NewPlayer(spec, int64(g+1))
		if err != nil {
			t.Fatal(err)
		}
		local, err := engine.NewPlayer("random", int64(g+10))
		if err != nil {
			t.Fatal(err)
		}
		white, black := ext, local
		if engineColor == chess.Black {
			white, black = local, ext
		}
		res, err := rbc.PlayLocalGame(context.Background(), white, black, quickGame(60*time.Second))
		ext.(io.Closer).Close()
		if err != nil {
			t.Fatal(err)
		}
		h := res.History
		if !normalEnd(h.Outcome) {
			t.Fatalf("engine as %v: %v", engineColor, h.Outcome)
		}
		if len(h.Turns[engineColor]) == 0 {
			t.Fatalf("engine as %v played no turn", engineColor)
		}
	}
}

// TestEngineBlindfishThroughProtocol plays a few turns of the real player
// through the engine command, checking that its info lines arrive.
func TestEngineBlindfishThroughProtocol(t *testing.T) {
	if testing.Short() {
		t.Skip("the full player is slow under -short -race runs")
	}
	bin := blindfishBinary(t)
	var mu sync.Mutex
	var infos []string
	c, err := rbcp.NewClient(rbcp.ClientConfig{
		Command: []string{bin, "engine", "--bot", "blindfish:eval=embedded,engines=1,samples=20,voisamples=20", "--seed", "4"},
		OnInfo: func(s string) {
			mu.Lock()
			infos = append(infos, s)
			mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opp, _ := engine.NewPlayer("random", 3)
	o := quickGame(60 * time.Second)
	o.TurnLimit = 4
	res, err := rbc.PlayLocalGame(context.Background(), c, opp, o)
	if err != nil {
		t.Fatal(err)
	}
	if !normalEnd(res.History.Outcome) {
		t.Fatalf("outcome %v", res.History.Outcome)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slicesContain(infos, "game start") || !slicesContain(infos, "moved") {
		t.Errorf("info lines lack the player's logs: %q", infos)
	}
}

func slicesContain(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// TestEngineCommandSession speaks to the binary by hand: handshake, option
// checks, malformed lines answered with errors, a game start, quit.
func TestEngineCommandSession(t *testing.T) {
	bin := blindfishBinary(t)
	cmd := exec.Command(bin, "engine", "--bot", "random")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(outPipe)
	send := func(l string) string {
		t.Helper()
		if _, err := io.WriteString(in, l+"\n"); err != nil {
			t.Fatal(err)
		}
		for {
			r, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("after %q: %v", l, err)
			}
			r = strings.TrimSpace(r)
			if strings.HasPrefix(r, "id ") || strings.HasPrefix(r, "option ") || strings.HasPrefix(r, "info") {
				continue
			}
			return r
		}
	}
	steps := []struct{ send, want string }{
		{"rbcp 1", "rbcpok 1"},
		{"setoption name bot value nosuchbot", "error option bot: engine: unknown bot"},
		{"setoption name depth value 6", "error option depth"}, // random takes no settings
		{"setoption name bot value attacker", "ok"},
		{"setoption name seed value 12", "ok"},
		{"isready", "readyok"},
		{"newgame color black fen " + chess.StartFEN + " opponent Human", "ok"},
		{"choosesense time 10 moves e7e5", "error unexpected \"choosesense\""},
		{"opponentmove capture -", "ok"},
		{"choosesense time not-a-number", "error rbcp: malformed line"},
		{"choosesense time 10 moves e7e5 d7d5", "sense "},
		{"senseresult", "ok"},
		{"choosemove time 10 moves e7e5", "move "},
		{"moveresult requested e7e5 taken e7e5 capture -", "ok"},
		{"gameend winner none reason MOVE_LIMIT", "ok"},
	}
	for _, s := range steps {
		if got := send(s.send); !strings.HasPrefix(got, s.want) {
			t.Fatalf("%q: got %q, want %q…", s.send, got, s.want)
		}
	}
	io.WriteString(in, "quit\n")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("engine exit: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("engine did not exit after quit")
	}
}

// TestMatchWithExternalEngine plays `blindfish match` with a cmd: bot.
func TestMatchWithExternalEngine(t *testing.T) {
	bin := blindfishBinary(t)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"match", "--white", "cmd:" + bin + " engine --bot random",
		"--black", "random", "--games", "2", "--clock", "30+0", "--out", ""}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "2 games") {
		t.Fatalf("stdout:\n%s", stdout.String())
	}
}
