package rbcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Engine describes what Serve puts behind the protocol: the engine's name, the
// options it announces, and how to build a player for each game.
type Engine struct {
	Name, Author string
	// Options are announced in the handshake, in this order. Only announced
	// options can be set; their values are checked against type and range.
	Options []Option
	// NewPlayer builds a fresh player for one game from the value of every
	// announced option (the default unless the harness set it). A new player
	// per game keeps one game's state from leaking into the next. info sends
	// a text as an info line (belief size, entropy, evaluations); it is safe
	// to call from any goroutine, at any time.
	NewPlayer func(ctx context.Context, options map[string]string, info func(text string)) (rbc.Player, error)
	// Check, if set, vets the option values after each setoption; when it
	// fails the change is undone and the harness gets an error, so that a
	// bad value is refused when it is set rather than at the next game.
	Check func(options map[string]string) error
	// Logger receives the session's own diagnostics; nil discards them.
	Logger *slog.Logger
}

// phase is where a session stands in the protocol.
type phase uint8

const (
	phaseHello       phase = iota // before "rbcp"
	phaseIdle                     // between games
	phaseTurnStart                // in a game, waiting for opponentmove
	phaseSense                    // waiting for choosesense
	phaseSenseResult              // waiting for senseresult
	phaseMove                     // waiting for choosemove
	phaseMoveResult               // waiting for moveresult
	numPhases
)

var phaseWants = [numPhases]string{
	phaseHello:       "rbcp",
	phaseIdle:        "setoption, isready or newgame",
	phaseTurnStart:   "opponentmove or gameend",
	phaseSense:       "choosesense or gameend",
	phaseSenseResult: "senseresult or gameend",
	phaseMove:        "choosemove or gameend",
	phaseMoveResult:  "moveresult or gameend",
}

// session is one Serve call's state.
type session struct {
	eng     Engine
	log     *slog.Logger
	options map[string]string

	wmu sync.Mutex // guards w
	w   *bufio.Writer

	phase  phase
	player rbc.Player
	// clock is the last clock reading the harness sent and when it arrived:
	// notifications get a deadline from it, as the referee's contexts have.
	clock   time.Duration
	clockAt time.Time
}

// Serve speaks the protocol on in and out for the engine eng until the
// harness sends quit or closes in (both end it cleanly, returning nil), ctx is
// done, or out fails. Lines are handled strictly in order; a malformed or
// out-of-order line gets an error reply and leaves the session as it was.
//
// Closing in cancels the callback in progress once every earlier line has
// been read, so a harness that dies mid-think does not leave the engine
// thinking. The goroutine that reads in ends when in reaches EOF or fails.
func Serve(ctx context.Context, in io.Reader, out io.Writer, eng Engine) error {
	if eng.NewPlayer == nil {
		return errors.New("rbcp: Engine.NewPlayer is nil")
	}
	log := eng.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &session{eng: eng, log: log, w: bufio.NewWriter(out), options: make(map[string]string)}
	for _, o := range eng.Options {
		s.options[o.Name] = o.Default
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lines := make(chan readLine) // unbuffered: EOF is seen only once every line is handed over
	go readLines(ctx, in, lines, cancel)

	for {
		var rl readLine
		var ok bool
		select {
		case rl, ok = <-lines:
		case <-ctx.Done():
			// EOF (the reader cancelled) or the caller's context.
			s.endGame()
			return nil
		}
		if !ok {
			s.endGame()
			return nil
		}
		if rl.err != nil {
			if errors.Is(rl.err, errLineTooLong) {
				if err := s.send(Error{rl.err.Error()}); err != nil {
					return err
				}
				continue
			}
			s.endGame()
			return fmt.Errorf("rbcp: reading requests: %w", rl.err)
		}
		quit, err := s.handle(ctx, rl.text)
		if err != nil {
			s.endGame()
			return err
		}
		if quit {
			s.endGame()
			return nil
		}
	}
}

// readLine is one line read from the harness, or why reading failed.
type readLine struct {
	text string
	err  error
}

var errLineTooLong = fmt.Errorf("%w: line longer than %d bytes", ErrSyntax, MaxLineBytes)

// readLines sends each line of in to lines until EOF (then cancels the
// session and closes lines) or a read error (sent, then closes lines).
func readLines(ctx context.Context, in io.Reader, lines chan<- readLine, cancel context.CancelFunc) {
	defer close(lines)
	lr := newLineReader(in)
	for {
		text, err := lr.next()
		if err == io.EOF {
			cancel()
			return
		}
		select {
		case lines <- readLine{text, err}:
		case <-ctx.Done():
			return
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			return
		}
	}
}

// lineReader reads lines of at most MaxLineBytes, skipping the rest of longer
// ones (reported as errLineTooLong) so that one bad line costs one error reply.
type lineReader struct{ br *bufio.Reader }

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{bufio.NewReaderSize(r, MaxLineBytes+2)}
}

func (lr *lineReader) next() (string, error) {
	b, err := lr.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		for errors.Is(err, bufio.ErrBufferFull) {
			_, err = lr.br.ReadSlice('\n')
		}
		if err != nil && err != io.EOF {
			return "", err
		}
		return "", errLineTooLong
	}
	if err == io.EOF && len(b) > 0 {
		err = nil // a last line without its newline still counts
	}
	if err != nil {
		return "", err
	}
	b = trimEOL(b)
	if len(b) > MaxLineBytes {
		return "", errLineTooLong
	}
	return string(b), nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// send writes one reply line and flushes it.
func (s *session) send(r Reply) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.w.WriteString(r.String())
	s.w.WriteByte('\n')
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("rbcp: writing reply: %w", err)
	}
	return nil
}

// info is the function handed to Informer players.
func (s *session) info(text string) {
	if err := s.send(Info{text}); err != nil {
		s.log.Debug("dropping info line", "err", err)
	}
}

// handle processes one line. It returns quit for the quit request, and an
// error only when replying fails (the harness is gone).
func (s *session) handle(ctx context.Context, text string) (quit bool, err error) {
	req, perr := ParseRequest(text)
	if perr != nil {
		s.log.Debug("malformed request", "err", perr)
		return false, s.send(Error{perr.Error()})
	}
	if _, ok := req.(Quit); ok {
		return true, nil
	}
	reply := s.dispatch(ctx, req)
	if reply == nil {
		return false, nil // the handshake wrote its own lines
	}
	return false, s.send(reply)
}

// outOfOrder is the reply to a well-formed request the session cannot take now.
func (s *session) outOfOrder(req Request) Reply {
	return Error{fmt.Sprintf("unexpected %q now: want %s", keyword(req), phaseWants[s.phase])}
}

func keyword(req Request) string {
	str := req.String()
	for i := 0; i < len(str); i++ {
		if str[i] == ' ' {
			return str[:i]
		}
	}
	return str
}

func (s *session) dispatch(ctx context.Context, req Request) Reply {
	if s.phase == phaseHello {
		if _, ok := req.(Hello); !ok {
			return s.outOfOrder(req)
		}
	}
	switch m := req.(type) {
	case Hello:
		if s.phase != phaseHello {
			return Error{"the handshake is done already"}
		}
		return s.hello(m)
	case IsReady:
		return ReadyOK{}
	case SetOption:
		if s.phase != phaseIdle {
			return Error{"options can only be set between games"}
		}
		return s.setOption(m)
	case NewGame:
		if s.phase != phaseIdle {
			return s.outOfOrder(req)
		}
		return s.newGame(ctx, m)
	case GameEnd:
		if s.phase < phaseTurnStart {
			return s.outOfOrder(req)
		}
		o := rbc.Outcome{Winner: m.Winner, HasWinner: m.HasWinner, Reason: m.Reason}
		p := s.player
		s.player, s.phase = nil, phaseIdle
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		err := call(s, func() error { return p.HandleGameEnd(cctx, o, &rbc.History{Outcome: o}) })
		closePlayer(p)
		if err != nil {
			return Error{"player: " + err.Error()}
		}
		return OK{}
	case OpponentMove:
		if s.phase != phaseTurnStart {
			return s.outOfOrder(req)
		}
		return s.notify(ctx, phaseSense, func(c context.Context) error {
			return s.player.HandleOpponentMoveResult(c, m.Capture.Valid(), m.Capture)
		})
	case ChooseSense:
		if s.phase != phaseSense {
			return s.outOfOrder(req)
		}
		s.setClock(m.SecondsLeft)
		senses := m.Senses
		if senses == nil {
			senses = allSquares()
		}
		cctx, cancel := context.WithTimeout(ctx, m.SecondsLeft)
		defer cancel()
		var sq chess.Square
		err := call(s, func() (err error) {
			sq, err = s.player.ChooseSense(cctx, senses, m.Moves, m.SecondsLeft)
			return err
		})
		if err != nil {
			return Error{"player: " + err.Error()}
		}
		s.phase = phaseSenseResult
		if !sq.Valid() {
			sq = chess.NoSquare
		}
		return Sense{sq}
	case SenseResult:
		if s.phase != phaseSenseResult {
			return s.outOfOrder(req)
		}
		return s.notify(ctx, phaseMove, func(c context.Context) error {
			return s.player.HandleSenseResult(c, m.Result)
		})
	case ChooseMove:
		if s.phase != phaseMove {
			return s.outOfOrder(req)
		}
		s.setClock(m.SecondsLeft)
		cctx, cancel := context.WithTimeout(ctx, m.SecondsLeft)
		defer cancel()
		var mv chess.Move
		err := call(s, func() (err error) {
			mv, err = s.player.ChooseMove(cctx, m.Moves, m.SecondsLeft)
			return err
		})
		if err != nil {
			return Error{"player: " + err.Error()}
		}
		s.phase = phaseMoveResult
		return Move{mv}
	case MoveResult:
		if s.phase != phaseMoveResult {
			return s.outOfOrder(req)
		}
		return s.notify(ctx, phaseTurnStart, func(c context.Context) error {
			return s.player.HandleMoveResult(c, m.Requested, m.Taken, m.Capture.Valid(), m.Capture)
		})
	}
	return s.outOfOrder(req)
}

func (s *session) setClock(d time.Duration) { s.clock, s.clockAt = d, time.Now() }

// notifyContext is the context of a notification: its deadline is the last
// clock reading the harness sent, counted from when it arrived.
func (s *session) notifyContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.clockAt.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, time.Now().Add(s.clock))
}

// notify runs a notification callback and moves to next if it succeeds.
func (s *session) notify(ctx context.Context, next phase, f func(context.Context) error) Reply {
	cctx, cancel := s.notifyContext(ctx)
	defer cancel()
	if err := call(s, func() error { return f(cctx) }); err != nil {
		return Error{"player: " + err.Error()}
	}
	s.phase = next
	return OK{}
}

// call runs a player callback, turning a panic into an error: a player bug
// then loses the game by an error reply instead of killing the process.
func call(s *session, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("player panicked", "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

func (s *session) hello(m Hello) Reply {
	if m.Version < Version {
		return Error{fmt.Sprintf("protocol version %d is not supported (this engine speaks %d)", m.Version, Version)}
	}
	var err error
	if s.eng.Name != "" {
		err = errors.Join(err, s.send(ID{"name", s.eng.Name}))
	}
	if s.eng.Author != "" {
		err = errors.Join(err, s.send(ID{"author", s.eng.Author}))
	}
	for _, o := range s.eng.Options {
		err = errors.Join(err, s.send(o))
	}
	if err != nil {
		return Error{err.Error()}
	}
	s.phase = phaseIdle
	return HelloOK{Version}
}

func (s *session) setOption(m SetOption) Reply {
	i := slices.IndexFunc(s.eng.Options, func(o Option) bool { return o.Name == m.Name })
	if i < 0 {
		return Error{fmt.Sprintf("unknown option %q", truncate(m.Name))}
	}
	if err := checkOptionValue(s.eng.Options[i], m.Value); err != nil {
		return Error{err.Error()}
	}
	old := s.options[m.Name]
	s.options[m.Name] = m.Value
	if s.eng.Check != nil {
		if err := s.eng.Check(s.copyOptions()); err != nil {
			s.options[m.Name] = old
			return Error{fmt.Sprintf("option %s: %v", m.Name, err)}
		}
	}
	return OK{}
}

// checkOptionValue checks a value against its option's type and range.
func checkOptionValue(o Option, v string) error {
	switch o.Type {
	case "check":
		if v != "true" && v != "false" {
			return fmt.Errorf("option %s: want true or false, got %q", o.Name, truncate(v))
		}
	case "spin":
		n, err := strconv.Atoi(v)
		if err != nil || n < o.Min || n > o.Max {
			return fmt.Errorf("option %s: want an integer in [%d, %d], got %q", o.Name, o.Min, o.Max, truncate(v))
		}
	case "combo":
		if !slices.Contains(o.Vars, v) {
			return fmt.Errorf("option %s: want one of %v, got %q", o.Name, o.Vars, truncate(v))
		}
	}
	return nil
}

func (s *session) newGame(ctx context.Context, m NewGame) Reply {
	board, err := chess.ParsePosition(m.FEN)
	if err != nil {
		return Error{"bad position: " + err.Error()}
	}
	var p rbc.Player
	err = call(s, func() (err error) {
		p, err = s.eng.NewPlayer(ctx, s.copyOptions(), s.info)
		return err
	})
	if err != nil {
		return Error{"cannot build the player: " + err.Error()}
	}
	err = call(s, func() error { return p.HandleGameStart(ctx, m.Color, board, m.Opponent) })
	if err != nil {
		closePlayer(p)
		return Error{"player: " + err.Error()}
	}
	s.player, s.phase = p, phaseTurnStart
	s.clock, s.clockAt = 0, time.Time{}
	return OK{}
}

func (s *session) copyOptions() map[string]string {
	opts := make(map[string]string, len(s.options))
	for k, v := range s.options {
		opts[k] = v
	}
	return opts
}

// endGame releases the player of an unfinished game when the session ends.
func (s *session) endGame() {
	if s.player != nil {
		closePlayer(s.player)
		s.player = nil
	}
}

// closePlayer closes players that hold resources (processes, engines).
func closePlayer(p rbc.Player) {
	if c, ok := p.(io.Closer); ok {
		_ = c.Close()
	}
}

func allSquares() []chess.Square {
	sq := make([]chess.Square, 64)
	for i := range sq {
		sq[i] = chess.Square(i)
	}
	return sq
}
