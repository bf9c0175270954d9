package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
)

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
func (k KriegspielReferee) Variant() string { return "kriegspiel/" + k.Rules.Name }

// Play plays one game.
func (k KriegspielReferee) Play(ctx context.Context, cfg *Config, g Game) (Played, error) {
	if k.NewBot == nil {
		return Played{}, errors.New("no Kriegspiel bot factory")
	}
	wp, err := k.NewBot(g.White, g.WhiteSeed)
	if err != nil {
		return Played{}, err
	}
	defer closeQuietly(wp)
	bp, err := k.NewBot(g.Black, g.BlackSeed)
	if err != nil {
		return Played{}, err
	}
	defer closeQuietly(bp)
	opts := kriegspiel.DefaultOptions()
	opts.Rules = k.Rules
	opts.InitialTime, opts.Increment = cfg.Initial, cfg.Increment
	opts.TurnLimit = cfg.TurnLimit
	opts.WhiteName, opts.BlackName = g.White, g.Black
	opts.Logger = cfg.Logger
	w, b := &watchedKriegspiel{p: wp}, &watchedKriegspiel{p: bp}
	res, err := kriegspiel.PlayGame(ctx, w, b, opts)
	if errors.Is(err, kriegspiel.ErrAborted) {
		return Played{}, fmt.Errorf("%w: %w", rbc.ErrAborted, err)
	}
	if err != nil {
		return Played{}, err
	}
	rec := res.Record
	out := Played{
		Outcome: voidIfFailed(Outcome{Winner: rec.Result.Winner, HasWinner: rec.Result.HasWinner,
			Reason: rec.Result.ReasonName(), Detail: rec.Result.Detail}, [2]bool{w.failed.Load(), b.failed.Load()}),
		Used:     res.Used,
		Degraded: [2]map[string]int{w.degraded(), b.degraded()},
		Save:     func(path string) error { return saveKriegspielRecord(path, rec) },
	}
	for _, t := range rec.Turns {
		out.Turns[t.Color]++
	}
	return out, nil
}

// saveKriegspielRecord writes rec to path through a temporary file, so that
// a record on disk is always whole.
func saveKriegspielRecord(path string, rec *kriegspiel.Record) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := ksrecord.Write(f, rec); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

func closeQuietly(p any) {
	if c, ok := p.(io.Closer); ok {
		c.Close()
	}
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
		closeQuietly(p)
	}
	return KriegspielReferee{Rules: rules, NewBot: newBot}, nil
}
