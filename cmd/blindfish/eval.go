package main

import (
	"context"
	"io"
	"log/slog"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/evaluator"
)

// runEval scores one position for its side to move, and optionally one
// requested move, exactly as the player would: the guard first, then
// Stockfish or the embedded search, and for a move the harness's resolution
// on this board followed by the RBC move score. It accepts every board RBC
// can produce, including those that crash Stockfish.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", "--fen FEN [--depth N | --nodes N | --movetime D] [--move UCI] [--engine auto|stockfish|embedded]", stderr)
	fen := fs.String("fen", "", "the position (FEN; the move counters may be left out)")
	depth := fs.Int("depth", 0, "search depth in plies (default: the evaluator's own, Stockfish 8, embedded 3)")
	nodes := fs.Int64("nodes", 0, "search node limit")
	movetime := fs.Duration("movetime", 0, "search time limit, e.g. 200ms")
	moveFlag := fs.String("move", "", "a requested move in UCI form (e.g. e2e4, a7a8q; 0000 to pass): print its RBC move score")
	engine := fs.String("engine", "auto", "evaluator: auto (Stockfish if found, else embedded), stockfish or embedded")
	verbose := fs.Bool("v", false, "log the evaluator's decisions to stderr")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *fen == "" {
		return usageError{"--fen is required"}
	}
	set := 0
	for _, on := range []bool{*depth != 0, *nodes != 0, *movetime != 0} {
		if on {
			set++
		}
	}
	if set > 1 {
		return usageError{"give at most one of --depth, --nodes and --movetime"}
	}
	if *depth < 0 || *nodes < 0 || *movetime < 0 {
		return usageError{"--depth, --nodes and --movetime must not be negative"}
	}
	kind, err := evaluator.ParseKind(*engine)
	if err != nil {
		return usageError{err.Error()}
	}

	board, err := chess.ParsePosition(*fen)
	if err != nil {
		return err
	}
	if *moveFlag != "" {
		if _, err := evaluator.ParseRequest(board, *moveFlag); err != nil {
			return err
		}
	}

	log := newLogger(stderr, slog.LevelWarn, *verbose)
	ev, err := evaluator.Open(ctx, kind, evaluator.OpenConfig{Engines: 1, Logger: log})
	if err != nil {
		return err
	}
	defer func() {
		if cerr := ev.Close(); cerr != nil {
			log.Warn("closing the evaluator", "err", cerr)
		}
	}()
	lim := evaluator.Limits{Depth: *depth, Nodes: *nodes, MoveTime: *movetime}
	return evaluator.Explain(ctx, stdout, ev, board, lim, *moveFlag)
}
