// Package terminal lets a person play Reconnaissance Blind Chess in a text
// terminal (blindfish play), so that anyone can feel how a bot plays: Player
// is an rbc.Player whose senses and moves are typed, and which shows only
// what its side may know; Play referees one game between a person and a bot
// under chess clocks.
package terminal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// Player is an rbc.Player that asks a person: it shows what that side may
// know — its own pieces, its last sense window and where it was captured —
// and reads senses and moves as text. Typing "help" at a prompt explains
// what may be entered; the end of the input resigns.
type Player struct {
	in    <-chan string
	out   io.Writer
	color chess.Color
	own   chess.Board // only our pieces are ever placed on it
	sense []rbc.SquarePiece
	lost  chess.Square // where our piece was just captured, or NoSquare
	turn  int
	// resigned says why the person resigned ("end of input", "by command"),
	// "" while they have not. It is written only by the callback that
	// returns the resignation, before the referee ends the game.
	resigned string
}

// NewPlayer returns a player reading the person's lines from in and writing
// to out. It reads in from a goroutine that ends with the input (on a
// terminal, when the process exits), so that a prompt can give up when the
// clock runs out.
func NewPlayer(in io.Reader, out io.Writer) *Player {
	return &Player{in: readLines(in), out: out, lost: chess.NoSquare}
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
var errEndOfInput = errors.New("terminal: resigned: end of input")

// errResigned is the human's resignation by command.
var errResigned = errors.New("resigned")

// HandleGameStart keeps our own pieces of the starting board.
func (h *Player) HandleGameStart(ctx context.Context, color chess.Color, board chess.Board, opponentName string) error {
	h.color = color
	h.own = board
	for s := chess.Square(0); s < 64; s++ {
		if p := h.own.PieceAt(s); p != chess.NoPiece && p.Color() != color {
			h.own.SetPiece(s, chess.NoPiece)
		}
	}
	fmt.Fprintf(h.out, "Opponent: %s.\n", opponentName)
	return nil
}

// HandleOpponentMoveResult reports a capture of one of our pieces.
func (h *Player) HandleOpponentMoveResult(ctx context.Context, capturedMyPiece bool, captureSquare chess.Square) error {
	h.turn++
	h.lost = chess.NoSquare
	fmt.Fprintf(h.out, "\n=== Your turn %d ===\n", h.turn)
	if capturedMyPiece && captureSquare.Valid() {
		p := h.own.PieceAt(captureSquare)
		fmt.Fprintf(h.out, "The opponent captured your %s on %s.\n", pieceName(p), captureSquare)
		h.own.SetPiece(captureSquare, chess.NoPiece)
		h.lost = captureSquare
	} else if h.turn > 1 || h.color == chess.Black {
		fmt.Fprintln(h.out, "The opponent moved; none of your pieces was captured.")
	}
	return nil
}

// ChooseSense asks for the centre of the sense window.
func (h *Player) ChooseSense(ctx context.Context, senseActions []chess.Square, moveActions []chess.Move, secondsLeft time.Duration) (chess.Square, error) {
	h.draw()
	fmt.Fprintf(h.out, "Your clock: %s\n", clockText(secondsLeft))
	for {
		line, err := h.ask(ctx, "sense (a square such as e5, 'pass' or 'help')> ")
		if err != nil {
			return chess.NoSquare, err
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "pass":
			return chess.NoSquare, nil
		case "help", "?":
			fmt.Fprintln(h.out, "Name a square: you will see the 3×3 window around it (fewer squares at the edge:")
			fmt.Fprintln(h.out, "a corner shows 4, an edge 6), or 'pass' to sense nothing. 'board' redraws the board,")
			fmt.Fprintln(h.out, "'resign' gives up.")
			continue
		case "board":
			h.draw()
			continue
		case "resign", "quit":
			return chess.NoSquare, h.resign(errResigned)
		}
		s, err := chess.ParseSquare(strings.ToLower(line))
		if err != nil || !slices.Contains(senseActions, s) {
			fmt.Fprintf(h.out, "%q is not a square: give one such as e5, or 'pass'.\n", line)
			continue
		}
		return s, nil
	}
}

// HandleSenseResult shows the window.
func (h *Player) HandleSenseResult(ctx context.Context, result []rbc.SquarePiece) error {
	h.sense = slices.Clone(result)
	if len(result) == 0 {
		fmt.Fprintln(h.out, "You did not sense.")
		return nil
	}
	var parts []string
	for _, sp := range result {
		if sp.Piece != chess.NoPiece && sp.Piece.Color() != h.color {
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
func (h *Player) ChooseMove(ctx context.Context, moveActions []chess.Move, secondsLeft time.Duration) (chess.Move, error) {
	fmt.Fprintf(h.out, "Your clock: %s\n", clockText(secondsLeft))
	for {
		line, err := h.ask(ctx, "move (UCI such as e2e4, 'pass' or 'help')> ")
		if err != nil {
			return chess.Move{}, err
		}
		switch strings.ToLower(line) {
		case "":
			continue
		case "pass":
			return chess.Move{}, nil
		case "help", "?":
			h.listActions(moveActions)
			continue
		case "board":
			h.draw()
			continue
		case "resign", "quit":
			return chess.Move{}, h.resign(errResigned)
		}
		m, msg := h.parseMove(strings.ToLower(line), moveActions)
		if msg != "" {
			fmt.Fprintln(h.out, msg)
			continue
		}
		return m, nil
	}
}

// HandleMoveResult reports what became of the request and moves our piece.
func (h *Player) HandleMoveResult(ctx context.Context, requested, taken chess.Move, capturedOpponentPiece bool, captureSquare chess.Square) error {
	switch {
	case requested.IsNull():
		fmt.Fprintln(h.out, "You passed.")
	case taken.IsNull():
		fmt.Fprintf(h.out, "You requested %s: it was not possible on the real board, so no move was made.\n", requested)
	case taken != requested && taken != (chess.Move{From: requested.From, To: requested.To, Promotion: chess.Queen}):
		fmt.Fprintf(h.out, "You requested %s: it was revised to %s.\n", requested, taken)
	default:
		fmt.Fprintf(h.out, "You played %s.\n", taken)
	}
	if capturedOpponentPiece {
		fmt.Fprintf(h.out, "You captured a piece on %s.\n", captureSquare)
	}
	if !taken.IsNull() {
		p := h.own.PieceAt(taken.From)
		h.own.SetPiece(taken.From, chess.NoPiece)
		if taken.Promotion != chess.NoPieceType {
			p = chess.MakePiece(h.color, taken.Promotion)
		}
		h.own.SetPiece(taken.To, p)
		if p.Type() == chess.King && (taken.To-taken.From == 2 || taken.From-taken.To == 2) {
			rookFrom, rookTo := taken.To+1, taken.To-1
			if taken.To < taken.From {
				rookFrom, rookTo = taken.To-2, taken.To+1
			}
			h.own.SetPiece(rookTo, h.own.PieceAt(rookFrom))
			h.own.SetPiece(rookFrom, chess.NoPiece)
		}
	}
	return nil
}

// resign records why the person resigned and returns err, the callback's
// error that makes the referee end the game.
func (h *Player) resign(err error) error {
	h.resigned = "by command"
	if errors.Is(err, errEndOfInput) {
		h.resigned = "end of input"
	}
	return err
}

// HandleGameEnd shows the result and the true final board. A loss of our
// own making (a resignation, our clock) is told in plain words: the
// referee's detail then only names our own callback and its error.
func (h *Player) HandleGameEnd(ctx context.Context, outcome rbc.Outcome, history *rbc.History) error {
	fmt.Fprintln(h.out)
	lost := outcome.HasWinner && outcome.Winner != h.color
	switch {
	case !outcome.HasWinner:
		fmt.Fprintf(h.out, "Draw by %s.\n", outcome.Reason)
	case outcome.Winner == h.color:
		fmt.Fprintf(h.out, "You win by %s.\n", outcome.Reason)
	case outcome.Reason == rbc.Resign && h.resigned == "by command":
		fmt.Fprintln(h.out, "You lose: you resigned.")
	case outcome.Reason == rbc.Resign && h.resigned != "":
		fmt.Fprintf(h.out, "You lose: you resigned (%s).\n", h.resigned)
	case outcome.Reason == rbc.Timeout:
		fmt.Fprintln(h.out, "You lose on time: your clock ran out.")
	default:
		fmt.Fprintf(h.out, "You lose by %s.\n", outcome.Reason)
	}
	ownLoss := lost && (outcome.Reason == rbc.Timeout || outcome.Reason == rbc.Resign && h.resigned != "")
	if outcome.Detail != "" && !ownLoss {
		fmt.Fprintf(h.out, "(%s)\n", outcome.Detail)
	}
	if fen := lastFEN(history); fen != "" {
		if b, err := chess.ParseFEN(fen); err == nil {
			fmt.Fprintln(h.out, "The real board at the end:")
			fmt.Fprint(h.out, renderBoard(h.color, func(s chess.Square) string {
				if p := b.PieceAt(s); p != chess.NoPiece {
					return " " + string(p.Symbol()) + " "
				}
				return " . "
			}))
		}
	}
	return nil
}

// ask prompts and waits for a line, the end of input or the end of ctx (our
// clock ran out).
func (h *Player) ask(ctx context.Context, prompt string) (string, error) {
	fmt.Fprint(h.out, prompt)
	select {
	case line, ok := <-h.in:
		if !ok {
			fmt.Fprintln(h.out, "\nEnd of input: you resign.")
			return "", h.resign(errEndOfInput)
		}
		return strings.TrimSpace(line), nil
	case <-ctx.Done():
		fmt.Fprintln(h.out, "\nYour time is up.")
		return "", ctx.Err()
	}
}
