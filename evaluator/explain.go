package evaluator

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// ParseRequest reads a requested move in UCI form (e2e4, a7a8q; 0000 to
// pass) and checks that the harness would accept it on board: a pass, or
// a move action of the side to move.
func ParseRequest(board chess.Board, s string) (chess.Move, error) {
	requested, err := chess.ParseMove(s)
	if err != nil {
		return requested, err
	}
	if req := rbc.WithQueenDefault(&board, requested); !req.IsNull() && !board.IsMoveAction(req) {
		return requested, fmt.Errorf("%v is not a move action of %s on this board (the harness would reject it)", requested, board.Turn())
	}
	return requested, nil
}

// Explain scores board for its side to move with ev at lim and prints, as
// `blindfish eval` does, the guard's verdict and the score with where it
// came from. With a request (ParseRequest's form; "" for none) it then
// prints the harness's resolution of that move on this board and its RBC
// move score, as the player would score it.
func Explain(ctx context.Context, w io.Writer, ev Evaluator, board chess.Board, lim Limits, request string) error {
	var requested chess.Move
	if request != "" {
		var err error
		if requested, err = ParseRequest(board, request); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "evaluator: %s\n", ev.Name())
	fmt.Fprintf(w, "position:  %s\n", board.FEN())
	fmt.Fprintf(w, "guard:     %s\n", Guard(&board))
	fmt.Fprintf(w, "limits:    %s\n", lim)

	start := time.Now()
	score, err := ev.Evaluate(ctx, board, lim)
	if err != nil {
		return fmt.Errorf("evaluating the position: %w", err)
	}
	fmt.Fprintf(w, "score:     %s (%s to move; value %d; %s)\n", score, board.Turn(), score.Value(), describeSource(score, time.Since(start)))

	if request == "" {
		return nil
	}
	scorer := NewMoveScorer(ev, DefaultMoveTerms(), 16)
	start = time.Now()
	ms, err := scorer.ScoreRequest(ctx, board, requested, lim)
	if err != nil {
		return fmt.Errorf("scoring %v: %w", requested, err)
	}
	taken := ms.Taken.String()
	if ms.Taken.IsNull() {
		taken = "no move (pass)"
	}
	if ms.Capture != chess.NoSquare {
		taken += fmt.Sprintf(", captures on %s", ms.Capture)
	}
	fmt.Fprintf(w, "move:      %s requested, taken: %s\n", request, taken)
	detail := ms.Kind.String()
	if ms.Kind == MoveEngine || ms.Kind == MoveMates || ms.Kind == MoveMated {
		detail += fmt.Sprintf("; after it, %s to move: %s, %s", board.Turn().Other(), ms.After, describeSource(ms.After, time.Since(start)))
	}
	_, err = fmt.Fprintf(w, "move score: %+d for %s (%s)\n", ms.Value, board.Turn(), detail)
	return err
}

// describeSource says who produced a score, how, and how long it took.
func describeSource(s Score, took time.Duration) string {
	return s.Provenance() + ", " + took.Round(10*time.Microsecond).String()
}
