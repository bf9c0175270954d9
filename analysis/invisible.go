package analysis

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// InvisibleDecision is one turn of an invisible-chess game followed by a
// bot: what the side knew (its exact belief of the opponent's invisible
// pieces before the turn), what was tried, and what the bot would have
// tried before each of the recorded tries.
type InvisibleDecision struct {
	Turn       int // the side's own turn, from 1
	Placements int
	Entropy    float64 // bits
	// Truth is the probability the belief gave the opponent's true
	// placement.
	Truth  float64
	Played []invisible.Try
	// Bot holds the bot's try before each recorded try (the bot is asked
	// again after each illegal one, told the recorded answer).
	Bot []chess.Move
}

// Agrees reports whether the bot's first try is the one played.
func (d InvisibleDecision) Agrees() bool {
	return len(d.Bot) > 0 && len(d.Played) > 0 && d.Bot[0] == d.Played[0].Move
}

// FollowInvisible replays rec to p as side color: p is told everything that
// side was told, in the game's order; before each try of color's turns that
// ask(turn) accepts, it is asked its own try, and then told the recorded
// try's answer, so that the game stays the recorded one. The side's exact
// belief (invisible.Tracker) gives each decision's size and entropy; fn
// gets each turn of color's, asked or not.
func FollowInvisible(ctx context.Context, p invisible.Player, rec *invisible.Record, color chess.Color, t Table, ask func(turn int) bool, fn func(InvisibleDecision)) error {
	opponent := rec.Black
	if color == chess.Black {
		opponent = rec.White
	}
	if err := p.HandleGameStart(ctx, invisible.GameStart{Color: color, Configs: rec.Configs, Opponent: opponent}); err != nil {
		return fmt.Errorf("analysis: game start: %w", err)
	}
	turn := 0
	err := rec.Follow(func(i int, pos *invisible.Position, tr [2]*invisible.Tracker) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("analysis: %w", err)
		}
		if i == len(rec.Turns) {
			return nil
		}
		rt := rec.Turns[i]
		if rt.Color != color {
			if moved(rt) {
				if err := p.HandleOpponentTurn(ctx, rt.Seen); err != nil {
					return fmt.Errorf("analysis: turn %d: %w", i+1, err)
				}
			}
			return nil
		}
		turn++
		b := &tr[color].Belief
		d := InvisibleDecision{Turn: turn, Placements: len(b.Places), Entropy: b.Entropy(), Played: rt.Tries}
		d.Truth = b.Prob(pos.Inv[color.Other()])
		asked := ask(turn)
		for _, try := range rt.Tries {
			if asked {
				m, err := p.ChooseTry(ctx, t.Left)
				if err != nil {
					return fmt.Errorf("analysis: turn %d: %w", turn, err)
				}
				d.Bot = append(d.Bot, m)
			}
			if err := p.HandleAnswer(ctx, try.Move, try.Answer); err != nil {
				return fmt.Errorf("analysis: turn %d: %w", turn, err)
			}
		}
		fn(d)
		return nil
	})
	if err != nil {
		return err
	}
	return p.HandleGameEnd(ctx, rec.Result)
}

// moved reports whether a turn ended in a move or a forfeit, so that the
// opponent was told of it (a game lost inside a turn tells it nothing).
func moved(t invisible.Turn) bool {
	return len(t.Tries) > 0 && t.Tries[len(t.Tries)-1].Answer.Outcome != invisible.Illegal
}

// WriteInvisibleFollow follows rec with p (FollowInvisible) and prints, as
// `blindfish analyze` does for an invisible-chess record, a row per turn
// shown: the size and entropy of the side's exact belief before the turn,
// the probability it gave the truth, the tries played with their answers
// and the bot's tries before each, a first try that differs marked with *;
// at the end how often the first tries agreed.
func WriteInvisibleFollow(ctx context.Context, w io.Writer, p invisible.Player, rec *invisible.Record, t Table) error {
	fmt.Fprintf(w, "game: %s (%s vs %s, invisible %s, %s)\n", t.Game, rec.White, rec.Black, invisible.PairString(rec.Configs), rec.Result)
	fmt.Fprintf(w, "bot:  %s as %s, told %v left each turn\n\n", t.Bot, t.Color, t.Left)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "turn\tplacements\tentropy\tP(truth)\tplayed\tbot tries")
	shown, same := 0, 0
	err := FollowInvisible(ctx, p, rec, t.Color, t, func(turn int) bool {
		in := turn >= t.From && (t.To == 0 || turn <= t.To)
		if t.Shown != nil {
			t.Shown(in)
		}
		return in
	}, func(d InvisibleDecision) {
		if d.Turn < t.From || (t.To != 0 && d.Turn > t.To) {
			return
		}
		shown++
		mark := "*"
		if d.Agrees() {
			same, mark = same+1, ""
		}
		var played, bot []string
		for _, try := range d.Played {
			played = append(played, try.Move.String()+" "+try.Answer.Outcome.String())
		}
		for _, m := range d.Bot {
			bot = append(bot, m.String())
		}
		fmt.Fprintf(tw, "%d\t%d\t%.2f\t%.3f\t%s\t%s%s\n", d.Turn, d.Placements, d.Entropy, d.Truth, strings.Join(played, ", "), strings.Join(bot, ", "), mark)
	})
	tw.Flush()
	if err != nil {
		return err
	}
	if shown > 0 {
		fmt.Fprintf(w, "\nfirst try agrees: %d of %d turns (%.0f%%)\n", same, shown, 100*float64(same)/float64(shown))
	}
	return nil
}
