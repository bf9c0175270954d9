package rbcclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/listen"
	"github.com/blindfish-rbc/blindfish/rbc"
)

// ListenConfig configures Listen.
type ListenConfig struct {
	Client *Client
	// NewPlayer builds a fresh player for each game.
	NewPlayer func() (rbc.Player, error)
	// Ranked enters us in ranked games; otherwise we play only games we are
	// invited to by name. NewVersion starts a new version of the bot for
	// ranked games (one is started anyway if there is none yet).
	Ranked, NewVersion bool
	// AnyVersion plays on a server whose harness version is not the one
	// this client speaks (with a warning); by default that is an error, as
	// in the reference client: the API may differ.
	AnyVersion bool
	// MaxGames is how many games we play at once (default 4, the reference
	// client's); the server is told so.
	MaxGames int
	// StopAfter ends Listen once this many games are finished (0: never).
	StopAfter int
	// PollInterval is the pause between invitation polls (default 5 s).
	PollInterval time.Duration
	// Play tunes each game.
	Play PlayOptions
	// GameContext is the context the games run under; nil means one that
	// Listen's context does not cancel, so that running games finish after a
	// shutdown request. Cancel it to abandon them (they are error-resigned).
	GameContext context.Context
	// OnGame is called (from the game's goroutine) with each game played to
	// its end, or with the error that ended it.
	OnGame func(inv int, res *Result, err error)
	// Logger receives the listener's progress; nil discards it.
	Logger *slog.Logger
}

// Listen connects as the client's user and plays the games the server
// invites us to until ctx is done (or StopAfter games are finished), as the
// reference rc-connect does: it checks the server's version, sets ranked or
// unranked, tells the server MaxGames, then polls the invitations and plays
// each in its own goroutine, up to MaxGames at once. A game that fails is
// error-resigned; every accepted invitation is finished.
//
// When ctx is done, Listen sets us unranked (so no more ranked games come),
// stops accepting invitations, waits for the running games to finish and
// returns nil. It returns an error only when it cannot start: a server
// version mismatch, bad credentials, a server that cannot be reached.
func Listen(ctx context.Context, cfg ListenConfig) error {
	c := cfg.Client
	if c == nil || cfg.NewPlayer == nil {
		return errors.New("rbcclient: Listen needs a Client and NewPlayer")
	}
	if cfg.MaxGames <= 0 {
		cfg.MaxGames = 4
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 5 * time.Second
	}
	log := listen.Logger(cfg.Logger)
	if cfg.Play.Logger == nil {
		cfg.Play.Logger = log
	}
	gameCtx := listen.GameContext(ctx, cfg.GameContext)

	v, err := c.Version(ctx)
	if err != nil {
		return fmt.Errorf("rbcclient: checking the server's version: %w", err)
	}
	if v != HarnessVersion {
		if !cfg.AnyVersion {
			return fmt.Errorf("rbcclient: the server runs reconchess %s, this client speaks %s's API", v, HarnessVersion)
		}
		log.Warn("the server's reconchess version differs from ours; playing anyway", "server", v, "ours", HarnessVersion)
	}
	if cfg.Ranked {
		bv, err := c.BotVersion(ctx)
		if err != nil {
			return err
		}
		if bv == 0 || cfg.NewVersion {
			if err := c.IncrementVersion(ctx); err != nil {
				return err
			}
			bv++
		}
		if err := c.SetRanked(ctx, true); err != nil {
			return err
		}
		log.Info("playing ranked games", "bot_version", bv)
	} else if err := c.SetRanked(ctx, false); err != nil {
		return err
	}

	l := &listener{cfg: cfg, c: c, log: log, gameCtx: gameCtx}
	l.games = listen.New(listen.Config[int, *Result]{
		MaxGames: cfg.MaxGames, StopAfter: cfg.StopAfter, PollInterval: cfg.PollInterval,
		Poll: l.poll, OnGame: cfg.OnGame,
	})
	l.games.Run(ctx)

	// Shutting down: no more ranked games, then let the running ones end.
	if cfg.Ranked {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		if err := c.SetRanked(uctx, false); err != nil {
			log.Warn("could not set unranked", "err", err)
		}
		cancel()
	}
	l.games.Wait(log)
	return nil
}

// listener is the state of one Listen call: the invitations it plays are
// the shared loop's (protocol/internal/listen), the connection's state is
// its own.
type listener struct {
	cfg     ListenConfig
	c       *Client
	log     *slog.Logger
	gameCtx context.Context
	games   *listen.Loop[int, *Result]

	connected bool // owned by the loop's goroutine
}

// poll reads the invitations once and accepts those there is room for;
// after a failure (or at the start) it says it is connected again and tells
// the server MaxGames.
func (l *listener) poll(ctx context.Context) {
	invs, err := l.c.Invitations(ctx)
	switch {
	case ctx.Err() != nil:
	case err != nil:
		if l.connected {
			l.log.Warn("lost the server; retrying", "err", err)
		}
		l.connected = false
	default:
		if !l.connected {
			l.log.Info("connected", "server", l.c.Server(), "user", l.c.Username())
			if err := l.c.SetMaxGames(ctx, l.cfg.MaxGames); err != nil {
				l.log.Warn("could not set max_games", "err", err)
			} else {
				l.connected = true
			}
		}
		for _, inv := range invs {
			l.maybeAccept(inv)
		}
	}
}

// maybeAccept starts playing invitation inv if there is room for it.
func (l *listener) maybeAccept(inv int) {
	if l.games.Started(inv) {
		return
	}
	if !l.games.Room() {
		l.log.Debug("no room for an invitation now", "invitation", inv)
		return
	}
	l.games.Start(inv, func() (*Result, error) { return l.play(inv) })
}

// play accepts and plays one invitation, error-resigns the game if it
// fails, and finishes the invitation in every case.
func (l *listener) play(inv int) (*Result, error) {
	ctx := l.gameCtx
	log := l.log.With("invitation", inv)
	res, err := l.acceptAndPlay(ctx, inv, log)
	// Finishing must happen even when the games' context is cancelled.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if res != nil && err != nil {
		log.Error("the game failed; error-resigning", "game", res.GameID, "err", err)
		if rerr := l.c.Game(res.GameID).ErrorResign(fctx); rerr != nil {
			log.Warn("error_resign failed", "game", res.GameID, "err", rerr)
		}
	}
	if ferr := l.c.Finish(fctx, inv); ferr != nil {
		log.Warn("could not finish the invitation", "err", ferr)
	}
	return res, err
}

func (l *listener) acceptAndPlay(ctx context.Context, inv int, log *slog.Logger) (*Result, error) {
	log.Info("accepting invitation")
	id, err := l.c.Accept(ctx, inv)
	if err != nil {
		return nil, err
	}
	p, err := l.cfg.NewPlayer()
	if err != nil {
		return &Result{GameID: id}, fmt.Errorf("rbcclient: building the player: %w", err)
	}
	defer func() {
		if c, ok := p.(io.Closer); ok {
			c.Close()
		}
	}()
	return PlayGame(ctx, l.c.Game(id), p, l.cfg.Play)
}
