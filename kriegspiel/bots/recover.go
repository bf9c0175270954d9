package bots

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Recovery: when a cut exact belief loses the true board (its next update
// empties it), the player does not have to play blind. It keeps what it
// heard all game, and rebuilds a small hybrid belief (AOSP's pool topped up
// with boards drawn from the last observation, kriegspiel.NewView) by
// replaying the game into it. A hybrid never stays empty, so from then on
// the player chooses from boards again. A rebuild that does not fit in the
// turn's belief share is tried again at the next turns, a few times, before
// the player settles for random play.

// observed is one thing the player heard: an answer to its own question,
// or what it heard of an opponent's turn.
type observed struct {
	own   bool
	q     kriegspiel.Question
	a     kriegspiel.Answer
	heard []kriegspiel.Heard
}

// maxRecoveries is how many rebuilds a game may try before the player plays
// at random for the rest of it.
const maxRecoveries = 6

// game is what the player knows of the game from its start: what a belief
// is built from.
type game struct {
	rules     kriegspiel.Ruleset
	start     chess.Board
	pawnTries int
	heard     []observed
}

// recover replaces a lost belief by a hybrid one of cfg.RecoverSize boards
// rebuilt from everything heard, within the turn's belief share. It reports
// whether the player has a belief again.
func (p *Sampling) recover(ctx context.Context, now time.Time) bool {
	if p.cfg.Recover != "hybrid" || p.Recoveries >= maxRecoveries {
		return false
	}
	p.Recoveries++
	// The rebuild may take the turn's whole share of the clock, past a
	// movetime cap (a replay of the game does not fit in tens of
	// milliseconds, and a player without a belief has nothing to score
	// moves on anyway); it happens a few times a game at most.
	deadline := time.Time{}
	if share := p.plan.share; share > 0 {
		deadline = later(p.plan.turnStart.Add(share), now.Add(share/2))
	}
	var v kriegspiel.View
	err := withDeadline(ctx, deadline, func(ctx context.Context) error {
		var err error
		v, err = p.replay(ctx, "hybrid", max(p.cfg.RecoverSize, 1))
		return err
	})
	if err != nil {
		p.log.Warn("kriegspiel belief not rebuilt", "try", p.Recoveries, "err", err)
		return false
	}
	p.belief = v
	p.log.Info("kriegspiel belief rebuilt", "belief", v.Name(), "boards", len(v.Boards()), "took", time.Since(now))
	return true
}

// replay builds the named view of size boards and feeds it the game so far.
func (p *Sampling) replay(ctx context.Context, name string, size int) (kriegspiel.View, error) {
	v, err := kriegspiel.NewView(name, p.color, p.game.rules, p.game.start, p.game.pawnTries, size, p.rng)
	if err != nil {
		return nil, err
	}
	for i, o := range p.game.heard {
		if o.own {
			err = v.Own(ctx, o.q, o.a)
		} else {
			err = v.Opponent(ctx, o.heard)
		}
		if err != nil {
			return nil, fmt.Errorf("bots: replay of observation %d of %d: %w", i+1, len(p.game.heard), err)
		}
	}
	if len(v.Boards()) == 0 {
		return nil, fmt.Errorf("bots: the replayed %s belief holds no board", name)
	}
	return v, nil
}

// hear notes what the player heard, for a rebuild.
func (g *game) hear(o observed) {
	o.heard = slices.Clone(o.heard)
	g.heard = append(g.heard, o)
}
