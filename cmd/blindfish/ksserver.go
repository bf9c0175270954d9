package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/ksloopback"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// runKSServer serves a local kriegspiel.org: the site's bot API on our
// referee, so that the site's public bots (their code run beside the
// project) and ours can play each other here, with every game's true record
// saved.
func runKSServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("ksserver", "[--addr HOST:PORT] [--key-env VAR] [--clock D] [--increment D] [--out DIR]", stderr)
	addr := fs.String("addr", "127.0.0.1:8000", "where to listen")
	keyEnv := fs.String("key-env", "KRIEGSPIEL_BOT_REGISTRATION_KEY", "the environment variable holding the registration key bots register with (unset: one is made and printed)")
	clock := fs.Duration("clock", 25*time.Minute, "each player's clock (the site's rapid: 25 minutes)")
	inc := fs.Duration("increment", 10*time.Second, "the increment per move (the site's rapid: 10 s)")
	out := fs.String("out", "", `directory for each finished game's true record ("" saves nothing)`)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	key := os.Getenv(*keyEnv)
	if key == "" {
		var b [12]byte
		rand.Read(b[:])
		key = hex.EncodeToString(b[:])
		fmt.Fprintf(stdout, "registration key: %s\n", key)
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
	}
	srv := ksloopback.New(ksloopback.Config{RegistrationKey: key, Clock: *clock, Increment: *inc,
		OnGameEnd: func(id string, rec *kriegspiel.Record) {
			fmt.Fprintf(stdout, "game %s: %s vs %s, %s\n", id, rec.White, rec.Black, rec.Result)
			if *out == "" {
				return
			}
			path := filepath.Join(*out, fmt.Sprintf("%s-%s-%s.json", safeName(id), safeName(rec.White), safeName(rec.Black)))
			if err := saveKriegspielRecord(path, rec); err != nil {
				fmt.Fprintf(stderr, "blindfish ksserver: game %s: %v\n", id, err)
			}
		}})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "serving the kriegspiel.org bot API on http://%s\n", ln.Addr())
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
