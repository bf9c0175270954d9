package main

import (
	"context"
	"errors"
	"io"
)

// runBelief is being written; see the open issue for the command.
func runBelief(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("belief: not built yet")
}
