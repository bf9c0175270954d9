// Package shutdown ends a program's long-running games in two steps, as
// the tournament clients do: the first interrupt stops new games and lets
// the running ones finish, a second one abandons them.
package shutdown

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// Games returns the context games run under: the first SIGINT/SIGTERM
// ends ctx (the program's own handler, signal.NotifyContext), after which
// no new games start and the running ones finish; a second one ends the
// returned context, which abandons them. shuttingDown is logged when ctx
// ends. Call the returned function when done.
func Games(ctx context.Context, log *slog.Logger, shuttingDown string) (context.Context, func()) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	gameCtx, stop := games(ctx, log, shuttingDown, sigs)
	return gameCtx, func() { signal.Stop(sigs); stop() }
}

// games is Games with the signals read from sigs.
func games(ctx context.Context, log *slog.Logger, shuttingDown string, sigs <-chan os.Signal) (context.Context, context.CancelFunc) {
	gameCtx, abandon := context.WithCancel(context.WithoutCancel(ctx))
	go func() {
		select {
		case <-ctx.Done():
		case <-gameCtx.Done():
			return
		}
		log.Info(shuttingDown)
		seen := 0
		for {
			select {
			case <-sigs:
				if seen++; seen >= 2 { // the first was the one that ended ctx
					log.Warn("abandoning the running games")
					abandon()
					return
				}
			case <-gameCtx.Done():
				return
			}
		}
	}()
	return gameCtx, abandon
}
