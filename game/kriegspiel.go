package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/kriegspiel/bots"
	"github.com/blindfish-rbc/blindfish/match"
	"github.com/blindfish-rbc/blindfish/protocol/web"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
	"github.com/blindfish-rbc/blindfish/view"
)

// Kriegspiel is Kriegspiel under one of its rulesets: its records are
// ksrecord's JSON, its bots kriegspiel/bots', its referee kriegspiel's.
type Kriegspiel struct{}

// Name returns "kriegspiel".
func (Kriegspiel) Name() string { return "kriegspiel" }

// DefaultBot is the sampling player, Blindfish's own.
func (Kriegspiel) DefaultBot() string { return "sampling" }

// Bots lists the built-in Kriegspiel bots and their settings.
func (Kriegspiel) Bots() string {
	return strings.Join(bots.Names(), ", ") + "; sampling takes samples=, depth=, eval=, belief=, size=, limit=, recover=, movetime=; mcts takes approach=, k=, boards=, c=, depth= and the belief settings; darkboard takes depth=, alpha=, nodes=, movetime="
}

// Option is --ruleset.
func (Kriegspiel) Option() (string, string, string) {
	return "ruleset", "Kriegspiel's rules: " + strings.Join(kriegspiel.RulesetNames(), ", ") + " (optionally +chessdraws)", "wild16"
}

// Owns reports whether data is a Kriegspiel record (its format field).
func (Kriegspiel) Owns(data []byte) bool { return ksrecord.Is(data) }

// SetUp makes the bots and a Kriegspiel referee under p.Option's ruleset,
// having made each bot once, so that a bad spec fails before the match and
// not in every game.
func (Kriegspiel) SetUp(ctx context.Context, cfg *match.Config, p Players) error {
	if err := cfg.SetBots(ctx, p.Resolver, p.White, p.Black, p.DefaultAlternate, p.BuildLog); err != nil {
		return err
	}
	newBot := func(spec string, seed int64) (kriegspiel.Player, error) { return bots.New(spec, seed, cfg.Logger) }
	ref, err := NewKriegspielReferee(p.Option, newBot, cfg.Bot, cfg.Opponent)
	if err != nil {
		return err
	}
	cfg.Referee, cfg.Records = ref, Kriegspiel{}.Result
	return nil
}

// Result reads a Kriegspiel record's result.
func (Kriegspiel) Result(rec *record.Record) (*match.Result, error) {
	k, err := ksrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	r := &match.Result{White: k.White, Black: k.Black, BotColor: chess.White, Clock: "?", Record: rec.Name(),
		Variant: kriegspielVariant(k.Ruleset),
		Outcome: kriegspielOutcome(k.Result)}
	for _, t := range k.Turns {
		r.Turns[t.Color]++
	}
	return r, nil
}

// Check replays the record through kriegspiel's referee.
func (Kriegspiel) Check(_ context.Context, r *record.Record, quiet bool) (string, bool, error) {
	path := r.Name()
	rec, err := ksrecord.Read(bytes.NewReader(r.Data))
	if err != nil {
		return fmt.Sprintf("%s: unreadable: %v", path, err), false, nil
	}
	if _, err := rec.Replay(); err != nil {
		return fmt.Sprintf("%s: diverges: %v", path, err), false, nil
	}
	if quiet {
		return "", true, nil
	}
	return fmt.Sprintf("%s: ok, %s, %d turns, %s", path, kriegspielVariant(rec.Ruleset), len(rec.Turns), rec.Result), true, nil
}

// Page writes the Kriegspiel viewer page.
func (Kriegspiel) Page(ctx context.Context, rec *record.Record, path string, opts view.Options) (int, error) {
	return view.WriteKriegspielPage(ctx, rec, path, opts)
}

// kriegspielVariant names a ruleset's games in results logs.
func kriegspielVariant(rules kriegspiel.Ruleset) string { return "kriegspiel/" + rules.Name }

// kriegspielOutcome is a Kriegspiel result as matches count it.
func kriegspielOutcome(r kriegspiel.Result) match.Outcome {
	return match.Outcome{Winner: r.Winner, HasWinner: r.HasWinner, Reason: r.ReasonName(), Detail: r.Detail}
}

// KriegspielFactory builds the Kriegspiel player a bot spec names, with a
// seed for its random choices; a player that is an io.Closer is closed after
// its game.
type KriegspielFactory func(spec string, seed int64) (kriegspiel.Player, error)

// KriegspielReferee plays Kriegspiel under Rules with kriegspiel's referee:
// the same schedule, seeds, results log, table, Elo and SPRT as RBC matches.
// The rules' own draw rules apply (Config.MoveLimit is not used); the turn
// limit is Config.TurnLimit. Records are Kriegspiel records
// (docs/kriegspiel.md), which `blindfish replay --check` re-referees.
type KriegspielReferee struct {
	Rules  kriegspiel.Ruleset
	NewBot KriegspielFactory
}

// Variant returns "kriegspiel/" and the rules' name.
func (k KriegspielReferee) Variant() string { return kriegspielVariant(k.Rules) }

// Play plays one game.
func (k KriegspielReferee) Play(ctx context.Context, cfg *match.Config, g match.Game) (match.Played, error) {
	if k.NewBot == nil {
		return match.Played{}, errors.New("game: no Kriegspiel bot factory")
	}
	wp, err := k.NewBot(g.White, g.WhiteSeed)
	if err != nil {
		return match.Played{}, err
	}
	defer match.ClosePlayer(wp, cfg.Logger)
	bp, err := k.NewBot(g.Black, g.BlackSeed)
	if err != nil {
		return match.Played{}, err
	}
	defer match.ClosePlayer(bp, cfg.Logger)
	opts := kriegspiel.DefaultOptions()
	opts.Rules = k.Rules
	opts.InitialTime, opts.Increment = cfg.Initial, cfg.Increment
	opts.TurnLimit = cfg.TurnLimit
	opts.WhiteName, opts.BlackName = g.White, g.Black
	opts.Logger = cfg.Logger
	w, b := &watchedKriegspiel{p: wp}, &watchedKriegspiel{p: bp}
	res, err := kriegspiel.PlayGame(ctx, w, b, opts)
	if errors.Is(err, kriegspiel.ErrAborted) {
		return match.Played{}, fmt.Errorf("%w: %w", rbc.ErrAborted, err)
	}
	if err != nil {
		return match.Played{}, err
	}
	rec := res.Record
	out := match.Played{
		Outcome:  match.VoidIfFailed(kriegspielOutcome(rec.Result), [2]bool{w.Failed(), b.Failed()}),
		Used:     res.Used,
		Degraded: [2]map[string]int{w.Degraded(), b.Degraded()},
		Save:     func(path string) error { return ksrecord.SaveFile(path, rec) },
	}
	for _, t := range rec.Turns {
		out.Turns[t.Color]++
	}
	return out, nil
}

// NewKriegspielReferee returns the referee of Kriegspiel games under the
// named ruleset (kriegspiel.ParseRuleset) between bots that newBot makes,
// having made each of specs once, so that a bad spec fails before the
// match and not in every game.
func NewKriegspielReferee(ruleset string, newBot KriegspielFactory, specs ...string) (KriegspielReferee, error) {
	rules, err := kriegspiel.ParseRuleset(ruleset)
	if err != nil {
		return KriegspielReferee{}, fmt.Errorf("--ruleset: %w", err)
	}
	for _, spec := range specs {
		p, err := newBot(spec, 0)
		if err != nil {
			return KriegspielReferee{}, err
		}
		match.ClosePlayer(p, nil)
	}
	return KriegspielReferee{Rules: rules, NewBot: newBot}, nil
}

// watchedKriegspiel is a Kriegspiel player whose failures and degradation
// counts a match.Watch sees.
type watchedKriegspiel struct {
	p kriegspiel.Player
	match.Watch
}

func (w *watchedKriegspiel) HandleGameStart(ctx context.Context, color chess.Color, rules kriegspiel.Ruleset, start chess.Board, pawnTries int, opponent string) (err error) {
	defer w.Note(&err)
	return w.p.HandleGameStart(ctx, color, rules, start, pawnTries, opponent)
}

func (w *watchedKriegspiel) HandleOpponentTurn(ctx context.Context, heard []kriegspiel.Heard) (err error) {
	defer w.Note(&err)
	return w.p.HandleOpponentTurn(ctx, heard)
}

func (w *watchedKriegspiel) ChooseQuestion(ctx context.Context, questions []kriegspiel.Question, left time.Duration) (_ kriegspiel.Question, err error) {
	defer w.Note(&err)
	return w.p.ChooseQuestion(ctx, questions, left)
}

func (w *watchedKriegspiel) HandleAnswer(ctx context.Context, q kriegspiel.Question, a kriegspiel.Answer) (err error) {
	defer w.Note(&err)
	return w.p.HandleAnswer(ctx, q, a)
}

func (w *watchedKriegspiel) HandleGameEnd(ctx context.Context, r kriegspiel.Result, rec *kriegspiel.Record) error {
	defer w.Take(w.p)
	return w.p.HandleGameEnd(ctx, r, rec)
}

// PlayPerson plays Kriegspiel under p.Option's ruleset against a
// kriegspiel/bots bot.
func (Kriegspiel) PlayPerson(ctx context.Context, d *web.Desk, g web.Game, p Person) (string, error) {
	rules, err := kriegspiel.ParseRuleset(p.Option)
	if err != nil {
		return "", fmt.Errorf("--ruleset: %w", err)
	}
	bot, err := bots.New(p.Bot, p.Seed, g.Logger)
	if err != nil {
		return "", err
	}
	defer match.ClosePlayer(bot, g.Logger)
	rec, err := g.PlayKriegspiel(ctx, d, rules, bot)
	if err != nil {
		return "", err
	}
	path, err := p.recordPath(rec.White, rec.Black)
	if err != nil {
		return "", err
	}
	return path, ksrecord.SaveFile(path, rec)
}

// Analyze is not offered for Kriegspiel records yet: `blindfish belief
// kriegspiel` follows them, and `blindfish view` draws the exact belief.
func (Kriegspiel) Analyze(context.Context, io.Writer, *record.Record, Analysis) error {
	return errors.New("game: analyze does not follow Kriegspiel records yet: see belief kriegspiel and view")
}
