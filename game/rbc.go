package game

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/botspec"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/engine"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/view"
)

// RBC is Reconnaissance Blind Chess: its records are the reference
// harness's GameHistory JSON, its bots botspec's, its referee the match's
// default (rbc.PlayLocalGame).
type RBC struct{}

// Name returns "rbc".
func (RBC) Name() string { return "rbc" }

// DefaultBot is Blindfish.
func (RBC) DefaultBot() string { return botspec.DefaultBot }

// Bots lists the built-in RBC bots.
func (RBC) Bots() string {
	var names []string
	for _, b := range engine.Bots() {
		names = append(names, b.Name)
	}
	return strings.Join(names, ", ")
}

// Option: RBC has none.
func (RBC) Option() (string, string, string) { return "", "", "" }

// Owns reports whether data parses as a GameHistory.
func (RBC) Owns(data []byte) bool {
	_, err := record.ParseHistory(data)
	return err == nil
}

// SetUp makes the bots, checking each spec once; the referee is the
// match's default.
func (RBC) SetUp(ctx context.Context, cfg *match.Config, p Players) error {
	if err := cfg.SetBots(ctx, p.Resolver, p.White, p.Black, p.DefaultAlternate, p.BuildLog); err != nil {
		return err
	}
	for _, spec := range []string{cfg.Bot, cfg.Opponent} {
		if err := p.Resolver.Check(ctx, spec); err != nil {
			return err
		}
	}
	cfg.Referee, cfg.Records = nil, match.ReadRBCRecord
	cfg.About = nil
	for _, spec := range slices.Compact([]string{cfg.Bot, cfg.Opponent}) {
		if e := engine.Evaluates(spec); e != "" {
			cfg.About = append(cfg.About, spec+" scores boards with "+e)
		}
	}
	return nil
}

// Result reads a history's result.
func (RBC) Result(rec *record.Record) (*match.Result, error) { return match.ReadRBCRecord(rec) }

// Check replays the history through rbc's referee.
func (RBC) Check(ctx context.Context, r *record.Record, quiet bool) (string, bool, error) {
	path := r.Name()
	rec, err := record.ParseHistory(r.Data)
	if err != nil {
		return fmt.Sprintf("%s: unreadable: %v", path, err), false, nil
	}
	rp, err := rbc.ReplayHistory(ctx, rec)
	if err != nil {
		return "", false, fmt.Errorf("replay %s: %w", path, err)
	}
	if rp.Divergence != nil {
		return fmt.Sprintf("%s: diverges at %s", path, rp.Divergence), false, nil
	}
	if quiet {
		return "", true, nil
	}
	turns := len(rec.Turns[chess.White]) + len(rec.Turns[chess.Black])
	if rp.Unchecked != "" {
		return fmt.Sprintf("%s: ok, %d turns, %s (note: %s)", path, turns, rec.Outcome, rp.Unchecked), true, nil
	}
	return fmt.Sprintf("%s: ok, %d turns, %s", path, turns, rec.Outcome), true, nil
}

// Page writes the RBC viewer page.
func (RBC) Page(ctx context.Context, rec *record.Record, path string, opts view.Options) (int, error) {
	return view.WriteRBCPage(ctx, rec, path, opts)
}

// PlayPerson plays RBC against a botspec bot.
func (RBC) PlayPerson(ctx context.Context, d *web.Desk, g web.Game, p Person) (string, error) {
	bot, err := p.Resolver.NewPlayer(p.Bot, p.Seed)
	if err != nil {
		return "", err
	}
	botspec.LimitMemory([]string{p.Bot}, 1, g.Initial)
	defer match.ClosePlayer(bot, g.Logger)
	h, err := g.PlayRBC(ctx, d, bot)
	if err != nil {
		return "", err
	}
	return match.SaveRecord(p.Dir, h, p.Seed)
}

// Analyze follows the history with an RBC bot (analysis.WriteFollow): where
// it would sense and what it would move, beside what was played.
func (RBC) Analyze(ctx context.Context, w io.Writer, rec *record.Record, a Analysis) error {
	h, err := rec.History()
	if err != nil {
		return err
	}
	p, err := engine.NewLoggingPlayer(a.Bot, a.Seed, a.Logger)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadBot, err)
	}
	defer match.ClosePlayer(p, a.Logger)
	return analysis.WriteFollow(ctx, w, p, h, a.Table)
}
