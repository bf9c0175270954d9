package reconchess

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishpath"
	"github.com/blindfish-rbc/blindfish/evaluator/stockfishtest"
	"github.com/blindfish-rbc/blindfish/internal/syncbuf"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient/rbcclienttest"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// harness runs a command in the harness's Python environment: the current
// one, or the one the script named by RC_ENV sets up.
type harness struct {
	python string
	env    string // a script to source first, or ""
}

func findHarness(t *testing.T) harness {
	t.Helper()
	h := harness{python: os.Getenv("RC_PYTHON"), env: os.Getenv("RC_ENV")}
	if h.python == "" {
		h.python = "python3"
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := h.command(ctx, "-c", "import reconchess, chess").CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		t.Skipf("skipping: the reconchess harness is not importable here (%v: %s). "+
			"Install it with `pip install reconchess`, or set RC_ENV to a script that exports PYTHONPATH "+
			"for a source checkout (CI cannot reach PyPI, so this test skips there).", err, lines[len(lines)-1])
	}
	return h
}

// command returns a Python command; callers may append to its Env.
func (h harness) command(ctx context.Context, args ...string) *exec.Cmd {
	var cmd *exec.Cmd
	if h.env == "" {
		cmd = exec.CommandContext(ctx, h.python, args...)
	} else {
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		// The script may name its own interpreter in RC_PYTHON.
		cmd = exec.CommandContext(ctx, "bash", "-c", `. "$RC_ENV" && exec "${RC_PYTHON:-$RC_PYTHON_BIN}" `+strings.Join(quoted, " "))
	}
	// No __pycache__ next to the bridge in the source tree.
	cmd.Env = append(os.Environ(), "RC_PYTHON_BIN="+h.python, "PYTHONDONTWRITEBYTECODE=1")
	return cmd
}

// setUpBridge skips in -short mode or without the harness; otherwise it
// returns the harness, a temporary folder, a blindfish binary built there
// and the bridge's absolute path.
func setUpBridge(t *testing.T) (h harness, dir, bin, bridge string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the reference-harness games in -short mode")
	}
	h = findHarness(t)
	dir = t.TempDir()
	bin = filepath.Join(dir, "blindfish")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/blindfish").CombinedOutput(); err != nil {
		t.Fatalf("building blindfish: %v\n%s", err, out)
	}
	bridge, err := filepath.Abs("blindfish_player.py")
	if err != nil {
		t.Fatal(err)
	}
	return h, dir, bin, bridge
}

// TestBridgeInHarness plays the bridge in the reference harness against its
// bots, with both colours, and checks that the harness reports a winner (no
// error) and that its record re-referees identically under our rules.
func TestBridgeInHarness(t *testing.T) {
	h, _, bin, bridge := setUpBridge(t)
	opponents := []string{"reconchess.bots.random_bot", "reconchess.bots.attacker_bot", "reconchess.bots.trout_bot"}
	for i, opp := range opponents {
		white, black := bridge, opp
		if i%2 == 1 {
			white, black = opp, bridge
		}
		t.Run(filepath.Ext(opp)[1:], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := h.command(ctx, "-m", "reconchess.scripts.rc_bot_match", white, black, "--seconds_per_player", "120")
			cmd.Dir = t.TempDir()
			cmd.Env = append(cmd.Env, "BLINDFISH_ENGINE="+bin, "BLINDFISH_OPTIONS=bot=random,seed=7")
			if strings.HasSuffix(opp, "trout_bot") {
				// The harness's Trout reads its engine from the environment.
				cmd.Env = append(cmd.Env, stockfishpath.Env+"="+stockfishtest.Path(t))
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("rc_bot_match: %v\n%s", err, out.String())
			}
			text := out.String()
			m := regexp.MustCompile(`(?m)^Winner: (white|black|Draw)!$`).FindStringSubmatch(text)
			if m == nil || strings.Contains(text, "Traceback") {
				t.Fatalf("the harness reports an error:\n%s", text)
			}
			files, _ := filepath.Glob(filepath.Join(cmd.Dir, "*.json"))
			if len(files) != 1 {
				t.Fatalf("want one replay file, got %v", files)
			}
			rec, err := record.LoadHistoryFile(files[0])
			if err != nil {
				t.Fatal(err)
			}
			rep, err := rbc.ReplayHistory(context.Background(), rec)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Divergence != nil {
				t.Fatalf("our referee disagrees with the harness's record: %v", rep.Divergence)
			}
			t.Logf("%s vs %s: winner %s (%v), %d turns", rec.WhiteName, rec.BlackName, m[1], rec.Outcome, len(rec.Turns[chess.White]))
		})
	}
}

// TestBridgeWithRCConnect runs the reference server client, rc-connect, with
// the bridge against our loopback tournament server: the bridge works there,
// and the loopback server speaks the API the reference client expects.
func TestBridgeWithRCConnect(t *testing.T) {
	h, dir, bin, bridge := setUpBridge(t)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = 120*time.Second, time.Second
	opts.TurnLimit = 30
	opts.Logger = slog.New(slog.DiscardHandler)
	srv := rbcclienttest.New(rbcclienttest.Config{Users: map[string]string{"bridge": "bridge-pw"}, Game: opts})
	hs := httptest.NewServer(srv)
	defer func() {
		hs.CloseClientConnections()
		hs.Close()
		srv.Close()
	}()
	srv.Invite("bridge", chess.White, "randbot-a", randbot.New(1))
	srv.Invite("bridge", chess.Black, "randbot-b", randbot.New(2))

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := h.command(ctx, "-m", "reconchess.scripts.rc_connect", bridge, "--username", "bridge",
		"--password", "bridge-pw", "--server-url", hs.URL, "--max-concurrent-games", "2")
	cmd.Dir = dir
	cmd.Env = append(cmd.Env, "BLINDFISH_ENGINE="+bin, "BLINDFISH_OPTIONS=bot=random")
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for {
		games := srv.Games()
		finished := 0
		for _, g := range games {
			if g.Finished {
				finished++
			}
		}
		if finished == len(games) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the games did not finish:\n%s", out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM) // rc-connect sets unranked and exits
	cmd.Wait()
	for _, g := range srv.Games() {
		if g.ErrorResigned || !g.Over {
			t.Errorf("game %d: %+v\n%s", g.ID, g, out.String())
		}
		switch g.Outcome.Reason {
		case rbc.KingCapture, rbc.MoveLimit, rbc.TurnLimit:
		default:
			t.Errorf("game %d ended by %v\n%s", g.ID, g.Outcome, out.String())
		}
		t.Logf("game %d, bridge as %v: %v", g.ID, g.Color, g.Outcome)
	}
	if strings.Contains(out.String(), "Traceback") || strings.Contains(out.String(), "Fatal error") {
		t.Errorf("rc-connect reports an error:\n%s", out.String())
	}
}

// syncBuffer collects the output of a process's two streams.
type syncBuffer = syncbuf.Buffer
