// Package paper reproduces the invisible-chess paper's results: Table 1
// (the round robin of the eight configurations with the strategic advisor
// on both sides), Table 2 (the hide and seek advisors at three weights) and
// Figure 3 (each side's summed entropy in the games two invisible bishops
// won against one), and measures Blindfish's own player against the
// advisor. `blindfish invisible` runs it.
package paper

import (
	"context"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/invisible/players"
)

// Game is one game to play: the configurations and bots of White and Black.
type Game struct {
	Configs [2]invisible.Config
	Bots    [2]string
	Seed    int64
}

// Outcome is how a game went.
type Outcome struct {
	Game
	// Winner is the winning colour, and Decisive false for a draw.
	Winner   chess.Color
	Decisive bool
	Reason   string
	Turns    int
	// Entropy is each side's belief's entropy summed over the game's
	// positions (after every turn), when asked for.
	Entropy [2]float64
}

// TurnLimit bounds the paper's games: drawn after 400 turns (200 moves a
// side), by which the fifty-move rule has nearly always ended them.
const TurnLimit = 400

// play plays one game untimed: the paper's games were played at a fixed
// search depth, not on a clock, and untimed games replay exactly.
func play(ctx context.Context, g Game, entropy bool) (Outcome, error) {
	var ps [2]invisible.Player
	for c := range ps {
		p, err := players.New(g.Bots[c], g.Seed*2+int64(c), nil)
		if err != nil {
			return Outcome{}, fmt.Errorf("paper: %w", err)
		}
		ps[c] = p
	}
	res, err := invisible.PlayGame(ctx, ps[0], ps[1], invisible.Options{Configs: g.Configs, TurnLimit: TurnLimit,
		WhiteName: g.Bots[0], BlackName: g.Bots[1]})
	if err != nil {
		return Outcome{}, fmt.Errorf("paper: %w", err)
	}
	r := res.Record.Result
	if r.Reason == invisible.ReasonError || r.Reason == invisible.ReasonIllegal {
		return Outcome{}, fmt.Errorf("paper: a bot failed: %v: %s", r, r.Detail)
	}
	o := Outcome{Game: g, Winner: r.Winner, Decisive: r.HasWinner, Reason: r.Reason, Turns: len(res.Record.Turns)}
	if entropy {
		err := res.Record.Follow(func(_ int, _ *invisible.Position, tr [2]*invisible.Tracker) error {
			for c := range tr {
				o.Entropy[c] += tr[c].Belief.Entropy()
			}
			return nil
		})
		if err != nil {
			return Outcome{}, fmt.Errorf("paper: %w", err)
		}
	}
	return o, nil
}

// playAll plays games on jobs goroutines, in any order, and returns their
// outcomes in the games' order; progress, when not nil, gets a dot a game.
func playAll(ctx context.Context, games []Game, jobs int, entropy bool, progress io.Writer) ([]Outcome, error) {
	out := make([]Outcome, len(games))
	errs := make([]error, len(games))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = play(ctx, games[i], entropy)
				if progress != nil {
					mu.Lock()
					fmt.Fprint(progress, ".")
					mu.Unlock()
				}
			}
		}()
	}
	for i := range games {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("paper: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Wilson returns the 95 % Wilson score interval of k successes in n trials,
// in percent: the interval that stays inside 0..100 and is honest near the
// ends, where many of the paper's cells are.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 100
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	d := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / d
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / d
	return 100 * math.Max(0, c-h), 100 * math.Min(1, c+h)
}
