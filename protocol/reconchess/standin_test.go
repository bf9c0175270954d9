//go:build unix

package reconchess

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// The tests in this file run the bridge wherever python3 runs, without the
// reference harness: testdata/standin holds small stand-ins for the two
// modules the bridge imports (reconchess and chess), and testdata/
// drive_bridge.py calls the bridge's callbacks as the harness would, on
// requests from the Go test. The rules are the Go referee's: a proxy player
// forwards each of its callbacks to the bridge.

// needPython returns python3, skipping the test where there is none, except
// under CI=true, where its absence is a failure.
func needPython(t *testing.T) string {
	t.Helper()
	py, err := findPython()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("python3 not found, and CI=true requires it: %v", err)
		}
		t.Skipf("python3 not found (%v); the bridge's stand-in tests need it", err)
	}
	return py
}

// findPython finds python3 once, and the interpreter behind it: a launcher
// such as a pyenv shim can take a second to start, which the engines the
// bridge starts must not pay.
var findPython = sync.OnceValues(func() (string, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output()
	if real := strings.TrimSpace(string(out)); err == nil && filepath.IsAbs(real) {
		return real, nil
	}
	return py, nil
})

// driver is drive_bridge.py running the bridge.
type driver struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      io.WriteCloser
	replies chan driverReply
	stderr  syncBuffer
	broken  error
}

// driverReply is the driver's answer to one callback.
type driverReply struct {
	Result  *string `json:"result"`
	Error   string  `json:"error"`
	Message string  `json:"message"`
	Seconds float64 `json:"seconds"`
}

// startDriver starts the driver on the bridge with the stand-in modules and
// env added to the environment (BLINDFISH_ENGINE and the like).
func startDriver(t *testing.T, env ...string) *driver {
	t.Helper()
	py := needPython(t)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	d := &driver{t: t, replies: make(chan driverReply)}
	d.cmd = exec.Command(py, abs("testdata/drive_bridge.py"), abs("blindfish_player.py"))
	d.cmd.Dir = t.TempDir()
	d.cmd.Env = append(os.Environ(), "PYTHONPATH="+abs("testdata/standin"), "PYTHONDONTWRITEBYTECODE=1")
	d.cmd.Env = append(d.cmd.Env, env...)
	d.cmd.Stderr = &d.stderr
	var err error
	if d.in, err = d.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := d.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(d.replies)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var r driverReply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				r = driverReply{Error: "bad driver output", Message: sc.Text()}
			}
			d.replies <- r
		}
	}()
	t.Cleanup(d.close)
	return d
}

// close ends the driver (the bridge kills any engine still running as the
// interpreter exits).
func (d *driver) close() {
	d.in.Close()
	done := make(chan struct{})
	go func() {
		for range d.replies {
		}
		d.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		d.cmd.Process.Kill()
		<-done
		d.t.Errorf("the driver did not exit at the end of its input\n%s", d.stderr.String())
	}
}

// call sends one callback and waits for its answer, at most until ctx ends
// (the driver is unusable afterwards).
func (d *driver) call(ctx context.Context, req map[string]any) (driverReply, error) {
	if d.broken != nil {
		return driverReply{}, d.broken
	}
	line, err := json.Marshal(req)
	if err != nil {
		return driverReply{}, err
	}
	if _, err := d.in.Write(append(line, '\n')); err != nil {
		d.broken = fmt.Errorf("writing to the driver: %w\n%s", err, d.stderr.String())
		return driverReply{}, d.broken
	}
	select {
	case r, ok := <-d.replies:
		if !ok {
			d.broken = fmt.Errorf("the driver exited\n%s", d.stderr.String())
			return driverReply{}, d.broken
		}
		return r, nil
	case <-ctx.Done():
		d.broken = fmt.Errorf("no answer to %s: %w", req["call"], ctx.Err())
		return driverReply{}, d.broken
	}
}

// bridgePlayer is an rbc.Player played by the bridge through the driver.
type bridgePlayer struct {
	d *driver
}

// do runs a callback and turns an exception raised by the bridge into an
// error (the referee resigns the player, as the harness would stop the game).
func (p bridgePlayer) do(ctx context.Context, req map[string]any) (*string, error) {
	r, err := p.d.call(ctx, req)
	if err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, fmt.Errorf("%s raised %s: %s", req["call"], r.Error, r.Message)
	}
	return r.Result, nil
}

func squareOrNil(captured bool, sq chess.Square) any {
	if !captured || !sq.Valid() {
		return nil
	}
	return sq.String()
}

func moveOrNil(m chess.Move) any {
	if m.IsNull() {
		return nil
	}
	return m.String()
}

func names[T fmt.Stringer](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.String()
	}
	return out
}

func (p bridgePlayer) HandleGameStart(ctx context.Context, c chess.Color, b chess.Board, opponent string) error {
	_, err := p.do(ctx, map[string]any{"call": "handle_game_start", "color": c.String(), "fen": b.FEN(), "opponent": opponent})
	return err
}

func (p bridgePlayer) HandleOpponentMoveResult(ctx context.Context, captured bool, sq chess.Square) error {
	_, err := p.do(ctx, map[string]any{"call": "handle_opponent_move_result", "captured": captured, "square": squareOrNil(captured, sq)})
	return err
}

func (p bridgePlayer) ChooseSense(ctx context.Context, senses []chess.Square, moves []chess.Move, left time.Duration) (chess.Square, error) {
	r, err := p.do(ctx, map[string]any{"call": "choose_sense", "senses": names(senses), "moves": names(moves), "seconds": left.Seconds()})
	if err != nil || r == nil {
		return chess.NoSquare, err
	}
	return chess.ParseSquare(*r)
}

func (p bridgePlayer) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	pairs := make([][2]any, len(result))
	for i, sp := range result {
		pairs[i][0] = sp.Square.String()
		if sp.Piece != chess.NoPiece {
			pairs[i][1] = sp.Piece.String()
		}
	}
	_, err := p.do(ctx, map[string]any{"call": "handle_sense_result", "result": pairs})
	return err
}

func (p bridgePlayer) ChooseMove(ctx context.Context, moves []chess.Move, left time.Duration) (chess.Move, error) {
	r, err := p.do(ctx, map[string]any{"call": "choose_move", "moves": names(moves), "seconds": left.Seconds()})
	if err != nil || r == nil {
		return chess.Move{}, err
	}
	return chess.ParseMove(*r)
}

func (p bridgePlayer) HandleMoveResult(ctx context.Context, requested, taken chess.Move, captured bool, sq chess.Square) error {
	_, err := p.do(ctx, map[string]any{"call": "handle_move_result", "requested": moveOrNil(requested),
		"taken": moveOrNil(taken), "captured": captured, "square": squareOrNil(captured, sq)})
	return err
}

func (p bridgePlayer) HandleGameEnd(ctx context.Context, o rbc.Outcome, _ *rbc.History) error {
	var winner, reason any
	if o.HasWinner {
		winner = o.Winner.String()
	}
	if o.Reason != rbc.NoReason {
		reason = o.Reason.String()
	}
	_, err := p.do(ctx, map[string]any{"call": "handle_game_end", "winner": winner, "reason": reason})
	return err
}

// buildBlindfish builds cmd/blindfish into a temporary folder.
func buildBlindfish(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "blindfish")
	if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/blindfish").CombinedOutput(); err != nil {
		t.Fatalf("building blindfish: %v\n%s", err, out)
	}
	return bin
}

// TestBridgeStandInGames plays the bridge, on a real `blindfish engine --bot
// random`, through whole games against a random bot, as White and as Black:
// the games must end by the rules (no error, no illegal action, no time
// loss) and the bridge must say nothing on its error stream.
func TestBridgeStandInGames(t *testing.T) {
	needPython(t)
	bin := buildBlindfish(t)
	for _, c := range []chess.Color{chess.White, chess.Black} {
		t.Run(c.String(), func(t *testing.T) {
			d := startDriver(t, "BLINDFISH_ENGINE="+bin, "BLINDFISH_ARGS=engine --bot random --seed 5", "BLINDFISH_TIMEOUT=20")
			bridge := bridgePlayer{d}
			white, black := rbc.Player(bridge), rbc.Player(randbot.New(uint64(3+c)))
			if c == chess.Black {
				white, black = black, white
			}
			opts := rbc.DefaultOptions()
			opts.InitialTime, opts.Increment = 60*time.Second, time.Second
			opts.TurnLimit = 60
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
				t.Fatalf("the game ended by %v (%s)\n%s", o, o.Detail, d.stderr.String())
			}
			if n := len(res.History.Turns[c]); n < 2 {
				t.Errorf("the bridge played %d turns", n)
			}
			if s := d.stderr.String(); s != "" {
				t.Errorf("the bridge wrote to its error stream:\n%s", s)
			}
			t.Logf("bridge as %v: %v after %d turns", c, o, len(res.History.Turns[c]))
		})
	}
}

// TestBridgeFailingEngine plays the bridge on engines that die or stall at a
// request mid-game: the callback must raise BlindfishEngineError, at once
// for a dead engine and as soon as its time is up for a stalled one, the
// engine must be gone, and the game's end must still be handled.
func TestBridgeFailingEngine(t *testing.T) {
	py := needPython(t)
	engine, err := filepath.Abs("testdata/fake_engine.py")
	if err != nil {
		t.Fatal(err)
	}
	const seconds = 1.0 // the clock the bridge is given
	// The bridge waits for a choice up to the clock plus 1 s of grace, and
	// for the start-up or a notification up to the clock plus
	// BLINDFISH_TIMEOUT (timeout here).
	const timeout = 4.0
	for _, c := range []struct {
		mode, at string
	}{
		{"die", "senseresult"},
		{"die", "choosemove"},
		{"stall", "senseresult"},
		{"stall", "choosemove"},
	} {
		t.Run(c.mode+"-"+c.at, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			d := startDriver(t, "BLINDFISH_ENGINE="+py, "BLINDFISH_ARGS="+engine+" "+pidfile+" "+c.mode+" "+c.at,
				"BLINDFISH_TIMEOUT="+strconv.FormatFloat(timeout, 'f', -1, 64))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			start := chess.StartBoard()
			moves := names(start.MoveActions())
			calls := []map[string]any{
				{"call": "handle_game_start", "color": "white", "fen": start.FEN(), "opponent": "nobody"},
				{"call": "handle_opponent_move_result", "captured": false, "square": nil},
				{"call": "choose_sense", "senses": names(allSquares()), "moves": moves, "seconds": seconds},
				{"call": "handle_sense_result", "result": [][2]any{{"d5", nil}, {"e5", nil}, {"f5", nil}, {"d4", nil}, {"e4", nil}, {"f4", nil}, {"d3", nil}, {"e3", nil}, {"f3", nil}}},
				{"call": "choose_move", "moves": moves, "seconds": seconds},
			}
			failAt := map[string]string{"senseresult": "handle_sense_result", "choosemove": "choose_move"}[c.at]
			allowed := seconds + 1.0
			if c.at == "senseresult" {
				allowed = seconds + timeout
			}
			var failed driverReply
			for _, req := range calls {
				r, err := d.call(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if req["call"] != failAt {
					if r.Error != "" {
						t.Fatalf("%s raised %s: %s", req["call"], r.Error, r.Message)
					}
					continue
				}
				failed = r
				break
			}
			if failed.Error != "BlindfishEngineError" {
				t.Fatalf("%s on an engine that %ss there: %+v; want BlindfishEngineError\n%s", failAt, c.mode, failed, d.stderr.String())
			}
			switch margin := 3.0; {
			case c.mode == "die" && failed.Seconds > margin:
				t.Errorf("the dead engine was noticed after %.1f s", failed.Seconds)
			case c.mode == "stall" && (failed.Seconds < allowed-0.2 || failed.Seconds > allowed+margin):
				t.Errorf("the stalled engine was given up after %.1f s; its time was %.1f s", failed.Seconds, allowed)
			}
			t.Logf("%s raised after %.2f s: %s", failAt, failed.Seconds, failed.Message)
			requireEngineGone(t, pidfile)
			r, err := d.call(ctx, map[string]any{"call": "handle_game_end", "winner": "black", "reason": "RESIGN"})
			if err != nil || r.Error != "" {
				t.Fatalf("handle_game_end after the failure: %+v %v", r, err)
			}
		})
	}
}

// allSquares returns the 64 squares.
func allSquares() []chess.Square {
	out := make([]chess.Square, 64)
	for i := range out {
		out[i] = chess.Square(i)
	}
	return out
}

// requireEngineGone fails the test unless the engine whose pid is in
// pidfile has been killed and reaped (the bridge waits for it).
func requireEngineGone(t *testing.T, pidfile string) {
	t.Helper()
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the failed engine (pid %d) is still there", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
