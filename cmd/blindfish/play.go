package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/rbc"
)

// playConfig is a parsed play command line.
type playConfig struct {
	color         rbc.Color
	bot           string
	initial, incr time.Duration
	seed          int64
	out           string
	logger        *slog.Logger
}

// runPlay lets a person play one game against a bot in the terminal, under
// the referee and its clocks, so that anyone can feel how a bot plays.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("play", "[--color white|black|random] [--bot SPEC] [--clock 900+5] [--seed S] [--out DIR]", stderr)
	color := fs.String("color", "white", "your colour: white, black or random")
	bot := fs.String("bot", "blindfish", "the bot you play against (a bot spec, as for match)")
	clock := fs.String("clock", "900+5", "each clock as INITIAL+INCREMENT in seconds")
	seed := fs.Int64("seed", 0, "seed of the bot's random choices (0: a random seed)")
	out := fs.String("out", "", "directory to save the game record in (\"\": not saved)")
	verbose := fs.Bool("v", false, "log the referee's and the bot's details to stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	cfg := playConfig{bot: *bot, seed: *seed, out: *out}
	switch *color {
	case "random":
		cfg.color = rbc.Color(rand.IntN(2))
	default:
		c, err := rbc.ParseColor(*color)
		if err != nil {
			return usageError{err.Error()}
		}
		cfg.color = c
	}
	var err error
	if cfg.initial, cfg.incr, err = parseClock(*clock); err != nil {
		return usageError{err.Error()}
	}
	if cfg.seed == 0 {
		cfg.seed = rand.Int64()
	}
	level := slog.LevelError
	if *verbose {
		level = slog.LevelDebug
	}
	cfg.logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	_, err = playHuman(ctx, cfg, os.Stdin, stdout)
	return err
}

// playHuman plays one game between a person reading in and writing to out
// and the bot cfg.bot, and returns its record.
func playHuman(ctx context.Context, cfg playConfig, in io.Reader, out io.Writer) (*rbc.History, error) {
	bot, err := newBot(cfg.bot, cfg.seed)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	defer closePlayer(bot, cfg.logger)
	lines := readLines(in)
	human := newHumanPlayer(lines, out)
	opts := rbc.DefaultOptions()
	opts.InitialTime, opts.Increment = cfg.initial, cfg.incr
	opts.Logger = cfg.logger
	white, black := rbc.Player(human), bot
	opts.WhiteName, opts.BlackName = "you", cfg.bot
	if cfg.color == rbc.Black {
		white, black = bot, human
		opts.WhiteName, opts.BlackName = cfg.bot, "you"
	}
	fmt.Fprintf(out, "You play %s against %s, clock %s+%s s.\n", cfg.color, cfg.bot, seconds(cfg.initial), seconds(cfg.incr))
	fmt.Fprintln(out, "Type 'help' at any prompt for what you can enter; end of input resigns.")
	res, err := rbc.PlayLocalGame(ctx, white, black, opts)
	if err != nil {
		return nil, err
	}
	h := res.History
	if cfg.out != "" {
		if err := os.MkdirAll(cfg.out, 0o755); err != nil {
			return h, fmt.Errorf("create the records directory: %w", err)
		}
		name := filepath.Join(cfg.out, recordName(opts.WhiteName, opts.BlackName, cfg.seed, 0, 1))
		if err := rbc.SaveHistoryFile(name, h); err != nil {
			return h, err
		}
		fmt.Fprintf(out, "Game record saved to %s\n", name)
	}
	return h, nil
}

// readLines delivers the lines of r on a channel, closed at the end of input
// (or on a read error). The goroutine ends with the input; on a terminal
// that is when the process exits.
func readLines(r io.Reader) <-chan string {
	ch := make(chan string)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// errEndOfInput is the human's resignation when the input ends.
var errEndOfInput = errors.New("resigned: end of input")

// errResigned is the human's resignation by command.
var errResigned = errors.New("resigned")

// humanPlayer is an rbc.Player that asks a person: it shows what that side
// may know — its own pieces, its last sense window and where it was captured
// — and reads senses and moves as text.
type humanPlayer struct {
	in    <-chan string
	out   io.Writer
	color rbc.Color
	own   rbc.Board // only our pieces are ever placed on it
	sense []rbc.SquarePiece
	lost  rbc.Square // where our piece was just captured, or NoSquare
	turn  int
}

func newHumanPlayer(in <-chan string, out io.Writer) *humanPlayer {
	return &humanPlayer{in: in, out: out, lost: rbc.NoSquare}
}

// HandleGameStart keeps our own pieces of the starting board.
func (h *humanPlayer) HandleGameStart(ctx context.Context, color rbc.Color, board rbc.Board, opponentName string) error {
	h.color = color
	h.own = board
	for s := rbc.Square(0); s < 64; s++ {
		if p := h.own.PieceAt(s); p != rbc.NoPiece && p.Color() != color {
			h.own.SetPiece(s, rbc.NoPiece)
		}
	}
	fmt.Fprintf(h.out, "Opponent: %s.\n", opponentName)
	return nil
}

// HandleOpponentMoveResult reports a capture of one of our pieces.
func (h *humanPlayer) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare rbc.Square) error {
	h.turn++
	h.lost = rbc.NoSquare
	fmt.Fprintf(h.out, "\n=== Your turn %d ===\n", h.turn)
	if capturedMyPiece && captureSquare.Valid() {
		p := h.own.PieceAt(captureSquare)
		fmt.Fprintf(h.out, "The opponent captured your %s on %s.\n", pieceName(p), captureSquare)
		h.own.SetPiece(captureSquare, rbc.NoPiece)
		h.lost = captureSquare
	} else if h.turn > 1 || h.color == rbc.Black {
		fmt.Fprintln(h.out, "The opponent moved; none of your pieces was captured.")
	}
	return nil
}

// ChooseSense asks for the centre of the sense window.
func (h *humanPlayer) ChooseSense(ctx context.Context, senseActions []rbc.Square, moveActions []rbc.Move, secondsLeft time.Duration) (rbc.Square, error) {
	h.draw()
	fmt.Fprintf(h.out, "Your clock: %s\n", clockText(secondsLeft))
	for {
		line, err := h.ask(ctx, "sense (a square such as e5, 'pass' or 'help')> ")
		if err != nil {
			return rbc.NoSquare, err
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "pass":
			return rbc.NoSquare, nil
		case "help", "?":
			fmt.Fprintln(h.out, "Name a square: you will see the 3×3 window around it (fewer squares at the edge:")
			fmt.Fprintln(h.out, "a corner shows 4, an edge 6), or 'pass' to sense nothing. 'board' redraws the board,")
			fmt.Fprintln(h.out, "'resign' gives up.")
			continue
		case "board":
			h.draw()
			continue
		case "resign", "quit":
			return rbc.NoSquare, errResigned
		}
		s, err := rbc.ParseSquare(strings.ToLower(line))
		if err != nil || !slices.Contains(senseActions, s) {
			fmt.Fprintf(h.out, "%q is not a square: give one such as e5, or 'pass'.\n", line)
			continue
		}
		return s, nil
	}
}

// HandleSenseResult shows the window.
func (h *humanPlayer) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	h.sense = slices.Clone(result)
	if len(result) == 0 {
		fmt.Fprintln(h.out, "You did not sense.")
		return nil
	}
	var parts []string
	for _, sp := range result {
		if sp.Piece != rbc.NoPiece && sp.Piece.Color() != h.color {
			parts = append(parts, fmt.Sprintf("%s %s", pieceName(sp.Piece), sp.Square))
		}
	}
	if len(parts) == 0 {
		fmt.Fprintln(h.out, "Sense: no opponent piece in the window.")
	} else {
		fmt.Fprintf(h.out, "Sense: opponent's %s.\n", strings.Join(parts, ", "))
	}
	h.draw()
	return nil
}

// ChooseMove asks for a move until it is one of the move actions or a pass.
func (h *humanPlayer) ChooseMove(ctx context.Context, moveActions []rbc.Move, secondsLeft time.Duration) (rbc.Move, error) {
	fmt.Fprintf(h.out, "Your clock: %s\n", clockText(secondsLeft))
	for {
		line, err := h.ask(ctx, "move (UCI such as e2e4, 'pass' or 'help')> ")
		if err != nil {
			return rbc.Move{}, err
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "pass":
			return rbc.Move{}, nil
		case "help", "?":
			h.listActions(moveActions)
			continue
		case "board":
			h.draw()
			continue
		case "resign", "quit":
			return rbc.Move{}, errResigned
		}
		m, msg := h.parseMove(strings.ToLower(line), moveActions)
		if msg != "" {
			fmt.Fprintln(h.out, msg)
			continue
		}
		return m, nil
	}
}

// parseMove reads a move request and checks it against the move actions,
// explaining what is wrong when it is not one.
func (h *humanPlayer) parseMove(text string, actions []rbc.Move) (rbc.Move, string) {
	m, err := rbc.ParseMove(text)
	if err != nil || m.IsNull() {
		return rbc.Move{}, fmt.Sprintf("%q is not a move: write the from and to squares, e.g. e2e4 (e7e8n to promote to a knight), or 'pass'.", text)
	}
	if isAction(actions, m) {
		return m, ""
	}
	p := h.own.PieceAt(m.From)
	if p == rbc.NoPiece {
		return rbc.Move{}, fmt.Sprintf("You have no piece on %s. 'help' lists your move actions.", m.From)
	}
	var from []string
	for _, a := range actions {
		if a.From == m.From {
			from = append(from, a.String())
		}
	}
	if len(from) == 0 {
		return rbc.Move{}, fmt.Sprintf("Your %s on %s has no move actions now.", pieceName(p), m.From)
	}
	return rbc.Move{}, fmt.Sprintf("%s is not one of your move actions. Your %s on %s may request: %s.",
		text, pieceName(p), m.From, strings.Join(from, " "))
}

// isAction reports whether m is a move action, allowing a promotion without
// its piece (the harness promotes to a queen).
func isAction(actions []rbc.Move, m rbc.Move) bool {
	if slices.Contains(actions, m) {
		return true
	}
	return m.Promotion == rbc.NoPieceType && slices.Contains(actions, rbc.Move{From: m.From, To: m.To, Promotion: rbc.Queen})
}

// listActions prints the move actions grouped by piece.
func (h *humanPlayer) listActions(actions []rbc.Move) {
	fmt.Fprintln(h.out, "Your move actions (a request may be revised on the real board: a slider stops at")
	fmt.Fprintln(h.out, "the first enemy piece and takes it; a pawn's diagonal onto an empty square does nothing):")
	var order []rbc.Square
	by := map[rbc.Square][]string{}
	for _, a := range actions {
		if _, ok := by[a.From]; !ok {
			order = append(order, a.From)
		}
		by[a.From] = append(by[a.From], a.To.String()+a.Promotion.String())
	}
	for _, s := range order {
		fmt.Fprintf(h.out, "  %s %s: %s\n", string(h.own.PieceAt(s).Symbol()), s, strings.Join(by[s], " "))
	}
	fmt.Fprintln(h.out, "  or 'pass'.")
}

// HandleMoveResult reports what became of the request and moves our piece.
func (h *humanPlayer) HandleMoveResult(ctx context.Context, requested, taken rbc.Move, capturedOpponentPiece bool, captureSquare rbc.Square) error {
	switch {
	case requested.IsNull():
		fmt.Fprintln(h.out, "You passed.")
	case taken.IsNull():
		fmt.Fprintf(h.out, "You requested %s: it was not possible on the real board, so no move was made.\n", requested)
	case taken != requested && taken != (rbc.Move{From: requested.From, To: requested.To, Promotion: rbc.Queen}):
		fmt.Fprintf(h.out, "You requested %s: it was revised to %s.\n", requested, taken)
	default:
		fmt.Fprintf(h.out, "You played %s.\n", taken)
	}
	if capturedOpponentPiece {
		fmt.Fprintf(h.out, "You captured a piece on %s.\n", captureSquare)
	}
	if !taken.IsNull() {
		p := h.own.PieceAt(taken.From)
		h.own.SetPiece(taken.From, rbc.NoPiece)
		if taken.Promotion != rbc.NoPieceType {
			p = rbc.MakePiece(h.color, taken.Promotion)
		}
		h.own.SetPiece(taken.To, p)
		if p.Type() == rbc.King && (taken.To-taken.From == 2 || taken.From-taken.To == 2) {
			rookFrom, rookTo := taken.To+1, taken.To-1
			if taken.To < taken.From {
				rookFrom, rookTo = taken.To-2, taken.To+1
			}
			h.own.SetPiece(rookTo, h.own.PieceAt(rookFrom))
			h.own.SetPiece(rookFrom, rbc.NoPiece)
		}
	}
	return nil
}

// HandleGameEnd shows the result and the true final board.
func (h *humanPlayer) HandleGameEnd(ctx context.Context, outcome rbc.Outcome, history *rbc.History) error {
	fmt.Fprintln(h.out)
	switch {
	case !outcome.HasWinner:
		fmt.Fprintf(h.out, "Draw by %s.\n", outcome.Reason)
	case outcome.Winner == h.color:
		fmt.Fprintf(h.out, "You win by %s.\n", outcome.Reason)
	default:
		fmt.Fprintf(h.out, "You lose by %s.\n", outcome.Reason)
	}
	if outcome.Detail != "" {
		fmt.Fprintf(h.out, "(%s)\n", outcome.Detail)
	}
	if fen := lastFEN(history); fen != "" {
		if b, err := rbc.ParseFEN(fen); err == nil {
			fmt.Fprintln(h.out, "The real board at the end:")
			fmt.Fprint(h.out, renderBoard(h.color, func(s rbc.Square) string {
				if p := b.PieceAt(s); p != rbc.NoPiece {
					return " " + string(p.Symbol()) + " "
				}
				return " . "
			}))
		}
	}
	return nil
}

// lastFEN returns the true board after the last move of the game.
func lastFEN(h *rbc.History) string {
	if h == nil {
		return ""
	}
	best, n := "", -1
	for c := rbc.White; c <= rbc.Black; c++ {
		for i, t := range h.Turns[c] {
			if k := 2*i + int(c); t.HasMove && k > n {
				best, n = t.FENAfter, k
			}
		}
	}
	return best
}

// ask prompts and waits for a line, the end of input or the end of ctx (our
// clock ran out).
func (h *humanPlayer) ask(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(h.out, prompt)
	select {
	case line, ok := <-h.in:
		if !ok {
			fmt.Fprintln(h.out, "\nEnd of input: you resign.")
			return "", errEndOfInput
		}
		return strings.TrimSpace(line), nil
	case <-ctx.Done():
		fmt.Fprintln(h.out, "\nYour time is up.")
		return "", ctx.Err()
	}
}

// draw prints what we know: our pieces, the last sense window ([p] an enemy
// piece seen, [ ] an empty square seen) and where we were just captured (x).
func (h *humanPlayer) draw() {
	window := map[rbc.Square]rbc.Piece{}
	for _, sp := range h.sense {
		window[sp.Square] = sp.Piece
	}
	fmt.Fprint(h.out, renderBoard(h.color, func(s rbc.Square) string {
		p, seen := window[s]
		if !seen {
			p = h.own.PieceAt(s)
		}
		switch {
		case seen && p == rbc.NoPiece:
			return "[ ]"
		case seen:
			return "[" + string(p.Symbol()) + "]"
		case p != rbc.NoPiece:
			return " " + string(p.Symbol()) + " "
		case s == h.lost:
			return " x "
		}
		return " . "
	}))
	fmt.Fprintln(h.out, "   capitals: White, small: Black; [ ] last sense window; x: you were captured here")
}

// renderBoard draws the board from c's side, a cell of three characters per
// square.
func renderBoard(c rbc.Color, cell func(rbc.Square) string) string {
	var b strings.Builder
	files := "    a  b  c  d  e  f  g  h\n"
	if c == rbc.Black {
		files = "    h  g  f  e  d  c  b  a\n"
	}
	b.WriteString(files)
	for i := range 8 {
		rank := 7 - i
		if c == rbc.Black {
			rank = i
		}
		fmt.Fprintf(&b, " %d ", rank+1)
		for j := range 8 {
			file := j
			if c == rbc.Black {
				file = 7 - j
			}
			b.WriteString(cell(rbc.MakeSquare(file, rank)))
		}
		fmt.Fprintf(&b, " %d\n", rank+1)
	}
	b.WriteString(files)
	return b.String()
}

// pieceName names a piece's type in words.
func pieceName(p rbc.Piece) string {
	switch p.Type() {
	case rbc.Pawn:
		return "pawn"
	case rbc.Knight:
		return "knight"
	case rbc.Bishop:
		return "bishop"
	case rbc.Rook:
		return "rook"
	case rbc.Queen:
		return "queen"
	case rbc.King:
		return "king"
	}
	return "piece"
}

// clockText shows a clock as m:ss.s.
func clockText(d time.Duration) string {
	d = max(d, 0).Round(100 * time.Millisecond)
	m := int(d / time.Minute)
	s := (d - time.Duration(m)*time.Minute).Seconds()
	return fmt.Sprintf("%d:%04.1f", m, s)
}
