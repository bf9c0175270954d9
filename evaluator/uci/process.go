package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/childproc"
)

const (
	// maxLineLen bounds one line of engine output; a longer line is a
	// protocol error.
	maxLineLen = 1 << 20
	// lineBuffer is the capacity of the line channel.
	lineBuffer = 256
	// reapTimeout bounds how long kill waits for the reader to reap the
	// process after SIGKILL before it closes the output pipe as well.
	reapTimeout = 2 * time.Second
	// minWriteTime is the least time a write to the engine is given.
	minWriteTime = time.Second
	// stderrTail is how many bytes of the engine's standard error are kept
	// for error messages.
	stderrTail = 2048
)

// process is one running engine. Exactly one goroutine (run) reads its
// standard output, forwards lines on the lines channel, closes that channel
// when output ends, then reaps the process and closes done.
type process struct {
	cmd    *exec.Cmd
	pid    int
	stdin  *os.File
	stdout *os.File
	stderr *tailBuffer
	log    *slog.Logger

	lines chan string   // engine output lines; closed when output ends
	quit  chan struct{} // closed when the client abandons the process
	done  chan struct{} // closed after the process has been reaped

	quitOnce sync.Once
	exited   atomic.Bool // set once Wait has returned

	// Written by run before done is closed; read only after <-done.
	readErr error
	waitErr error
}

// startProcess starts the engine at path with args. env entries
// ("KEY=value") are added to the current environment.
func startProcess(path string, args, env []string, log *slog.Logger) (*process, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, path, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, path, err)
	}
	cmd := exec.Command(path, args...)
	if len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	tail := &tailBuffer{max: stderrTail}
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = tail
	// Its own process group (kill reaches whatever it spawned, e.g. behind a
	// wrapper script), and on Linux it dies with us.
	childproc.Prepare(cmd)
	// Do not let a descendant that keeps stderr open block Wait forever.
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	// The child has its own copies of these ends now.
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%w: %s: %w", ErrStart, path, err)
	}
	p := &process{
		cmd:    cmd,
		pid:    cmd.Process.Pid,
		stdin:  inW,
		stdout: outR,
		stderr: tail,
		log:    log.With("pid", cmd.Process.Pid),
		lines:  make(chan string, lineBuffer),
		quit:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	go p.run()
	return p, nil
}

// run is the process's single reader goroutine.
func (p *process) run() {
	defer close(p.done)
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 0, 4096), maxLineLen)
	abandoned := false
read:
	for sc.Scan() {
		select {
		case p.lines <- sc.Text():
		case <-p.quit:
			abandoned = true
			break read
		}
	}
	if !abandoned {
		p.readErr = sc.Err()
	}
	close(p.lines)
	if p.readErr != nil {
		// Output is unusable (for example an over-long line): make sure the
		// process ends so that Wait below returns.
		childproc.Kill(p.cmd)
	}
	p.stdout.Close()
	p.waitErr = p.cmd.Wait()
	p.exited.Store(true)
}

// write sends s to the engine. A command is a few bytes written into a
// pipe buffer of 64 KiB, so a write only blocks when the engine has stopped
// reading its input altogether; the deadline is then ctx's, but never less
// than minWriteTime from now. (A deadline that passed while this goroutine
// was not scheduled must not fail the write of a command to a healthy
// engine: the failure would kill it.)
func (p *process) write(ctx context.Context, s string) error {
	dl := time.Now().Add(minWriteTime)
	if d, ok := ctx.Deadline(); ok && d.After(dl) {
		dl = d
	}
	_ = p.stdin.SetWriteDeadline(dl)
	_, err := io.WriteString(p.stdin, s)
	return err
}

// kill abandons the process: it sends SIGKILL to the engine (and its process
// group), closes its input and waits until it has been reaped. It is safe to
// call more than once and from several goroutines.
func (p *process) kill() {
	p.quitOnce.Do(func() { close(p.quit) })
	if !p.exited.Load() {
		childproc.Kill(p.cmd)
	}
	p.stdin.Close()
	t := time.NewTimer(reapTimeout)
	defer t.Stop()
	select {
	case <-p.done:
		return
	case <-t.C:
	}
	// Something else holds the output pipe open: close our end so the
	// reader stops, then wait once more.
	p.log.Warn("engine not reaped after SIGKILL; closing its output")
	p.stdout.Close()
	t.Reset(reapTimeout)
	select {
	case <-p.done:
	case <-t.C:
		p.log.Error("engine process could not be reaped")
	}
}

// shutdown asks the engine to quit ("quit" and end of input) and kills it if
// it has not exited within grace.
func (p *process) shutdown(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if p.write(ctx, "quit\n") == nil {
		p.stdin.Close()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-p.done:
			return
		case <-t.C:
		}
	}
	p.kill()
}

// exitDescription describes how the process ended; call it after done.
func (p *process) exitDescription() string {
	s := "exited"
	if st := p.cmd.ProcessState; st != nil {
		s = st.String()
	}
	if p.readErr != nil {
		s += fmt.Sprintf(", read error: %v", p.readErr)
	}
	if t := p.stderr.String(); t != "" {
		s += fmt.Sprintf(", stderr: %q", t)
	}
	return s
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write implements io.Writer.
func (b *tailBuffer) Write(data []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, data...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(data), nil
}

// String returns the kept bytes.
func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
