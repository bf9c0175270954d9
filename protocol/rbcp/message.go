// Package rbcp implements Blindfish's line protocol (rbcp) for Reconnaissance
// Blind Chess engines (docs/protocol.md): a UCI-like exchange of one-line text
// messages over an engine's standard input and output.
//
// The protocol lets any program that speaks it play wherever Blindfish plays
// (matches, the reference harness through its bridge, the tournament server),
// and lets Blindfish's own player run as a separate process that a crash or a
// hang cannot take the referee down with.
//
// The package holds the codec (typed messages, ParseRequest, ParseReply and
// each message's String), Serve, which puts an rbc.Player behind the protocol,
// and Client, an rbc.Player that drives an engine process.
package rbcp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Version is the protocol version this package speaks.
const Version = 1

// MaxLineBytes bounds a message line (without its newline). Move lists are the
// longest lines, a few hundred bytes; the bound keeps a runaway peer from
// growing our buffers without limit.
const MaxLineBytes = 64 << 10

// maxSeconds bounds a clock reading (about 116 days), so that converting it to
// a time.Duration can never overflow.
const maxSeconds = 1e7

// Request is a message from the harness to the engine. Every request gets
// exactly one final reply (see Reply), possibly after some Info lines; Quit
// gets none.
type Request interface {
	fmt.Stringer
	request()
}

// Reply is a message from the engine to the harness.
type Reply interface {
	fmt.Stringer
	reply()
}

// Hello opens the session: the harness names the highest protocol version it
// speaks ("rbcp 1"). The engine answers with ID and Option lines, then HelloOK.
type Hello struct{ Version int }

// SetOption sets an engine option announced in the handshake ("setoption name
// sampler value exact"). Value is the rest of the line and may hold spaces.
type SetOption struct{ Name, Value string }

// IsReady asks the engine to answer ReadyOK once it has finished all earlier
// work; harnesses use it to synchronise after options.
type IsReady struct{}

// NewGame starts a game: our colour, the starting position and the opponent's
// name ("newgame color white fen <FEN> opponent <name>").
type NewGame struct {
	Color    chess.Color
	FEN      string
	Opponent string
}

// OpponentMove starts each of our turns (White's first one too): the square
// where the opponent captured one of our pieces, or chess.NoSquare.
type OpponentMove struct{ Capture chess.Square }

// ChooseSense asks for a sense. Senses is nil when the harness did not list the
// sense actions (every square may be sensed); Moves is nil when it did not send
// the move actions with the sense request.
type ChooseSense struct {
	SecondsLeft time.Duration
	Senses      []chess.Square
	Moves       []chess.Move
}

// SenseResult delivers the sensed window in the harness's order (empty after
// a passed sense).
type SenseResult struct{ Result []rbc.SquarePiece }

// ChooseMove asks for a move from Moves (or a pass).
type ChooseMove struct {
	SecondsLeft time.Duration
	Moves       []chess.Move
}

// MoveResult reports what became of our move request.
type MoveResult struct {
	Requested, Taken chess.Move
	Capture          chess.Square
}

// GameEnd ends the game. Reason is rbc.NoReason when the harness gave none.
type GameEnd struct {
	Winner    chess.Color
	HasWinner bool
	Reason    rbc.WinReason
}

// Quit asks the engine to exit; it gets no reply.
type Quit struct{}

// ID names the engine ("id name Blindfish 0.1", "id author ...").
type ID struct{ Key, Value string }

// Option announces an engine option: its name, type ("check", "spin", "combo"
// or "string"), default and, by type, its range or choices.
type Option struct {
	Name, Type, Default string
	HasDefault          bool
	Min, Max            int // spin only
	Vars                []string
}

// HelloOK ends the handshake with the version the engine will speak.
type HelloOK struct{ Version int }

// ReadyOK answers IsReady.
type ReadyOK struct{}

// OK acknowledges a request that has no other answer.
type OK struct{}

// Sense answers ChooseSense: the centre of the window, or chess.NoSquare to pass.
type Sense struct{ Square chess.Square }

// Move answers ChooseMove: the requested move, the null move for a pass.
type Move struct{ Move chess.Move }

// Info is free-form text (belief size, entropy, evaluations) that harnesses
// may log. It is never a reply by itself and may come at any time.
type Info struct{ Text string }

// Error is the reply to a request the engine rejects: a malformed or
// out-of-order line, or a failure of the player. The engine keeps its state.
type Error struct{ Text string }

func (Hello) request()        {}
func (SetOption) request()    {}
func (IsReady) request()      {}
func (NewGame) request()      {}
func (OpponentMove) request() {}
func (ChooseSense) request()  {}
func (SenseResult) request()  {}
func (ChooseMove) request()   {}
func (MoveResult) request()   {}
func (GameEnd) request()      {}
func (Quit) request()         {}

func (ID) reply()      {}
func (Option) reply()  {}
func (HelloOK) reply() {}
func (ReadyOK) reply() {}
func (OK) reply()      {}
func (Sense) reply()   {}
func (Move) reply()    {}
func (Info) reply()    {}
func (Error) reply()   {}

// --- formatting -----------------------------------------------------------

// clean makes free text safe for one line: control characters other than
// tabs (newlines above all, which would forge a message) become spaces, and
// the result is trimmed as the parser trims it.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\t') || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return strings.Trim(s, " \t")
}

// token makes s a single non-empty token.
func token(s string) string {
	s = strings.Join(strings.Fields(clean(s)), "_")
	if s == "" {
		return "_"
	}
	return s
}

func formatSquare(s chess.Square) string {
	if !s.Valid() {
		return "-"
	}
	return s.String()
}

func formatSeconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

func appendMoves(b *strings.Builder, ms []chess.Move) {
	for _, m := range ms {
		b.WriteByte(' ')
		b.WriteString(m.String())
	}
}

func (m Hello) String() string { return "rbcp " + strconv.Itoa(m.Version) }

func (m SetOption) String() string {
	s := "setoption name " + token(m.Name) + " value"
	if v := clean(m.Value); v != "" {
		s += " " + v
	}
	return s
}

func (IsReady) String() string { return "isready" }

func (m NewGame) String() string {
	return "newgame color " + m.Color.String() + " fen " + strings.Join(strings.Fields(clean(m.FEN)), " ") +
		" opponent " + opponentText(m.Opponent)
}

// opponentText is the opponent's name as sent: never empty, so the line parses.
func opponentText(name string) string {
	if n := clean(name); n != "" {
		return n
	}
	return "?"
}

func (m OpponentMove) String() string { return "opponentmove capture " + formatSquare(m.Capture) }

func (m ChooseSense) String() string {
	var b strings.Builder
	b.WriteString("choosesense time ")
	b.WriteString(formatSeconds(m.SecondsLeft))
	if m.Senses != nil {
		b.WriteString(" senses")
		for _, s := range m.Senses {
			b.WriteByte(' ')
			b.WriteString(formatSquare(s))
		}
	}
	if m.Moves != nil {
		b.WriteString(" moves")
		appendMoves(&b, m.Moves)
	}
	return b.String()
}

func (m SenseResult) String() string {
	var b strings.Builder
	b.WriteString("senseresult")
	for _, sp := range m.Result {
		b.WriteByte(' ')
		b.WriteString(formatSquare(sp.Square))
		b.WriteByte(':')
		if sp.Piece == chess.NoPiece {
			b.WriteByte('-')
		} else {
			b.WriteByte(sp.Piece.Symbol())
		}
	}
	return b.String()
}

func (m ChooseMove) String() string {
	var b strings.Builder
	b.WriteString("choosemove time ")
	b.WriteString(formatSeconds(m.SecondsLeft))
	b.WriteString(" moves")
	appendMoves(&b, m.Moves)
	return b.String()
}

func (m MoveResult) String() string {
	return "moveresult requested " + m.Requested.String() + " taken " + m.Taken.String() +
		" capture " + formatSquare(m.Capture)
}

func (m GameEnd) String() string {
	w := "none"
	if m.HasWinner {
		w = m.Winner.String()
	}
	r := "none"
	if m.Reason != rbc.NoReason {
		r = m.Reason.String()
	}
	return "gameend winner " + w + " reason " + r
}

func (Quit) String() string { return "quit" }

func (m ID) String() string {
	s := "id " + token(m.Key)
	if v := clean(m.Value); v != "" {
		s += " " + v
	}
	return s
}

func (m Option) String() string {
	var b strings.Builder
	b.WriteString("option name ")
	b.WriteString(token(m.Name))
	b.WriteString(" type ")
	b.WriteString(token(m.Type))
	if m.HasDefault {
		b.WriteString(" default ")
		b.WriteString(token(m.Default))
	}
	if m.Type == "spin" {
		fmt.Fprintf(&b, " min %d max %d", m.Min, m.Max)
	}
	for _, v := range m.Vars {
		b.WriteString(" var ")
		b.WriteString(token(v))
	}
	return b.String()
}

func (m HelloOK) String() string { return "rbcpok " + strconv.Itoa(m.Version) }
func (ReadyOK) String() string   { return "readyok" }
func (OK) String() string        { return "ok" }

func (m Sense) String() string {
	if !m.Square.Valid() {
		return "sense pass"
	}
	return "sense " + m.Square.String()
}

func (m Move) String() string {
	if m.Move.IsNull() {
		return "move pass"
	}
	return "move " + m.Move.String()
}

func (m Info) String() string {
	if t := clean(m.Text); t != "" {
		return "info " + t
	}
	return "info"
}

func (m Error) String() string {
	if t := clean(m.Text); t != "" {
		return "error " + t
	}
	return "error"
}

// --- parsing --------------------------------------------------------------

// ErrSyntax is wrapped by every parse error, so callers can tell a malformed
// line from other failures.
var ErrSyntax = errors.New("rbcp: malformed line")

func syntaxErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, args...))
}

// field is one space-separated token and where the rest of the line after it starts.
type field struct {
	text string
	rest int // index just past the token
}

// lexer splits a line on spaces and tabs only (never other Unicode spaces), so
// that tokens and rest-of-line text agree with each other.
type lexer struct {
	line   string
	fields []field
}

func newLexer(line string) (*lexer, error) {
	line = strings.TrimSuffix(line, "\r")
	if len(line) > MaxLineBytes {
		return nil, syntaxErr("line longer than %d bytes", MaxLineBytes)
	}
	if !utf8.ValidString(line) {
		return nil, syntaxErr("not UTF-8")
	}
	for i := 0; i < len(line); i++ {
		if c := line[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return nil, syntaxErr("control character 0x%02x at byte %d", c, i)
		}
	}
	lx := &lexer{line: line}
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			lx.fields = append(lx.fields, field{line[i:j], j})
		}
		i = j
	}
	if len(lx.fields) == 0 {
		return nil, syntaxErr("empty line")
	}
	return lx, nil
}

// restAfter returns the text after field i, trimmed of spaces and tabs.
func (lx *lexer) restAfter(i int) string {
	return strings.Trim(lx.line[lx.fields[i].rest:], " \t")
}

// words returns the tokens after the keyword.
func (lx *lexer) words() []string {
	w := make([]string, 0, len(lx.fields)-1)
	for _, f := range lx.fields[1:] {
		w = append(w, f.text)
	}
	return w
}

// ParseRequest reads one line sent by a harness. Errors wrap ErrSyntax.
func ParseRequest(line string) (Request, error) {
	lx, err := newLexer(line)
	if err != nil {
		return nil, err
	}
	kw, w := lx.fields[0].text, lx.words()
	switch kw {
	case "rbcp":
		if len(w) != 1 {
			return nil, syntaxErr("rbcp wants one version number")
		}
		v, err := parseVersion(w[0])
		if err != nil {
			return nil, err
		}
		return Hello{v}, nil
	case "setoption":
		if len(w) < 3 || w[0] != "name" || w[2] != "value" {
			return nil, syntaxErr("want: setoption name NAME value [VALUE]")
		}
		return SetOption{Name: w[1], Value: lx.restAfter(3)}, nil
	case "isready":
		if len(w) != 0 {
			return nil, syntaxErr("isready takes no arguments")
		}
		return IsReady{}, nil
	case "newgame":
		return parseNewGame(lx)
	case "opponentmove":
		if len(w) != 2 || w[0] != "capture" {
			return nil, syntaxErr("want: opponentmove capture SQUARE|-")
		}
		s, err := parseOptSquare(w[1])
		if err != nil {
			return nil, err
		}
		return OpponentMove{s}, nil
	case "choosesense":
		return parseChooseSense(w)
	case "senseresult":
		return parseSenseResult(w)
	case "choosemove":
		if len(w) < 3 || w[0] != "time" || w[2] != "moves" {
			return nil, syntaxErr("want: choosemove time SECONDS moves [MOVE...]")
		}
		t, err := parseSeconds(w[1])
		if err != nil {
			return nil, err
		}
		ms, err := parseMoves(w[3:])
		if err != nil {
			return nil, err
		}
		return ChooseMove{SecondsLeft: t, Moves: ms}, nil
	case "moveresult":
		if len(w) != 6 || w[0] != "requested" || w[2] != "taken" || w[4] != "capture" {
			return nil, syntaxErr("want: moveresult requested MOVE taken MOVE capture SQUARE|-")
		}
		req, err := parseMove(w[1])
		if err != nil {
			return nil, err
		}
		taken, err := parseMove(w[3])
		if err != nil {
			return nil, err
		}
		c, err := parseOptSquare(w[5])
		if err != nil {
			return nil, err
		}
		return MoveResult{Requested: req, Taken: taken, Capture: c}, nil
	case "gameend":
		return parseGameEnd(w)
	case "quit":
		if len(w) != 0 {
			return nil, syntaxErr("quit takes no arguments")
		}
		return Quit{}, nil
	}
	return nil, syntaxErr("unknown request %q", truncate(kw))
}

// ParseReply reads one line sent by an engine. Errors wrap ErrSyntax.
func ParseReply(line string) (Reply, error) {
	lx, err := newLexer(line)
	if err != nil {
		return nil, err
	}
	kw, w := lx.fields[0].text, lx.words()
	switch kw {
	case "id":
		if len(w) < 2 || (w[0] != "name" && w[0] != "author") {
			return nil, syntaxErr("want: id name|author TEXT")
		}
		return ID{Key: w[0], Value: lx.restAfter(1)}, nil
	case "option":
		return parseOption(w)
	case "rbcpok":
		if len(w) != 1 {
			return nil, syntaxErr("rbcpok wants one version number")
		}
		v, err := parseVersion(w[0])
		if err != nil {
			return nil, err
		}
		return HelloOK{v}, nil
	case "readyok", "ok":
		if len(w) != 0 {
			return nil, syntaxErr("%s takes no arguments", kw)
		}
		if kw == "ok" {
			return OK{}, nil
		}
		return ReadyOK{}, nil
	case "sense":
		if len(w) != 1 {
			return nil, syntaxErr("want: sense SQUARE|pass")
		}
		if w[0] == "pass" {
			return Sense{chess.NoSquare}, nil
		}
		s, err := parseSquare(w[0])
		if err != nil {
			return nil, err
		}
		return Sense{s}, nil
	case "move":
		if len(w) != 1 {
			return nil, syntaxErr("want: move MOVE|pass")
		}
		if w[0] == "pass" {
			return Move{}, nil
		}
		m, err := parseMove(w[0])
		if err != nil {
			return nil, err
		}
		return Move{m}, nil
	case "info":
		return Info{lx.restAfter(0)}, nil
	case "error":
		return Error{lx.restAfter(0)}, nil
	}
	return nil, syntaxErr("unknown reply %q", truncate(kw))
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func parseVersion(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 || v > 1_000_000 {
		return 0, syntaxErr("bad protocol version %q", truncate(s))
	}
	return v, nil
}

func parseSquare(s string) (chess.Square, error) {
	sq, err := chess.ParseSquare(s)
	if err != nil {
		return chess.NoSquare, syntaxErr("bad square %q", truncate(s))
	}
	return sq, nil
}

func parseOptSquare(s string) (chess.Square, error) {
	if s == "-" {
		return chess.NoSquare, nil
	}
	return parseSquare(s)
}

func parseMove(s string) (chess.Move, error) {
	m, err := chess.ParseMove(s)
	if err != nil {
		return chess.Move{}, syntaxErr("bad move %q", truncate(s))
	}
	return m, nil
}

func parseMoves(w []string) ([]chess.Move, error) {
	ms := make([]chess.Move, 0, len(w))
	for _, s := range w {
		m, err := parseMove(s)
		if err != nil {
			return nil, err
		}
		if m.IsNull() {
			return nil, syntaxErr("the null move is not a move action (a pass is always allowed)")
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// parseSeconds reads a clock reading in seconds, rounded to the millisecond
// (the precision the protocol writes), so that parse and format agree.
func parseSeconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.Abs(f) > maxSeconds {
		return 0, syntaxErr("bad seconds %q", truncate(s))
	}
	return time.Duration(math.Round(f*1000)) * time.Millisecond, nil
}

func parseNewGame(lx *lexer) (Request, error) {
	w := lx.words()
	const want = "want: newgame color white|black fen FEN opponent NAME"
	if len(w) < 4 || w[0] != "color" || w[2] != "fen" {
		return nil, syntaxErr(want)
	}
	c, err := chess.ParseColor(w[1])
	if err != nil || (w[1] != "white" && w[1] != "black") {
		return nil, syntaxErr("bad colour %q", truncate(w[1]))
	}
	end := -1
	for i := 3; i < len(w); i++ {
		if w[i] == "opponent" {
			end = i
			break
		}
	}
	if end < 0 || end == 3 {
		return nil, syntaxErr(want)
	}
	fen := strings.Join(w[3:end], " ")
	if _, err := chess.ParseFEN(fen); err != nil {
		return nil, syntaxErr("bad FEN: %v", err)
	}
	name := lx.restAfter(end + 1) // fields are 1-based here: w[i] is field i+1
	if name == "" {
		return nil, syntaxErr("missing opponent name")
	}
	return NewGame{Color: c, FEN: fen, Opponent: name}, nil
}

func parseChooseSense(w []string) (Request, error) {
	const want = "want: choosesense time SECONDS [senses SQUARE...] [moves MOVE...]"
	if len(w) < 2 || w[0] != "time" {
		return nil, syntaxErr(want)
	}
	t, err := parseSeconds(w[1])
	if err != nil {
		return nil, err
	}
	m := ChooseSense{SecondsLeft: t}
	rest := w[2:]
	if len(rest) > 0 && rest[0] == "senses" {
		i := 1
		for i < len(rest) && rest[i] != "moves" {
			i++
		}
		m.Senses = make([]chess.Square, 0, i-1)
		for _, s := range rest[1:i] {
			sq, err := parseSquare(s)
			if err != nil {
				return nil, err
			}
			m.Senses = append(m.Senses, sq)
		}
		rest = rest[i:]
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, syntaxErr(want)
		}
		if m.Moves, err = parseMoves(rest[1:]); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func parseSenseResult(w []string) (Request, error) {
	if len(w) > 9 {
		return nil, syntaxErr("a sense result has at most 9 squares, got %d", len(w))
	}
	res := make([]rbc.SquarePiece, 0, len(w))
	var seen chess.Bitboard
	for _, t := range w {
		sqs, ps, ok := strings.Cut(t, ":")
		if !ok || len(ps) != 1 {
			return nil, syntaxErr("bad sense entry %q: want SQUARE:PIECE or SQUARE:-", truncate(t))
		}
		sq, err := parseSquare(sqs)
		if err != nil {
			return nil, err
		}
		if seen.Has(sq) {
			return nil, syntaxErr("square %s listed twice", sq)
		}
		seen |= sq.Bit()
		p := chess.NoPiece
		if ps != "-" {
			if p, err = chess.ParsePiece(ps[0]); err != nil {
				return nil, syntaxErr("bad piece %q", ps)
			}
		}
		res = append(res, rbc.SquarePiece{Square: sq, Piece: p})
	}
	return SenseResult{res}, nil
}

func parseGameEnd(w []string) (Request, error) {
	if len(w) != 4 || w[0] != "winner" || w[2] != "reason" {
		return nil, syntaxErr("want: gameend winner white|black|none reason REASON|none")
	}
	var m GameEnd
	switch w[1] {
	case "white":
		m.Winner, m.HasWinner = chess.White, true
	case "black":
		m.Winner, m.HasWinner = chess.Black, true
	case "none":
	default:
		return nil, syntaxErr("bad winner %q", truncate(w[1]))
	}
	if w[3] != "none" {
		r, err := rbc.ParseWinReason(w[3])
		if err != nil {
			return nil, syntaxErr("bad reason %q", truncate(w[3]))
		}
		m.Reason = r
	}
	return m, nil
}

func parseOption(w []string) (Reply, error) {
	const want = "want: option name NAME type TYPE [default VALUE] [min N max N] [var VALUE]..."
	if len(w) < 4 || w[0] != "name" || w[2] != "type" {
		return nil, syntaxErr(want)
	}
	o := Option{Name: w[1], Type: w[3]}
	switch o.Type {
	case "check", "spin", "combo", "string":
	default:
		return nil, syntaxErr("bad option type %q", truncate(o.Type))
	}
	rest := w[4:]
	if len(rest) >= 2 && rest[0] == "default" {
		o.Default, o.HasDefault = rest[1], true
		rest = rest[2:]
	}
	if o.Type == "spin" {
		if len(rest) < 4 || rest[0] != "min" || rest[2] != "max" {
			return nil, syntaxErr("a spin option needs min and max")
		}
		var err1, err2 error
		o.Min, err1 = strconv.Atoi(rest[1])
		o.Max, err2 = strconv.Atoi(rest[3])
		if err1 != nil || err2 != nil || o.Min > o.Max {
			return nil, syntaxErr("bad spin range")
		}
		rest = rest[4:]
	}
	for len(rest) > 0 {
		if len(rest) < 2 || rest[0] != "var" {
			return nil, syntaxErr(want)
		}
		o.Vars = append(o.Vars, rest[1])
		rest = rest[2:]
	}
	if o.Type == "check" && o.HasDefault && o.Default != "true" && o.Default != "false" {
		return nil, syntaxErr("a check option's default is true or false")
	}
	return o, nil
}
