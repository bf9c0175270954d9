package main

import (
	"context"
	"errors"
	"io"
)

// runEval is being written; see the open issue for the command.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("eval: not built yet")
}
