package main

import (
	"context"
	"errors"
	"io"
)

// runMatch is being written; see the open issue for the command.
func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return errors.New("match: not built yet")
}
