package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/internal/httpserve"
	"github.com/blindfish-rbc/blindfish/internal/ksloopback"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// runKSServer serves a local kriegspiel.org: the site's bot API on our
// referee, so that the site's public bots (their code run beside the
// project) and ours can play each other here, with every game's true record
// saved.
func runKSServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlagSet("ksserver", "[--addr HOST:PORT] [--key-env VAR | --open-registration] [--clock D] [--increment D] [--join-cooldown D] [--out DIR] [--max-conns N] [--idle-timeout D]", stderr)
	addr := flags.String("addr", "127.0.0.1:8000", "where to listen (loopback by default: the API is meant for bots on this machine)")
	keyEnv := flags.String("key-env", "KRIEGSPIEL_BOT_REGISTRATION_KEY", "the environment variable holding the registration key bots register with (unset: one is made and printed)")
	open := flags.Bool("open-registration", false, "register bots without a key, as kriegspiel.org does today (the header is ignored)")
	cooldown := flags.Duration("join-cooldown", ksloopback.DefaultJoinCooldown, "a bot's pause between two joins of lobby games, as on the site (0: none)")
	clock := flags.Duration("clock", 25*time.Minute, "each player's clock (the site's rapid: 25 minutes)")
	inc := flags.Duration("increment", 10*time.Second, "the increment per move (the site's rapid: 10 s)")
	out := flags.String("out", "", `directory for each finished game's true record ("" saves nothing)`)
	lim := httpserve.DefaultLimits()
	flags.IntVar(&lim.MaxConns, "max-conns", lim.MaxConns, "connections served at once (more wait for one to close)")
	flags.DurationVar(&lim.IdleTimeout, "idle-timeout", lim.IdleTimeout, "close a keep-alive connection idle this long")
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	switch {
	case flags.NArg() > 0:
		return usageError{fmt.Sprintf("unexpected argument %q", flags.Arg(0))}
	case lim.MaxConns < 1 || lim.IdleTimeout <= 0 || *cooldown < 0:
		return usageError{"--max-conns must be at least 1, --idle-timeout positive and --join-cooldown not negative"}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	key := ""
	if !*open {
		key = os.Getenv(*keyEnv)
	}
	if key == "" && !*open {
		var b [12]byte
		rand.Read(b[:])
		key = hex.EncodeToString(b[:])
		fmt.Fprintf(stdout, "registration key: %s\n", key)
	}
	lastID := 0
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fmt.Errorf("create the records directory: %w", err)
		}
		var err error
		if lastID, err = lastGameNumber(*out); err != nil {
			return fmt.Errorf("read the records directory: %w", err)
		}
	}
	var outMu sync.Mutex // one line of stdout at a time
	joinCooldown := *cooldown
	if joinCooldown == 0 {
		joinCooldown = -1 // the Config's "none"
	}
	srv := ksloopback.New(ksloopback.Config{RegistrationKey: key, OpenRegistration: *open, JoinCooldown: joinCooldown,
		Clock: *clock, Increment: *inc, LastID: lastID,
		OnGameEnd: func(id string, rec *kriegspiel.Record) {
			// The names are the bots': quoted, so that no byte of theirs
			// reaches the terminal raw.
			line := fmt.Sprintf("game %s: %q vs %q, %s", id, rec.White, rec.Black, rec.Result)
			if *out != "" {
				base := fmt.Sprintf("%s-%s-%s", safeName(id), safeName(rec.White), safeName(rec.Black))
				if path, err := saveNewKriegspielRecord(*out, base, rec); err != nil {
					log.Error("could not save the game record", "game", id, "err", err)
				} else {
					line += ", saved " + path
				}
			}
			outMu.Lock()
			fmt.Fprintln(stdout, line)
			outMu.Unlock()
		}})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		who := "anyone who can reach the port and learns the registration key can register bots"
		if *open {
			who = "anyone who can reach the port can register bots (--open-registration)"
		}
		log.Warn("listening beyond this machine: "+who, "addr", ln.Addr().String())
	}
	fmt.Fprintf(stdout, "serving the kriegspiel.org bot API on http://%s\n", ln.Addr())
	return httpserve.Serve(ctx, ln, srv, lim, log)
}

// lastGameNumber is the highest game number among the records in dir
// (named g<number>-...), 0 when there are none, so that a server
// restarted on the same directory numbers its games after them.
func lastGameNumber(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	last := 0
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "g")
		num, _, dash := strings.Cut(rest, "-")
		if !ok || !dash {
			continue
		}
		if n, err := strconv.Atoi(num); err == nil && n > last {
			last = n
		}
	}
	return last, nil
}

// saveNewKriegspielRecord saves rec in dir as base.json, or base-2.json
// and on when that name is taken: it never writes over a file. The record
// is written to a temporary file first, so that a name holds either
// nothing or the whole record, and no temporary file outlives an error.
func saveNewKriegspielRecord(dir, base string, rec *kriegspiel.Record) (path string, err error) {
	f, err := os.CreateTemp(dir, ".record-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	defer func() {
		if rerr := os.Remove(tmp); err == nil && rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = rerr
		}
	}()
	if err := kriegspiel.WriteRecord(f, rec); err != nil {
		f.Close()
		return "", err
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	for i := 1; i <= 100; i++ {
		path = filepath.Join(dir, base+".json")
		if i > 1 {
			path = filepath.Join(dir, fmt.Sprintf("%s-%d.json", base, i))
		}
		// The name is claimed with O_EXCL, then the record renamed onto
		// the empty file we own.
		claim, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		claim.Close()
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(path)
			return "", err
		}
		return path, nil
	}
	return "", fmt.Errorf("%s.json and 99 more names are taken", filepath.Join(dir, base))
}
