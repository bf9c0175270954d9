package uci

import (
	"context"
	"errors"
	"fmt"
)

// Sentinel errors returned (wrapped) by the client. Test them with errors.Is.
var (
	// ErrEngineDied reports that the engine process exited or closed its
	// output unexpectedly (for example a segmentation fault mid-search).
	ErrEngineDied = errors.New("uci: engine died")
	// ErrTimeout reports that the call's context deadline (or the client's
	// command timeout) passed before the engine answered. Errors wrapping it
	// also wrap context.DeadlineExceeded.
	ErrTimeout = errors.New("uci: timeout")
	// ErrCanceled reports that the call's context was canceled. Errors
	// wrapping it also wrap context.Canceled.
	ErrCanceled = errors.New("uci: canceled")
	// ErrProtocol reports output from the engine that violates the protocol
	// or cannot be parsed.
	ErrProtocol = errors.New("uci: protocol error")
	// ErrStart reports that the engine process could not be started.
	ErrStart = errors.New("uci: cannot start engine")
	// ErrClosed reports a call on a client that has been closed.
	ErrClosed = errors.New("uci: client closed")
	// ErrInvalidArgument reports an argument the client refuses to send,
	// such as a FEN containing a newline, a malformed move or an unknown
	// option name.
	ErrInvalidArgument = errors.New("uci: invalid argument")
)

// contextError converts the end of ctx into ErrTimeout or ErrCanceled, also
// wrapping the context's own error.
func contextError(ctx context.Context, what string) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %s: %w", ErrTimeout, what, context.DeadlineExceeded)
	}
	return fmt.Errorf("%w: %s: %w", ErrCanceled, what, ctx.Err())
}
