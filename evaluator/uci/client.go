package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/peakmem"
)

// Defaults for Config fields left zero.
const (
	DefaultCommandTimeout = 10 * time.Second
	DefaultStopGrace      = 100 * time.Millisecond
	DefaultQuitGrace      = 250 * time.Millisecond
)

// maxHandshakeLines bounds the output accepted before "uciok".
const maxHandshakeLines = 10000

// errOutputEnded is the internal cause behind ErrEngineDied when the
// engine's output ends.
var errOutputEnded = errors.New("engine output ended")

// Config configures a Client.
type Config struct {
	// Path is the engine executable, e.g. "/usr/games/stockfish".
	Path string
	// Args are the engine's command-line arguments.
	Args []string
	// Env holds extra environment variables ("KEY=value") for the engine,
	// added to the current environment.
	Env []string
	// Options are set, in order, after every (re)start of the engine.
	Options []Option
	// CommandTimeout bounds the start-up handshake and every command other
	// than a search, even when the call's context allows longer, in time
	// the engine could run: the time it (and this process) waited for a
	// CPU meanwhile is added, up to 3 minutes in all, so that a starved
	// engine is not taken for a hung one. Default DefaultCommandTimeout.
	CommandTimeout time.Duration
	// StopGrace is how long a search whose context ended waits for the
	// engine's bestmove after "stop" before the engine is killed (or
	// drained: DrainGrace). Default DefaultStopGrace.
	StopGrace time.Duration
	// QuitGrace is how long Close waits for the engine to exit after
	// "quit" before killing it. Default DefaultQuitGrace.
	QuitGrace time.Duration
	// DrainGrace, when positive, keeps an engine that missed StopGrace:
	// the search returns at StopGrace as before, and the engine is given
	// DrainGrace more, in the background, to hand in its bestmove before
	// it is killed. On a loaded machine a healthy engine often answers
	// "stop" a little late, and a kill costs a restart (the process, the
	// network, the hash) on a machine that has no time to spare; an
	// engine that is really stuck is still killed. Meanwhile the client
	// is busy (Draining, WaitIdle). Zero (the default) kills at StopGrace.
	DrainGrace time.Duration
	// Logger receives the client's logs; nil means slog.Default().
	Logger *slog.Logger
}

// EngineID is what the engine told about itself in the handshake.
type EngineID struct {
	// Name is from "id name".
	Name string
	// Author is from "id author".
	Author string
}

// ClientStats counts engine lifecycle events of one Client.
type ClientStats struct {
	// Starts counts engine processes started (the first start included).
	Starts int64
	// Kills counts engine processes killed after a failure.
	Kills int64
	// Drained counts engines that answered "stop" after StopGrace but
	// within DrainGrace, and were kept.
	Drained int64
	// PeakRSS is the largest peak resident memory of the engine processes
	// the client ran, in bytes, read from each before it was stopped and
	// from the running one (0 where the system does not report it, as for an
	// engine that died by itself). It is how a player's engines are held to
	// their share of the machine.
	PeakRSS int64
}

// Client drives one UCI engine process. It starts the engine on first use
// and restarts it transparently on the next call after a failure. Calls are
// serialised: a Client is safe for concurrent use, but runs one command at a
// time. The zero value is not usable; call NewClient.
type Client struct {
	cfg Config
	log *slog.Logger

	lock      chan struct{} // one-slot semaphore serialising calls
	closing   chan struct{} // closed by Close
	closeOnce sync.Once

	// Guarded by lock.
	proc    *process
	multiPV int      // the engine's current MultiPV setting
	options []Option // settings replayed after every start

	cur atomic.Pointer[process] // proc, for Close and Pid without the lock

	infoMu sync.Mutex
	id     EngineID
	specs  map[string]OptionSpec // by lower-case name

	starts   atomic.Int64
	kills    atomic.Int64
	drained  atomic.Int64
	peak     atomic.Int64 // the largest PeakRSS of the processes stopped
	draining atomic.Bool  // a drain holds the lock (Config.DrainGrace)
}

// NewClient returns a client for the engine described by cfg. It does not
// start the engine; the first call (or Start) does.
func NewClient(cfg Config) (*Client, error) {
	if cfg.Path == "" {
		return nil, fmt.Errorf("%w: empty engine path", ErrInvalidArgument)
	}
	for _, o := range cfg.Options {
		if err := validateOption(o); err != nil {
			return nil, err
		}
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = DefaultCommandTimeout
	}
	if cfg.StopGrace <= 0 {
		cfg.StopGrace = DefaultStopGrace
	}
	if cfg.QuitGrace <= 0 {
		cfg.QuitGrace = DefaultQuitGrace
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Client{
		cfg:     cfg,
		log:     log.With("engine", cfg.Path),
		lock:    make(chan struct{}, 1),
		closing: make(chan struct{}),
		options: append([]Option(nil), cfg.Options...),
	}, nil
}

// Start starts the engine (handshake, options, isready) if it is not
// running. Other calls start it on demand, so Start is only needed to pay the
// start-up cost early or to check the configuration.
func (c *Client) Start(ctx context.Context) error {
	if err := c.acquire(ctx); err != nil {
		return err
	}
	defer c.release()
	return c.ensure(ctx)
}

// IsReady sends "isready" and waits for "readyok".
func (c *Client) IsReady(ctx context.Context) error {
	if err := c.acquire(ctx); err != nil {
		return err
	}
	defer c.release()
	if err := c.ensure(ctx); err != nil {
		return err
	}
	cctx, cancel := c.commandContext(ctx, c.proc)
	defer cancel()
	if err := c.syncReady(cctx, c.proc); err != nil {
		return c.abandon(err)
	}
	return nil
}

// NewGame sends "ucinewgame" (which clears the engine's hash) and waits
// until the engine is ready again.
func (c *Client) NewGame(ctx context.Context) error {
	return c.command(ctx, "ucinewgame")
}

// SetOption sets an engine option and waits until the engine is ready. The
// setting is remembered and replayed after every restart. When the engine
// declared its options, an undeclared name is refused with
// ErrInvalidArgument (Stockfish would answer with an unparseable line).
// MultiPV is better set per search through Limits.MultiPV.
func (c *Client) SetOption(ctx context.Context, name, value string) error {
	o := Option{Name: name, Value: value}
	if err := validateOption(o); err != nil {
		return err
	}
	if err := c.acquire(ctx); err != nil {
		return err
	}
	defer c.release()
	if err := c.ensure(ctx); err != nil {
		return err
	}
	if err := c.checkDeclared(name); err != nil {
		return err
	}
	p := c.proc
	cctx, cancel := c.commandContext(ctx, p)
	defer cancel()
	if err := p.write(cctx, o.command()+"\n"); err != nil {
		return c.abandon(writeError(cctx, "setoption", err))
	}
	if strings.EqualFold(name, "MultiPV") {
		if n, err := strconv.Atoi(value); err == nil {
			c.multiPV = n
		}
	}
	if err := c.syncReady(cctx, p); err != nil {
		return c.abandon(err)
	}
	replaced := false
	for i := range c.options {
		if strings.EqualFold(c.options[i].Name, name) {
			c.options[i] = o
			replaced = true
		}
	}
	if !replaced {
		c.options = append(c.options, o)
	}
	return nil
}

// ID returns the engine's identification from the last handshake (zero
// before the first start).
func (c *Client) ID() EngineID {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	return c.id
}

// Options returns the options the engine declared in the last handshake,
// keyed by lower-case name.
func (c *Client) Options() map[string]OptionSpec {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	out := make(map[string]OptionSpec, len(c.specs))
	for k, v := range c.specs {
		out[k] = v
	}
	return out
}

// Pid returns the process id of the running engine, or 0 when none runs.
func (c *Client) Pid() int {
	if p := c.cur.Load(); p != nil {
		return p.pid
	}
	return 0
}

// Running reports whether an engine process is currently attached (it may
// still have died without the client noticing yet).
func (c *Client) Running() bool { return c.cur.Load() != nil }

// Stats returns the client's lifecycle counters.
func (c *Client) Stats() ClientStats {
	peak := c.peak.Load()
	if p := c.cur.Load(); p != nil {
		if v, ok := peakmem.Process(p.pid); ok {
			peak = max(peak, v)
		}
	}
	return ClientStats{Starts: c.starts.Load(), Kills: c.kills.Load(), Drained: c.drained.Load(), PeakRSS: peak}
}

// Draining reports whether a stopped search is still waiting, in the
// background, for its engine's bestmove (Config.DrainGrace): the next call
// waits for it.
func (c *Client) Draining() bool { return c.draining.Load() }

// WaitIdle returns once no call or drain holds the client, or with ctx's
// error (ErrClosed once the client is closed). A pool uses it to give a
// draining engine back only when it can search at once.
func (c *Client) WaitIdle(ctx context.Context) error {
	if err := c.acquire(ctx); err != nil {
		return err
	}
	c.release()
	return nil
}

// notePeak records p's peak memory; call it before p is stopped.
func (c *Client) notePeak(p *process) {
	v, ok := peakmem.Process(p.pid)
	for ok {
		old := c.peak.Load()
		if v <= old || c.peak.CompareAndSwap(old, v) {
			return
		}
	}
}

// Close stops the engine ("quit", then SIGKILL after QuitGrace) and makes
// every later call fail with ErrClosed. A call in progress is interrupted
// and its engine killed. Close returns when the process has been reaped.
func (c *Client) Close() error {
	first := false
	c.closeOnce.Do(func() {
		close(c.closing)
		first = true
	})
	if !first {
		return nil
	}
	t := time.NewTimer(c.cfg.QuitGrace)
	defer t.Stop()
	select {
	case c.lock <- struct{}{}:
	case <-t.C:
		// A call is stuck (e.g. writing to an engine that reads nothing):
		// kill its engine so that it returns, then take the lock.
		if p := c.cur.Load(); p != nil {
			c.notePeak(p)
			p.kill()
		}
		c.lock <- struct{}{}
	}
	defer c.release()
	if p := c.proc; p != nil {
		c.proc = nil
		c.cur.Store(nil)
		c.notePeak(p)
		p.shutdown(c.cfg.QuitGrace)
	}
	return nil
}

// acquire takes the call lock, honouring ctx and Close.
func (c *Client) acquire(ctx context.Context) error {
	select {
	case <-c.closing:
		return ErrClosed
	default:
	}
	select {
	case c.lock <- struct{}{}:
	case <-ctx.Done():
		return contextError(ctx, "waiting for the engine")
	case <-c.closing:
		return ErrClosed
	}
	select {
	case <-c.closing:
		c.release()
		return ErrClosed
	default:
	}
	return nil
}

// release gives the call lock back.
func (c *Client) release() { <-c.lock }

// command sends a command that has no answer, then synchronises with
// isready.
func (c *Client) command(ctx context.Context, cmd string) error {
	if err := c.acquire(ctx); err != nil {
		return err
	}
	defer c.release()
	if err := c.ensure(ctx); err != nil {
		return err
	}
	p := c.proc
	cctx, cancel := c.commandContext(ctx, p)
	defer cancel()
	if err := p.write(cctx, cmd+"\n"); err != nil {
		return c.abandon(writeError(cctx, cmd, err))
	}
	if err := c.syncReady(cctx, p); err != nil {
		return c.abandon(err)
	}
	return nil
}

// ensure starts the engine if none is attached. Call with the lock held.
func (c *Client) ensure(ctx context.Context) error {
	if c.proc != nil {
		return nil
	}
	p, err := startProcess(c.cfg.Path, c.cfg.Args, c.cfg.Env, c.log)
	if err != nil {
		c.log.Error("engine start failed", "err", err)
		return err
	}
	cctx, cancel := c.commandContext(ctx, p)
	defer cancel()
	n := c.starts.Add(1)
	c.proc = p
	c.cur.Store(p)
	c.multiPV = 1
	c.log.Debug("engine started", "pid", p.pid, "starts", n)
	if err := c.handshake(cctx, p); err != nil {
		return c.abandon(err)
	}
	var b strings.Builder
	for _, o := range c.options {
		if err := c.checkDeclared(o.Name); err != nil {
			c.abandon(err)
			return err
		}
		b.WriteString(o.command())
		b.WriteByte('\n')
		if strings.EqualFold(o.Name, "MultiPV") {
			if v, err := strconv.Atoi(o.Value); err == nil {
				c.multiPV = v
			}
		}
	}
	if b.Len() > 0 {
		if err := p.write(cctx, b.String()); err != nil {
			return c.abandon(writeError(cctx, "setoption", err))
		}
	}
	if err := c.syncReady(cctx, p); err != nil {
		return c.abandon(err)
	}
	return nil
}

// handshake runs "uci" … "uciok" and records the engine's id and options.
func (c *Client) handshake(ctx context.Context, p *process) error {
	if err := p.write(ctx, "uci\n"); err != nil {
		return writeError(ctx, "uci", err)
	}
	var id EngineID
	specs := map[string]OptionSpec{}
	for n := 0; ; n++ {
		if n > maxHandshakeLines {
			return fmt.Errorf("%w: no uciok after %d lines", ErrProtocol, maxHandshakeLines)
		}
		line, err := c.next(ctx, p, "waiting for uciok")
		if err != nil {
			return err
		}
		first, rest := firstToken(line)
		switch first {
		case "uciok":
			c.infoMu.Lock()
			c.id, c.specs = id, specs
			c.infoMu.Unlock()
			return nil
		case "id":
			switch key, val := firstToken(rest); key {
			case "name":
				id.Name = val
			case "author":
				id.Author = val
			}
		case "option":
			spec, err := parseOptionSpec(line)
			if err != nil {
				c.log.Debug("ignoring malformed option line", "line", clip(line))
				continue
			}
			specs[strings.ToLower(spec.Name)] = spec
		default:
			// Banners, copyprotection, registration, info strings: ignored.
		}
	}
}

// syncReady sends "isready" and waits for "readyok". Info lines (such as
// Stockfish's "info string NNUE evaluation ...") are skipped; any other
// output is a protocol error.
func (c *Client) syncReady(ctx context.Context, p *process) error {
	if err := p.write(ctx, "isready\n"); err != nil {
		return writeError(ctx, "isready", err)
	}
	for {
		line, err := c.next(ctx, p, "waiting for readyok")
		if err != nil {
			return err
		}
		switch first, _ := firstToken(line); first {
		case "readyok":
			return nil
		case "info", "":
		default:
			return fmt.Errorf("%w: unexpected line while waiting for readyok: %q", ErrProtocol, clip(line))
		}
	}
}

// next returns the engine's next output line. A line that is already
// there wins over an ended context, so that an answer that arrived in time
// is never thrown away because this goroutine was scheduled late.
func (c *Client) next(ctx context.Context, p *process, what string) (string, error) {
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", fmt.Errorf("%w: %s: %w", ErrEngineDied, what, errOutputEnded)
		}
		return line, nil
	default:
	}
	select {
	case line, ok := <-p.lines:
		if !ok {
			return "", fmt.Errorf("%w: %s: %w", ErrEngineDied, what, errOutputEnded)
		}
		return line, nil
	case <-ctx.Done():
		return "", contextError(ctx, what)
	case <-c.closing:
		return "", fmt.Errorf("%w: %s", ErrClosed, what)
	}
}

// abandon kills and reaps the current engine after err, detaches it so
// that the next call starts a new one, and returns err completed with how
// the engine ended. Call with the lock held.
func (c *Client) abandon(err error) error {
	p := c.proc
	if p == nil {
		return err
	}
	c.proc = nil
	c.cur.Store(nil)
	c.notePeak(p)
	p.kill()
	c.kills.Add(1)
	switch {
	case errors.Is(p.readErr, bufio.ErrTooLong):
		err = fmt.Errorf("%w: output line longer than %d bytes (%w)", ErrProtocol, maxLineLen, err)
	case errors.Is(err, ErrEngineDied):
		err = fmt.Errorf("%w (%s)", err, p.exitDescription())
	}
	if errors.Is(err, ErrClosed) {
		c.log.Debug("engine killed by Close", "pid", p.pid)
	} else {
		c.log.Warn("engine killed", "pid", p.pid, "err", err)
	}
	return err
}

// checkDeclared refuses option names the engine did not declare (only when
// it declared some).
func (c *Client) checkDeclared(name string) error {
	c.infoMu.Lock()
	defer c.infoMu.Unlock()
	if len(c.specs) == 0 {
		return nil
	}
	if _, ok := c.specs[strings.ToLower(name)]; !ok {
		return fmt.Errorf("%w: engine has no option %q", ErrInvalidArgument, name)
	}
	return nil
}

// writeError classifies a failed write to the engine.
func writeError(ctx context.Context, cmd string, err error) error {
	if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
		if ctx.Err() == nil {
			return fmt.Errorf("%w: writing %q: %w", ErrTimeout, cmd, context.DeadlineExceeded)
		}
		return contextError(ctx, "writing "+strconv.Quote(cmd))
	}
	return fmt.Errorf("%w: writing %q: %w", ErrEngineDied, cmd, err)
}

// validateOption refuses option names and values that could break the
// command line.
func validateOption(o Option) error {
	bad := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f })
	}
	name := strings.TrimSpace(o.Name)
	if name == "" || bad(o.Name) || bad(o.Value) || strings.Contains(" "+name+" ", " value ") {
		return fmt.Errorf("%w: bad option %q = %q", ErrInvalidArgument, clip(o.Name), clip(o.Value))
	}
	return nil
}

// command renders the setoption line, without the newline.
func (o Option) command() string {
	if o.Value == "" {
		return "setoption name " + o.Name
	}
	return "setoption name " + o.Name + " value " + o.Value
}

// firstToken splits off the first space-separated word of s.
func firstToken(s string) (first, rest string) {
	s = strings.TrimLeft(s, " \t")
	first, rest, _ = strings.Cut(s, " ")
	return strings.TrimRight(first, " \t\r"), strings.TrimSpace(rest)
}
