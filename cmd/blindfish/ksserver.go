package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/httpserve"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg/ksserver"
)

// runKSServer serves a local kriegspiel.org (package ksserver): the site's
// bot API on our referee, so that the site's public bots (their code run
// beside the project) and ours can play each other here, with every game's
// true record saved.
func runKSServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlagSet("ksserver", "[--addr HOST:PORT] [--key-env VAR | --open-registration] [--clock D] [--increment D] [--join-cooldown D] [--out DIR] [--max-conns N] [--idle-timeout D]", stderr)
	addr := flags.String("addr", "127.0.0.1:8000", "where to listen (loopback by default: the API is meant for bots on this machine)")
	keyEnv := flags.String("key-env", "KRIEGSPIEL_BOT_REGISTRATION_KEY", "the environment variable holding the registration key bots register with (unset: one is made and printed)")
	open := flags.Bool("open-registration", false, "register bots without a key, as kriegspiel.org does today (the header is ignored)")
	cooldown := flags.Duration("join-cooldown", ksserver.DefaultJoinCooldown, "a bot's pause between two joins of lobby games, as on the site (0: none)")
	clock := flags.Duration("clock", 25*time.Minute, "each player's clock (the site's rapid: 25 minutes)")
	inc := flags.Duration("increment", 10*time.Second, "the increment per move (the site's rapid: 10 s)")
	out := flags.String("out", "", `directory for each finished game's true record ("" saves nothing)`)
	lim := httpserve.DefaultLimits()
	flags.IntVar(&lim.MaxConns, "max-conns", lim.MaxConns, "connections served at once (at the cap a new one closes the connection idle longest)")
	flags.DurationVar(&lim.IdleTimeout, "idle-timeout", lim.IdleTimeout, "close a keep-alive connection idle this long")
	if err := parseNoArgs(flags, args); err != nil {
		return err
	}
	switch {
	case lim.MaxConns < 1 || lim.IdleTimeout <= 0 || *cooldown < 0:
		return usageError{"--max-conns must be at least 1, --idle-timeout positive and --join-cooldown not negative"}
	}
	log := newLogger(stderr, slog.LevelInfo, false)
	key := ""
	if !*open {
		if key = os.Getenv(*keyEnv); key == "" {
			key = ksserver.NewRegistrationKey()
			fmt.Fprintf(stdout, "registration key: %s\n", key)
		}
	}
	var records *ksserver.RecordDir
	lastID := 0
	if *out != "" {
		var err error
		if records, err = ksserver.OpenRecordDir(*out); err != nil {
			return err
		}
		lastID = records.LastID()
	}
	joinCooldown := *cooldown
	if joinCooldown == 0 {
		joinCooldown = -1 // the Config's "none"
	}
	srv := ksserver.New(ksserver.Config{RegistrationKey: key, OpenRegistration: *open, JoinCooldown: joinCooldown,
		Clock: *clock, Increment: *inc, LastID: lastID, OnGameEnd: ksserver.Announce(stdout, records, log)})
	ln, err := srv.Listen(*addr, log)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving the kriegspiel.org bot API on http://%s\n", ln.Addr())
	return httpserve.Serve(ctx, ln, srv, lim, log)
}
