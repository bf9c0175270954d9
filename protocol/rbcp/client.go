package rbcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/internal/childproc"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// ClientConfig says how to run an external engine.
type ClientConfig struct {
	// Command is the program and its arguments.
	Command []string
	// Dir and Env are those of exec.Cmd (empty: ours).
	Dir string
	Env []string
	// Options are sent with setoption after the handshake, in order. An
	// engine that rejects one fails to start: a misspelt option should not
	// silently play with defaults.
	Options []SetOption
	// Announced are set like Options, but only if the engine announces an
	// option of that name: a match passes its per-game seed to every engine
	// that takes one this way, and to no other.
	Announced []SetOption
	// Stderr receives the engine's standard error; nil discards it.
	Stderr io.Writer
	// Logger gets the engine's info lines (at Debug) and the client's
	// diagnostics; nil discards them.
	Logger *slog.Logger
	// OnInfo, if set, is called with the text of each info line, from the
	// goroutine that reads the engine's output.
	OnInfo func(text string)
	// StartTimeout caps starting the process and the handshake (default 10 s),
	// within the deadline of the context that starts it.
	StartTimeout time.Duration
	// EndTimeout caps the game-end exchange and the process's exit (default 5 s).
	EndTimeout time.Duration
}

// Client is an rbc.Player played by an external engine that speaks the
// protocol. It starts the process when a game starts (or at Start) and ends it
// when the game ends, so every game gets a fresh engine and a crash cannot
// outlive its game.
//
// Every request is bounded by the callback's context, which the referee sets
// to the player's clock: an engine that is stuck or dead is killed when the
// context ends, and the callback returns an error, so the player loses on time
// or by error and the match goes on. Close kills a running engine.
//
// A Client plays one game at a time; its callbacks must not overlap, as the
// referee guarantees. Close may be called at any time.
type Client struct {
	cfg ClientConfig
	log *slog.Logger

	mu   sync.Mutex // guards proc and name
	proc *process
	name string // the engine's "id name", once known
}

// NewClient returns a client for the engine cfg describes. It does not start
// the engine.
func NewClient(cfg ClientConfig) (*Client, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("rbcp: no engine command")
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.EndTimeout <= 0 {
		cfg.EndTimeout = 5 * time.Second
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("engine", filepath.Base(cfg.Command[0]))
	return &Client{cfg: cfg, log: log}, nil
}

// Name returns the name the engine gave in its handshake, or the program's
// base name before the engine has started.
func (c *Client) Name() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.name != "" {
		return c.name
	}
	return filepath.Base(c.cfg.Command[0])
}

// Start runs the engine and completes the handshake and options, unless it
// is running already. Callers may use it to fail early (a missing program, a
// bad option) before a match; HandleGameStart calls it otherwise.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	p := c.proc
	c.mu.Unlock()
	if p != nil && !p.isDead() {
		return nil
	}
	if p != nil {
		p.kill()
		p.reap()
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.StartTimeout)
	defer cancel()
	p, err := startProcess(c.cfg, c.log)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.proc = p
	c.mu.Unlock()
	name, err := p.handshake(ctx, c.cfg.Options, c.cfg.Announced)
	if err != nil {
		p.kill()
		p.reap()
		return err
	}
	c.mu.Lock()
	c.name = name
	c.mu.Unlock()
	return nil
}

// Close kills the engine if it is running and waits for it to exit.
func (c *Client) Close() error {
	c.mu.Lock()
	p := c.proc
	c.proc = nil
	c.mu.Unlock()
	if p != nil {
		p.kill()
		p.reap()
	}
	return nil
}

// running returns the live engine process, or an error if there is none.
func (c *Client) running() (*process, error) {
	c.mu.Lock()
	p := c.proc
	c.mu.Unlock()
	if p == nil {
		return nil, errors.New("rbcp: the engine is not running")
	}
	if p.isDead() {
		return nil, fmt.Errorf("rbcp: the engine is not running: %w", p.deathCause())
	}
	return p, nil
}

// HandleGameStart starts the engine if needed and sends newgame.
func (c *Client) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) error {
	if err := c.Start(ctx); err != nil {
		return err
	}
	return c.expectOK(ctx, NewGame{Color: color, FEN: board.FEN(), Opponent: opponentName})
}

// HandleOpponentMoveResult sends opponentmove.
func (c *Client) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare chess.Square) error {
	if !capturedMyPiece {
		captureSquare = chess.NoSquare
	}
	return c.expectOK(ctx, OpponentMove{Capture: captureSquare})
}

// ChooseSense sends choosesense with the move actions and returns the answer.
func (c *Client) ChooseSense(ctx context.Context, senseActions []chess.Square, moveActions []chess.Move, secondsLeft time.Duration) (chess.Square, error) {
	req := ChooseSense{SecondsLeft: secondsLeft, Moves: nonNil(moveActions)}
	if len(senseActions) != 64 {
		req.Senses = append([]chess.Square{}, senseActions...)
	}
	r, err := c.request(ctx, req)
	if err != nil {
		return chess.NoSquare, err
	}
	s, ok := r.(Sense)
	if !ok {
		return chess.NoSquare, c.violation(fmt.Errorf("want a sense reply to choosesense, got %q", r.String()))
	}
	return s.Square, nil
}

// HandleSenseResult sends senseresult.
func (c *Client) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	return c.expectOK(ctx, SenseResult{Result: result})
}

// ChooseMove sends choosemove and returns the answer.
func (c *Client) ChooseMove(ctx context.Context, moveActions []chess.Move, secondsLeft time.Duration) (chess.Move, error) {
	r, err := c.request(ctx, ChooseMove{SecondsLeft: secondsLeft, Moves: nonNil(moveActions)})
	if err != nil {
		return chess.Move{}, err
	}
	m, ok := r.(Move)
	if !ok {
		return chess.Move{}, c.violation(fmt.Errorf("want a move reply to choosemove, got %q", r.String()))
	}
	return m.Move, nil
}

// HandleMoveResult sends moveresult.
func (c *Client) HandleMoveResult(ctx context.Context, requested, taken chess.Move, capturedOpponentPiece bool, captureSquare chess.Square) error {
	if !capturedOpponentPiece {
		captureSquare = chess.NoSquare
	}
	return c.expectOK(ctx, MoveResult{Requested: requested, Taken: taken, Capture: captureSquare})
}

// HandleGameEnd sends gameend, then quit, and waits for the engine to exit
// (killing it if it does not). The engine is gone afterwards in every case.
func (c *Client) HandleGameEnd(ctx context.Context, outcome rbc.Outcome, _ *rbc.History) error {
	c.mu.Lock()
	p := c.proc
	c.proc = nil
	c.mu.Unlock()
	if p == nil {
		return nil
	}
	defer p.reap()
	if p.isDead() {
		return nil // it failed earlier; that error was reported then
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.EndTimeout)
	defer cancel()
	r, err := p.roundTrip(ctx, GameEnd{Winner: outcome.Winner, HasWinner: outcome.HasWinner, Reason: outcome.Reason})
	if err == nil {
		if e, ok := r.(Error); ok {
			err = fmt.Errorf("rbcp: the engine rejected gameend: %s", e.Text)
		} else if _, ok := r.(OK); !ok {
			err = fmt.Errorf("rbcp: want ok to gameend, got %q", r.String())
		}
	}
	p.quit(ctx)
	return err
}

// request sends req and returns the engine's reply; an error reply becomes
// an error (the engine is still fine), a failure to answer kills the engine.
func (c *Client) request(ctx context.Context, req Request) (Reply, error) {
	p, err := c.running()
	if err != nil {
		return nil, err
	}
	r, err := p.roundTrip(ctx, req)
	if err != nil {
		return nil, err
	}
	if e, ok := r.(Error); ok {
		return nil, fmt.Errorf("rbcp: the engine answered %s with an error: %s", keyword(req), e.Text)
	}
	return r, nil
}

func (c *Client) expectOK(ctx context.Context, req Request) error {
	r, err := c.request(ctx, req)
	if err != nil {
		return err
	}
	if _, ok := r.(OK); !ok {
		return c.violation(fmt.Errorf("want ok to %s, got %q", keyword(req), r.String()))
	}
	return nil
}

// violation kills an engine that broke the protocol: its state is unknown.
func (c *Client) violation(err error) error {
	err = fmt.Errorf("rbcp: protocol violation: %w", err)
	c.mu.Lock()
	p := c.proc
	c.mu.Unlock()
	if p != nil {
		p.die(err)
	}
	return err
}

func nonNil(ms []chess.Move) []chess.Move {
	if ms == nil {
		return []chess.Move{}
	}
	return ms
}

// process is one running engine.
type process struct {
	cmd   *exec.Cmd
	log   *slog.Logger
	stdin *os.File // our end of the engine's standard input
	out   *os.File // our end of the engine's standard output

	replies    chan Reply    // non-info lines, in order; closed at EOF
	readerDone chan struct{} // closed when the reader goroutine ends
	exited     chan struct{} // closed when the process has been waited for
	killed     chan struct{} // closed by kill: nobody reads replies any more

	wmu sync.Mutex // serialises writes to stdin

	mu    sync.Mutex
	dead  bool
	cause error // why it died

	killOnce sync.Once
}

func startProcess(cfg ClientConfig, log *slog.Logger) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("rbcp: starting engine: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("rbcp: starting engine: %w", err)
	}
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir, cmd.Env = cfg.Dir, cfg.Env
	cmd.Stdin, cmd.Stdout = inR, outW
	cmd.Stderr = cfg.Stderr
	cmd.WaitDelay = time.Second // a grandchild holding stderr cannot block Wait
	childproc.Prepare(cmd)      // its own process group; on Linux it dies with us
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("rbcp: starting engine %q: %w", filepath.Base(cfg.Command[0]), err)
	}
	p := &process{
		cmd: cmd, log: log, stdin: inW, out: outR,
		replies:    make(chan Reply, 16),
		readerDone: make(chan struct{}),
		exited:     make(chan struct{}),
		killed:     make(chan struct{}),
	}
	go p.read(cfg.OnInfo)
	go func() {
		err := cmd.Wait()
		close(p.exited) // first, so that die does not signal a reaped process group
		p.die(fmt.Errorf("rbcp: the engine exited (%v)", err))
	}()
	return p, nil
}

// read forwards the engine's replies and logs its info lines until EOF.
func (p *process) read(onInfo func(string)) {
	defer close(p.readerDone)
	defer close(p.replies)
	lr := newLineReader(p.out)
	for {
		text, err := lr.next()
		if err == io.EOF || (err != nil && !errors.Is(err, errLineTooLong)) {
			return
		}
		var r Reply
		if err == nil {
			r, err = ParseReply(text)
		}
		if err != nil {
			r = badLine{err}
		}
		if inf, ok := r.(Info); ok {
			p.log.Debug("info", "text", inf.Text)
			if onInfo != nil {
				onInfo(inf.Text)
			}
			continue
		}
		// Buffered; a flood of replies nobody asked for blocks the engine
		// until it is killed, never us. Room in the buffer always wins, so a
		// last answer before the engine exits is not lost.
		select {
		case p.replies <- r:
			continue
		default:
		}
		select {
		case p.replies <- r:
		case <-p.killed:
			return
		}
	}
}

// badLine stands in the reply stream for a line that did not parse.
type badLine struct{ err error }

func (badLine) reply()           {}
func (b badLine) String() string { return b.err.Error() }

func (p *process) isDead() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.dead
}

func (p *process) deathCause() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cause
}

// fail records cause (unless an earlier failure was recorded) and kills the
// engine; it returns the recorded cause, the first thing that went wrong.
func (p *process) fail(cause error) error {
	p.die(cause)
	return p.deathCause()
}

// reject kills an engine whose own whole line shows it cannot go on (an
// error reply, a reply out of turn) and returns err itself. An engine that
// writes such a line may exit at once, and its exit can be recorded before
// the line is read; the line, written first, is the cause the caller must
// see. A line that does not parse goes through fail instead: it may be the
// cut-off last output of an engine that crashed or was killed for its time,
// and then the exit or the timeout says more.
func (p *process) reject(err error) error {
	p.die(err)
	return err
}

// die records why the engine is unusable and kills it.
func (p *process) die(cause error) {
	p.mu.Lock()
	if !p.dead {
		p.dead, p.cause = true, cause
	}
	p.mu.Unlock()
	p.kill()
}

// kill sends SIGKILL to the engine's process group (once).
func (p *process) kill() {
	p.killOnce.Do(func() {
		p.mu.Lock()
		if !p.dead {
			p.dead, p.cause = true, errors.New("rbcp: the engine was stopped")
		}
		p.mu.Unlock()
		close(p.killed)
		select {
		case <-p.exited: // reaped: its process group id may be reused
		default:
			childproc.Kill(p.cmd)
		}
	})
}

// reap waits for the process and the reader goroutine to finish and closes
// our pipe ends. After kill it returns within about a second: the reader is
// forced out by closing its pipe if a stray grandchild keeps it open.
func (p *process) reap() {
	<-p.exited
	select {
	case <-p.readerDone:
	case <-time.After(time.Second):
		p.out.Close()
		<-p.readerDone
	}
	p.out.Close()
	p.stdin.Close()
}

// quit asks the engine to exit and kills it if it has not by ctx's end.
func (p *process) quit(ctx context.Context) {
	_ = p.write(Quit{})
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-ctx.Done():
		p.log.Warn("engine did not exit after quit; killing it")
	}
	p.kill()
}

func (p *process) write(req Request) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	_, err := p.stdin.WriteString(req.String() + "\n")
	return err
}

// roundTrip sends req and waits for the next reply line. If ctx ends first,
// or the engine fails, the engine is killed and an error returned.
func (p *process) roundTrip(ctx context.Context, req Request) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return nil, p.fail(fmt.Errorf("rbcp: no time left for %s: %w", keyword(req), err))
	}
	// Killing the engine when ctx ends unblocks a write into a full pipe as
	// well as the wait for the answer.
	stop := context.AfterFunc(ctx, func() {
		p.die(fmt.Errorf("rbcp: the engine did not answer %s in time: %w", keyword(req), context.Cause(ctx)))
	})
	defer stop()
	if err := p.write(req); err != nil {
		return nil, p.fail(fmt.Errorf("rbcp: sending %s: %w", keyword(req), err))
	}
	select {
	case r, ok := <-p.replies:
		if !ok {
			// The engine closed its output. Prefer the timeout if that is why.
			if ctx.Err() != nil {
				return nil, p.fail(fmt.Errorf("rbcp: the engine did not answer %s in time: %w", keyword(req), context.Cause(ctx)))
			}
			return nil, p.fail(fmt.Errorf("rbcp: the engine closed its output while we waited for the answer to %s", keyword(req)))
		}
		if b, ok := r.(badLine); ok {
			return nil, p.fail(fmt.Errorf("rbcp: protocol violation in the answer to %s: %w", keyword(req), b.err))
		}
		return r, nil
	case <-ctx.Done():
		return nil, p.fail(fmt.Errorf("rbcp: the engine did not answer %s in time: %w", keyword(req), context.Cause(ctx)))
	}
}

// handshake runs "rbcp", sets the options and waits for readyok. It returns
// the engine's name.
func (p *process) handshake(ctx context.Context, options, ifAnnounced []SetOption) (string, error) {
	if err := p.write(Hello{Version}); err != nil {
		return "", p.fail(fmt.Errorf("rbcp: sending rbcp: %w", err))
	}
	stop := context.AfterFunc(ctx, func() {
		p.die(fmt.Errorf("rbcp: no handshake from the engine in time: %w", context.Cause(ctx)))
	})
	defer stop()
	var name string
	announced := make(map[string]bool)
	for {
		var r Reply
		var ok bool
		select {
		case r, ok = <-p.replies:
		case <-ctx.Done():
		}
		if !ok {
			if ctx.Err() != nil {
				return "", p.fail(fmt.Errorf("rbcp: no handshake from the engine in time: %w", context.Cause(ctx)))
			}
			return "", p.fail(errors.New("rbcp: the engine exited during the handshake"))
		}
		switch m := r.(type) {
		case ID:
			if m.Key == "name" {
				name = m.Value
			}
			continue
		case Option:
			announced[m.Name] = true
			continue
		case HelloOK:
			if m.Version != Version {
				return "", p.reject(fmt.Errorf("rbcp: the engine speaks protocol version %d, we speak %d", m.Version, Version))
			}
		case Error:
			return "", p.reject(fmt.Errorf("rbcp: the engine refused the handshake: %s", m.Text))
		default:
			return "", p.reject(fmt.Errorf("rbcp: protocol violation in the handshake: got %q", r.String()))
		}
		break
	}
	for _, o := range ifAnnounced {
		if announced[o.Name] {
			options = append(options[:len(options):len(options)], o)
		}
	}
	for _, o := range options {
		r, err := p.roundTrip(ctx, o)
		if err != nil {
			return "", err
		}
		if e, ok := r.(Error); ok {
			return "", p.reject(fmt.Errorf("rbcp: the engine rejected option %s: %s", o.Name, e.Text))
		}
		if _, ok := r.(OK); !ok {
			return "", p.reject(fmt.Errorf("rbcp: want ok to setoption, got %q", r.String()))
		}
	}
	r, err := p.roundTrip(ctx, IsReady{})
	if err != nil {
		return "", err
	}
	if _, ok := r.(ReadyOK); !ok {
		return "", p.reject(fmt.Errorf("rbcp: want readyok, got %q", r.String()))
	}
	return name, nil
}
