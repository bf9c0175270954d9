package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"

	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/internal/peakmem"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// SetBots makes the match's bots from their specs into cfg, canonical and
// checked once (pinned builds resolved, and built the first time, here, so
// that the records name them by commit), with alternating colours as
// defaultAlternate asks when the flag was not given: on between two
// different bots. A game's table entry (package game) calls it before it
// sets the game's Referee. Its errors are the command line's (a bad spec,
// an SPRT without two alternating bots), ctx's when it ended.
func (cfg *Config) SetBots(ctx context.Context, r *botspec.Resolver, white, black string, defaultAlternate bool, buildLog *slog.Logger) error {
	specs, err := r.CanonicalAll(ctx, buildLog, white, black)
	if err != nil {
		return err
	}
	cfg.Bot, cfg.Opponent, cfg.NewBot = specs[0], specs[1], r.NewPlayer
	if defaultAlternate {
		// Alternating is the fair default between two bots (White's edge
		// cancels out, and the "both" row carries the Elo estimate); a bot
		// against itself gains nothing from it.
		cfg.Alternate = cfg.Bot != cfg.Opponent
	}
	if cfg.SPRT != nil && (cfg.Bot == cfg.Opponent || !cfg.Alternate) {
		return errors.New("--sprt plays colour-swapped pairs: it needs two different bots and alternating colours")
	}
	return nil
}

// Run plays cfg's games as the command line does: the records folder made,
// Go's memory limit set to the bots' bounds (botspec.LimitMemory), a
// progress bar and the notices on stderr; then it prints the match
// (Report.Write, with sprtArg) and the peak memory on stdout.
func Run(ctx context.Context, cfg Config, sprtArg string, stdout, stderr io.Writer) (Report, error) {
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return Report{}, fmt.Errorf("create the records directory: %w", err)
		}
	}
	var memLimit int64
	if cfg.Referee == nil {
		memLimit = botspec.LimitMemory([]string{cfg.Bot, cfg.Opponent}, min(cfg.Concurrency, cfg.Shard.Count(cfg.Games)), cfg.Initial)
	}
	for _, line := range cfg.About {
		fmt.Fprintf(stderr, "blindfish match: %s\n", line)
	}
	bar := NewProgressBar(stderr, cfg.Shard.Count(cfg.Games))
	cfg.OnProgress = func(p Progress) { bar.Update(p.Done, p.Status(cfg.Bot, cfg.SPRT)) }
	cfg.Notice = func(msg string) {
		bar.Clear() // the next update draws it again, below the message
		fmt.Fprintf(stderr, "blindfish match: %s\n", msg)
	}
	rep, err := Play(ctx, cfg)
	bar.Clear()
	if werr := rep.Write(stdout, &cfg, sprtArg); werr != nil {
		return rep, werr
	}
	if u := peakmem.Now(); u.OK {
		limit := ""
		if memLimit > 0 {
			limit = ", limit " + mib(memLimit) + ": the bots' bounds"
		}
		fmt.Fprintf(stdout, "peak memory: %s in this process (the referee and in-process bots%s), %s in its largest finished child (an engine; on Linux an upper bound)\n",
			mib(u.Self), limit, mib(u.Children))
	}
	return rep, err
}

// mib shows a byte count in MiB.
func mib(n int64) string { return strconv.FormatInt((n+(1<<19))>>20, 10) + " MiB" }

// ArchiveFolders packs the loose records of each folder into a new archive
// there (Archive) and says on w what it did.
func ArchiveFolders(dirs []string, w io.Writer, read RecordReader) error {
	for _, dir := range dirs {
		path, n, err := Archive(dir, ArchiveName(Shard{}), nil, read)
		if err != nil {
			return err
		}
		if n == 0 {
			fmt.Fprintf(w, "%s: no loose records\n", dir)
			continue
		}
		fmt.Fprintf(w, "%s: %d records archived in %s\n", dir, n, path)
	}
	return nil
}

// SaveRecord saves the record of one game played outside a match (play's
// game against a person) in dir, made if missing, under the name a match
// gives its first game of seed, and returns the file's path.
func SaveRecord(dir string, h *rbc.History, seed int64) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create the records directory: %w", err)
	}
	name := filepath.Join(dir, RecordName(h.WhiteName, h.BlackName, seed, 0, 1))
	if err := record.SaveHistoryFile(name, h); err != nil {
		return "", err
	}
	return name, nil
}
