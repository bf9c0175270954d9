//go:build unix

package reconchess

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/protocol/rbcp"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// The tests in this file play rbcp_host.py, serving the tiny bots of
// testdata, through the Go client against the Go referee: on the host's own
// stand-in types wherever python3 runs, and on python-chess and the harness
// where they can be imported.

// hostBots copies the test bots into a temporary folder (so that Python's
// byte-code caches never land in the source tree) and returns it.
func hostBots(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"tiny_bot.py", "raising_bot.py"} {
		src, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// hostClient returns a client for the host serving bot (a path or module)
// with the argv prefix that runs Python, and the buffer its stderr goes to.
func hostClient(t *testing.T, python []string, env []string, bot string) (*rbcp.Client, *syncBuffer) {
	t.Helper()
	host, err := filepath.Abs("rbcp_host.py")
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	c, err := rbcp.NewClient(rbcp.ClientConfig{
		Command:      append(append([]string{}, python...), host, bot),
		Env:          append(os.Environ(), env...),
		Announced:    []rbcp.SetOption{{Name: "seed", Value: "3"}},
		Stderr:       stderr,
		StartTimeout: time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, stderr
}

// hostModes returns the ways to run Python the host tests play in: its
// stand-in types always, python-chess and the harness when importable.
func hostModes(t *testing.T) map[string][]string {
	py := needPython(t)
	modes := map[string][]string{"standin": {"env", "RBCP_HOST_STANDIN=1", py}}
	h := harness{python: os.Getenv("RC_PYTHON"), env: os.Getenv("RC_ENV")}
	if h.python == "" {
		h.python = "python3"
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.command(ctx, "-c", "import reconchess, chess").Run(); err == nil {
		if h.env == "" {
			modes["harness"] = []string{h.python}
		} else {
			// bash -c SCRIPT takes the host and the bot as $0 and $1.
			modes["harness"] = []string{"env", "RC_PYTHON_BIN=" + h.python, "bash", "-c",
				`. "$RC_ENV" && exec "${RC_PYTHON:-$RC_PYTHON_BIN}" "$0" "$@"`}
		}
	} else {
		t.Logf("the harness is not importable here: the host plays on its stand-in types only")
	}
	return modes
}

// TestHostPlaysGames plays the tiny bot through the host, as White and as
// Black, against a random bot: the games end by the rules (the bot's checks
// of the types it is handed pass, and its prints, rbcp-like lines among
// them, never reach the protocol), the host names the bot, and the bot's
// prints come out on the host's stderr.
func TestHostPlaysGames(t *testing.T) {
	dir := hostBots(t)
	for mode, python := range hostModes(t) {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			t.Run(mode+"/"+c.String(), func(t *testing.T) {
				host, stderr := hostClient(t, python, []string{"PYTHONDONTWRITEBYTECODE=1"}, filepath.Join(dir, "tiny_bot.py"))
				white, black := rbc.Player(host), rbc.Player(randbot.New(uint64(5+c)))
				if c == chess.Black {
					white, black = black, white
				}
				opts := rbc.DefaultOptions()
				opts.InitialTime, opts.Increment = 60*time.Second, 0
				opts.TurnLimit = 40
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
				defer cancel()
				res, err := rbc.PlayLocalGame(ctx, white, black, opts)
				if err != nil {
					t.Fatal(err)
				}
				o := res.History.Outcome
				switch o.Reason {
				case rbc.KingCapture, rbc.MoveLimit, rbc.TurnLimit:
				default:
					t.Fatalf("the game ended by %v\n%s", o, stderr.String())
				}
				if n := len(res.History.Turns[c]); n < 2 {
					t.Errorf("the tiny bot played %d turns", n)
				}
				if got := host.Name(); got != "TinyBot" {
					t.Errorf("the host calls itself %q, want the bot's class name", got)
				}
				for _, want := range []string{"tiny bot: playing", "tiny bot: game over", "move pass"} {
					if !strings.Contains(stderr.String(), want) {
						t.Errorf("the host's stderr lacks the bot's print %q:\n%s", want, stderr.String())
					}
				}
				t.Logf("tiny bot as %v (%s): %v after %d turns", c, mode, o, len(res.History.Turns[c]))
			})
		}
	}
}

// TestHostBotRaises: a bot whose choose_move raises (a bot file with two
// player classes and get_player, so that rule of the harness's is tested
// too) answers the request with an error, which the referee counts as the
// bot's failure (a resignation that names the exception); the traceback is
// on the host's stderr.
func TestHostBotRaises(t *testing.T) {
	dir := hostBots(t)
	for mode, python := range hostModes(t) {
		t.Run(mode, func(t *testing.T) {
			host, stderr := hostClient(t, python, []string{"PYTHONDONTWRITEBYTECODE=1"}, filepath.Join(dir, "raising_bot.py"))
			opts := rbc.DefaultOptions()
			opts.InitialTime = 60 * time.Second
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, err := rbc.PlayLocalGame(ctx, host, randbot.New(1), opts)
			if err != nil {
				t.Fatal(err)
			}
			o := res.History.Outcome
			if o.Reason != rbc.Resign || o.Winner != chess.Black || !strings.Contains(o.Detail, "KeyError") {
				t.Fatalf("the game ended by %v (%s), want White's resignation by a KeyError", o, o.Detail)
			}
			for _, want := range []string{"Traceback", "raised on purpose", "RaisingBot.choose_move raised"} {
				if !strings.Contains(stderr.String(), want) {
					t.Errorf("the host's stderr lacks %q:\n%s", want, stderr.String())
				}
			}
		})
	}
}

// TestHostRefusesBotThatDoesNotLoad: a bot that cannot be imported fails the
// handshake with the import error, so a command refuses it before a game.
func TestHostRefusesBotThatDoesNotLoad(t *testing.T) {
	py := needPython(t)
	host, stderr := hostClient(t, []string{py}, []string{"PYTHONDONTWRITEBYTECODE=1"}, "no_such_module_xyz.bot")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := host.Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "cannot load bot no_such_module_xyz.bot") ||
		!strings.Contains(err.Error(), "ModuleNotFoundError") {
		t.Fatalf("Start: %v\nstderr:\n%s", err, stderr.String())
	}
}

// TestHostScriptIsTheFile: the script built into the binary is the file
// beside it.
func TestHostScriptIsTheFile(t *testing.T) {
	src, err := os.ReadFile("rbcp_host.py")
	if err != nil {
		t.Fatal(err)
	}
	if HostScript() != string(src) {
		t.Fatal("HostScript differs from rbcp_host.py")
	}
}
