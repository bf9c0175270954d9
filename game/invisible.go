package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/invrecord"
	"github.com/blindfish-rbc/blindfish/view"
)

// Invisible is invisible chess between two configurations of invisible
// pieces: its records are invrecord's JSON, its bots invisible/players',
// its referee invisible's.
type Invisible struct{}

// Name returns "invisible".
func (Invisible) Name() string { return "invisible" }

// DefaultBot is Blindfish's own player.
func (Invisible) DefaultBot() string { return "blindfish" }

// Bots lists the invisible-chess bots and their settings.
func (Invisible) Bots() string {
	return strings.Join(players.Names(), ", ") + "; " + players.Usage
}

// Option is --invisible.
func (Invisible) Option() (string, string, string) {
	return "invisible", "invisible chess's invisible pieces, WHITE:BLACK, each none, 1B, 2B, 1N, 2N, 1R, 2R or 1Q (docs/invisible.md)", "2B:1R"
}

// Owns reports whether data is an invisible-chess record (its format field).
func (Invisible) Owns(data []byte) bool { return invrecord.Is(data) }

// SetUp makes the bots and the invisible-chess referee of p.Option's
// configurations, having made each bot once so that a bad spec fails before
// the match.
func (Invisible) SetUp(ctx context.Context, cfg *match.Config, p Players) error {
	if err := cfg.SetBots(ctx, p.Resolver, p.White, p.Black, p.DefaultAlternate, p.BuildLog); err != nil {
		return err
	}
	configs, err := invisible.ParsePair(p.Option)
	if err != nil {
		return fmt.Errorf("--invisible: %w", err)
	}
	for _, spec := range []string{cfg.Bot, cfg.Opponent} {
		if _, err := players.New(spec, 0, nil); err != nil {
			return err
		}
	}
	cfg.Referee, cfg.Records = InvisibleReferee{Configs: configs}, Invisible{}.Result
	return nil
}

// invisibleVariant names a pairing's games in results logs: the
// configurations are part of the variant, so that games of different
// pairings never count as one.
func invisibleVariant(c [2]invisible.Config) string { return "invisible/" + invisible.PairString(c) }

// Result reads an invisible-chess record's result.
func (Invisible) Result(rec *record.Record) (*match.Result, error) {
	r, err := invrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	out := &match.Result{White: r.White, Black: r.Black, BotColor: chess.White, Clock: match.Seconds(r.Initial) + "+" + match.Seconds(r.Increment),
		Record: rec.Name(), Variant: invisibleVariant(r.Configs), Outcome: invisibleOutcome(r.Result)}
	for _, t := range r.Turns {
		out.Turns[t.Color]++
	}
	return out, nil
}

func invisibleOutcome(r invisible.Result) match.Outcome {
	return match.Outcome{Winner: r.Winner, HasWinner: r.HasWinner, Reason: r.Reason, Detail: r.Detail}
}

// Check re-referees the record.
func (Invisible) Check(_ context.Context, r *record.Record, quiet bool) (string, bool, error) {
	path := r.Name()
	rec, err := invrecord.Read(bytes.NewReader(r.Data))
	if err != nil {
		return fmt.Sprintf("%s: unreadable: %v", path, err), false, nil
	}
	if _, err := rec.Replay(); err != nil {
		return fmt.Sprintf("%s: diverges: %v", path, err), false, nil
	}
	if quiet {
		return "", true, nil
	}
	return fmt.Sprintf("%s: ok, %s, %d turns, %s", path, invisibleVariant(rec.Configs), len(rec.Turns), rec.Result), true, nil
}

// Page writes the invisible-chess viewer page.
func (Invisible) Page(ctx context.Context, rec *record.Record, path string, opts view.Options) (int, error) {
	return view.WriteInvisiblePage(ctx, rec, path, opts)
}

// PlayPerson plays invisible chess between p.Option's configurations
// against an invisible/players bot.
func (Invisible) PlayPerson(ctx context.Context, d *web.Desk, g web.Game, p Person) (string, error) {
	configs, err := invisible.ParsePair(p.Option)
	if err != nil {
		return "", fmt.Errorf("--invisible: %w", err)
	}
	bot, err := players.New(p.Bot, p.Seed, g.Logger)
	if err != nil {
		return "", err
	}
	rec, err := g.PlayInvisible(ctx, d, configs, bot)
	if err != nil {
		return "", err
	}
	path, err := p.recordPath(rec.White, rec.Black)
	if err != nil {
		return "", err
	}
	return path, invrecord.SaveFile(path, rec)
}

// InvisibleReferee plays invisible chess between Configs with invisible's
// referee, under the match's clock and turn limit.
type InvisibleReferee struct {
	Configs [2]invisible.Config
}

// Variant returns "invisible/" and the configurations.
func (r InvisibleReferee) Variant() string { return invisibleVariant(r.Configs) }

// Play plays one game.
func (r InvisibleReferee) Play(ctx context.Context, cfg *match.Config, g match.Game) (match.Played, error) {
	wp, err := players.New(g.White, g.WhiteSeed, cfg.Logger)
	if err != nil {
		return match.Played{}, err
	}
	bp, err := players.New(g.Black, g.BlackSeed, cfg.Logger)
	if err != nil {
		return match.Played{}, err
	}
	w, b := &watchedInvisible{p: wp}, &watchedInvisible{p: bp}
	res, err := invisible.PlayGame(ctx, w, b, invisible.Options{Configs: r.Configs, InitialTime: cfg.Initial, Increment: cfg.Increment,
		TurnLimit: cfg.TurnLimit, WhiteName: g.White, BlackName: g.Black, Logger: cfg.Logger})
	if errors.Is(err, invisible.ErrAborted) {
		return match.Played{}, fmt.Errorf("%w: %w", rbc.ErrAborted, err)
	}
	if err != nil {
		return match.Played{}, err
	}
	rec := res.Record
	out := match.Played{
		Outcome: match.VoidIfFailed(invisibleOutcome(rec.Result), [2]bool{w.Failed(), b.Failed()}),
		Used:    res.Used,
		Save:    func(path string) error { return invrecord.SaveFile(path, rec) },
	}
	for _, t := range rec.Turns {
		out.Turns[t.Color]++
		out.TurnTimes[t.Color] = append(out.TurnTimes[t.Color], t.Used)
	}
	return out, nil
}

// watchedInvisible is an invisible-chess player whose failures a match.Watch
// sees.
type watchedInvisible struct {
	p invisible.Player
	match.Watch
}

func (w *watchedInvisible) HandleGameStart(ctx context.Context, s invisible.GameStart) (err error) {
	defer w.Note(&err)
	return w.p.HandleGameStart(ctx, s)
}

func (w *watchedInvisible) HandleOpponentTurn(ctx context.Context, s invisible.Seen) (err error) {
	defer w.Note(&err)
	return w.p.HandleOpponentTurn(ctx, s)
}

func (w *watchedInvisible) ChooseTry(ctx context.Context, left time.Duration) (_ chess.Move, err error) {
	defer w.Note(&err)
	return w.p.ChooseTry(ctx, left)
}

func (w *watchedInvisible) HandleAnswer(ctx context.Context, m chess.Move, a invisible.Answer) (err error) {
	defer w.Note(&err)
	return w.p.HandleAnswer(ctx, m, a)
}

func (w *watchedInvisible) HandleGameEnd(ctx context.Context, r invisible.Result) error {
	defer w.Take(w.p)
	return w.p.HandleGameEnd(ctx, r)
}

// Analyze follows the record with an invisible/players bot
// (analysis.WriteInvisibleFollow): at each of the side's turns the size and
// entropy of its exact belief, the probability it gave the truth, what was
// tried and what the bot would have tried.
func (Invisible) Analyze(ctx context.Context, w io.Writer, rec *record.Record, a Analysis) error {
	r, err := invrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		return fmt.Errorf("%s: %w", rec.Name(), err)
	}
	p, err := players.New(a.Bot, a.Seed, a.Logger)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadBot, err)
	}
	return analysis.WriteInvisibleFollow(ctx, w, p, r, a.Table)
}
