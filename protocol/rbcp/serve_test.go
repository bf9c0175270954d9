package rbcp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/randbot"

	"github.com/blindfish-rbc/blindfish/internal/stall"
)

// session drives Serve over in-memory pipes, one line at a time.
type testSession struct {
	t    testing.TB
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
	info []string
}

func startSession(t testing.TB, eng Engine) *testSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &testSession{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, eng)
		outW.CloseWithError(io.EOF)
		inR.Close()
		s.done <- err
	}()
	return s
}

// send writes a line and returns the final reply line (info lines are kept).
func (s *testSession) send(line string) string {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing %q: %v", line, err)
	}
	return s.reply()
}

func (s *testSession) reply() string {
	s.t.Helper()
	for {
		l, err := s.out.ReadString('\n')
		if err != nil {
			s.t.Fatalf("reading reply: %v", err)
		}
		l = strings.TrimSuffix(l, "\n")
		if strings.HasPrefix(l, "info") {
			s.info = append(s.info, l)
			continue
		}
		return l
	}
}

func (s *testSession) expect(line, want string) {
	s.t.Helper()
	if got := s.send(line); got != want {
		s.t.Fatalf("%q: got %q, want %q", line, got, want)
	}
}

func (s *testSession) expectError(line string) {
	s.t.Helper()
	if got := s.send(line); !strings.HasPrefix(got, "error") {
		s.t.Fatalf("%q: got %q, want an error", line, got)
	}
}

func (s *testSession) close() error {
	s.in.Close()
	select {
	case err := <-s.done:
		return err
	case <-time.After(time.Minute):
		s.t.Fatal("Serve did not return after EOF")
		return nil
	}
}

func (s *testSession) handshake() {
	s.t.Helper()
	if _, err := io.WriteString(s.in, "rbcp 1\n"); err != nil {
		s.t.Fatal(err)
	}
	var got []string
	for {
		l := s.reply()
		got = append(got, l)
		if strings.HasPrefix(l, "rbcpok") || strings.HasPrefix(l, "error") {
			break
		}
	}
	want := []string{
		"id name Test Engine 1.0",
		"id author Blindfish tests",
		"option name seed type spin default 1 min 0 max 1073741824",
		"option name style type combo default calm var calm var wild",
		"rbcpok 1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		s.t.Fatalf("handshake:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// playTurn plays one turn by hand and returns the sense and move answers.
func (s *testSession) playTurn(capture string) (string, string) {
	s.t.Helper()
	s.expect("opponentmove capture "+capture, "ok")
	sense := s.send("choosesense time 10.5 moves e2e4 d2d4 g1f3")
	if !strings.HasPrefix(sense, "sense ") {
		s.t.Fatalf("choosesense: got %q", sense)
	}
	s.expect("senseresult e4:- d5:p", "ok")
	move := s.send("choosemove time 10.25 moves e2e4 d2d4 g1f3")
	switch move {
	case "move e2e4", "move d2d4", "move g1f3", "move pass":
	default:
		s.t.Fatalf("choosemove: got %q", move)
	}
	s.expect("moveresult requested e2e4 taken e2e4 capture -", "ok")
	return sense, move
}

func TestServeWholeSession(t *testing.T) {
	checkGoroutines(t)
	s := startSession(t, testEngine(nil))
	s.expectError("isready") // before the handshake
	s.handshake()
	s.expectError("rbcp 1") // twice
	s.expect("isready", "readyok")
	s.expect("setoption name seed value 42", "ok")
	s.expect("setoption name style value wild", "ok")
	s.expectError("setoption name style value mad")
	s.expectError("setoption name seed value -3")
	s.expectError("setoption name colour value blue")
	s.expectError("opponentmove capture -") // no game yet
	s.expect("newgame color white fen "+chess.StartFEN+" opponent Random Bot", "ok")
	s.expectError("newgame color white fen " + chess.StartFEN + " opponent Again")
	s.expectError("setoption name seed value 3") // not during a game
	s.expectError("choosesense time 1")          // turn has not started
	s.playTurn("-")
	// Malformed and out-of-order lines in the middle of a turn: errors, state kept.
	s.expect("opponentmove capture e2", "ok")
	s.expectError("choosemove time 1 moves e2e4")
	s.expectError("choosesense time x")
	s.expectError("gibberish")
	s.expectError("senseresult e4:-")
	if got := s.send("choosesense time 3 senses e4 moves e2e4"); got != "sense e4" && got != "sense pass" {
		t.Fatalf("choosesense with one sense action: %q", got)
	}
	s.expectError("choosesense time 3 moves e2e4")
	s.expect("senseresult", "ok")
	s.expect("choosemove time 1 moves", "move pass") // no move actions: only a pass
	s.expect("moveresult requested 0000 taken 0000 capture -", "ok")
	s.expect("gameend winner black reason KING_CAPTURE", "ok")
	s.expectError("gameend winner black reason KING_CAPTURE") // no game
	// A second game with the same session and the options kept.
	s.expect("newgame color black fen "+chess.StartFEN+" opponent Trout", "ok")
	s.playTurn("d4")
	s.expect("gameend winner none reason MOVE_LIMIT", "ok")
	if len(s.info) == 0 || s.info[0] != "info belief 1 board, entropy 0 bits" {
		t.Errorf("info lines: %q", s.info)
	}
	if _, err := io.WriteString(s.in, "quit\n"); err != nil {
		t.Fatal(err)
	}
	if err := <-s.done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// newgame refuses a position no RBC game reaches, saying why, and the
// session goes on: a good newgame after it is taken.
func TestServeNewGameRefusesImpossiblePositions(t *testing.T) {
	s := startSession(t, testEngine(nil))
	s.handshake()
	for _, tc := range []struct{ fen, why string }{ // the valid one last: it starts a game
		{"rnbqkbnr/pppppppp/8/8/8/3K4/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white has 2 kings"},
		{"4k3/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings"},
		{"8/8/8/8/8/8/8/8 w - - 0 1", "white has 0 kings"},
		{"4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", ""},
	} {
		fen, why := tc.fen, tc.why
		got := s.send("newgame color white fen " + fen + " opponent x")
		if why == "" {
			if got != "ok" {
				t.Fatalf("a valid position: got %q", got)
			}
			continue
		}
		if !strings.HasPrefix(got, "error") || !strings.Contains(got, why) {
			t.Errorf("newgame with %s: got %q, want an error saying %q", fen, got, why)
		}
	}
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
}

func TestServeSameAnswersForSameSeed(t *testing.T) {
	play := func() []string {
		s := startSession(t, testEngine(nil))
		defer s.close()
		s.handshake()
		s.expect("setoption name seed value 9", "ok")
		s.expect("newgame color white fen "+chess.StartFEN+" opponent x", "ok")
		var got []string
		for range 5 {
			a, b := s.playTurn("-")
			got = append(got, a, b)
		}
		return got
	}
	a, b := play(), play()
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Fatalf("the seed option did not reach the player: %v vs %v", a, b)
	}
}

func TestServeTooLongLine(t *testing.T) {
	s := startSession(t, testEngine(nil))
	s.handshake()
	s.expectError("info " + strings.Repeat("y", MaxLineBytes+10))
	s.expect("isready", "readyok")
	if err := s.close(); err != nil {
		t.Fatal(err)
	}
}

func TestServeDeadlinesFromClock(t *testing.T) {
	var gotDeadline time.Duration
	eng := testEngine(func(p *randbot.Player) {
		p.OnChooseMove = func(ctx context.Context) error {
			d, ok := ctx.Deadline()
			if !ok {
				return errors.New("no deadline")
			}
			gotDeadline = time.Until(d)
			return nil
		}
	})
	s := startSession(t, eng)
	defer s.close()
	s.handshake()
	s.expect("newgame color white fen "+chess.StartFEN+" opponent x", "ok")
	s.playTurn("-")
	if gotDeadline <= 9*time.Second || gotDeadline > 10250*time.Millisecond {
		t.Fatalf("choosemove with 10.25 s left: deadline in %v", gotDeadline)
	}
}

func TestServeEOFCancelsThinking(t *testing.T) {
	checkGoroutines(t)
	cancelled := make(chan error, 1)
	eng := testEngine(func(p *randbot.Player) {
		p.OnChooseMove = func(ctx context.Context) error {
			<-ctx.Done()
			cancelled <- ctx.Err()
			return ctx.Err()
		}
	})
	s := startSession(t, eng)
	s.handshake()
	s.expect("newgame color white fen "+chess.StartFEN+" opponent x", "ok")
	s.expect("opponentmove capture -", "ok")
	s.send("choosesense time 100")
	s.expect("senseresult", "ok")
	if _, err := io.WriteString(s.in, "choosemove time 100 moves e2e4\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let it start thinking
	start, probe := time.Now(), stall.Start()
	s.in.Close()
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("player's context: %v", err)
		}
	case <-time.After(time.Minute): // a hang, not slowness: the bound is below
		t.Fatal("closing the input did not cancel the thinking player")
	}
	// Drain the reply (an error) so that Serve can finish.
	go io.Copy(io.Discard, s.out)
	if err := <-s.done; err != nil {
		t.Fatalf("Serve after EOF: %v", err)
	}
	if d, stalled := time.Since(start), probe.Stop(); d > 2*time.Second+stall.Allowance(stalled) {
		t.Errorf("Serve took %v to end after EOF (%v of it waiting for a CPU)", d, stalled)
	}
}

func TestServePanickingPlayerAnswersError(t *testing.T) {
	eng := testEngine(func(p *randbot.Player) {
		p.OnChooseMove = func(ctx context.Context) error { panic("boom") }
	})
	s := startSession(t, eng)
	defer s.close()
	s.handshake()
	s.expect("newgame color white fen "+chess.StartFEN+" opponent x", "ok")
	s.expect("opponentmove capture -", "ok")
	s.send("choosesense time 100")
	s.expect("senseresult", "ok")
	if got := s.send("choosemove time 100 moves e2e4"); !strings.Contains(got, "panic: boom") {
		t.Fatalf("panicking player: %q", got)
	}
	s.expect("isready", "readyok") // still alive
	s.expect("gameend winner black reason RESIGN", "ok")
}

func TestServeScriptedInput(t *testing.T) {
	// A whole transcript written at once, then EOF: every line is answered.
	script := "rbcp 1\nsetoption name seed value 3\nisready\nnewgame color white fen " + chess.StartFEN +
		" opponent x\nopponentmove capture -\nbogus\nquit\nisready\n"
	var out strings.Builder
	if err := Serve(context.Background(), strings.NewReader(script), &out, testEngine(nil)); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"rbcpok 1\nok\nreadyok\nok\nok\nerror "} {
		if !strings.Contains(got, want) {
			t.Errorf("output %q lacks %q", got, want)
		}
	}
	if strings.Count(got, "readyok") != 1 {
		t.Errorf("lines after quit were answered: %q", got)
	}
}
