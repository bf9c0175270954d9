// Command bigloss counts, over recorded RBC games, the moves of one side
// after which it lost five points or more at once to a man its belief had
// seen: the opponent's next move took a rook or a queen of ours (less what
// our move took: a trade is no loss) with a man that stood, on most of our
// belief's weight when we moved, on the square it came from. Such a loss is
// a blunder into a man we knew of, not bad luck with a hidden one (issue
// 46: the queen put where a g7 pawn took it at once).
//
//	go run ./scripts/records/bigloss [--side blindfish] [--min 500] [--share 0.5] [-v] RECORD|ARCHIVE|DIR...
//
// It replays each game through the exact belief of the side whose name
// contains --side (both, when both do), and prints one line per big loss
// (record, turn, our move, what was taken, the taker's square and its
// weight in the belief, and whether our move put the victim there) and the
// count per 100 games.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/sampler"
)

func main() {
	side := flag.String("side", "blindfish", "count the side whose player name contains this (in any case)")
	least := flag.Int("min", 500, "the least material lost at once that counts, in centipawns")
	share := flag.Float64("share", 0.5, "the least share of our belief's weight on which the taker stood where it came from")
	budget := flag.Int64("budget", 512, "the exact belief's memory budget in MiB")
	verbose := flag.Bool("v", false, "print each game's counts")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: bigloss [--side NAME] [--min CP] [--share P] RECORD|ARCHIVE|DIR...")
		os.Exit(2)
	}
	ctx := context.Background()
	games, losses, skipped := 0, 0, 0
	for r, err := range record.Records(flag.Args()...) {
		if err != nil {
			fmt.Fprintln(os.Stderr, "bigloss:", err)
			os.Exit(1)
		}
		h, err := r.History()
		if err != nil {
			skipped++ // not an RBC record
			continue
		}
		for _, c := range []chess.Color{chess.White, chess.Black} {
			name := h.WhiteName
			if c == chess.Black {
				name = h.BlackName
			}
			if !strings.Contains(strings.ToLower(name), strings.ToLower(*side)) {
				continue
			}
			found, err := bigLosses(ctx, h, c, *least, *share, *budget<<20)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bigloss: %s as %s: %v (left out)\n", r.Name(), c, err)
				skipped++
				continue
			}
			games++
			losses += len(found)
			for _, l := range found {
				fmt.Printf("%s\t%s\tturn %d\t%s\n", r.Base(), c, l.turn+1, l.what)
			}
			if *verbose {
				fmt.Printf("# %s as %s: %d\n", r.Base(), c, len(found))
			}
		}
	}
	per := 0.0
	if games > 0 {
		per = 100 * float64(losses) / float64(games)
	}
	fmt.Printf("%d big losses in %d games (%.1f per 100 games); %d sides left out\n", losses, games, per, skipped)
}

// loss is one big loss: our turn and what happened.
type loss struct {
	turn int
	what string
}

// bigLosses replays c's exact belief through h and returns its big losses.
func bigLosses(ctx context.Context, h *rbc.History, c chess.Color, least int, share float64, budget int64) ([]loss, error) {
	s, err := sampler.New("exact", sampler.Options{MemoryBudget: budget})
	if err != nil {
		return nil, err
	}
	defer closeSampler(s)
	opp := h.Turns[c.Other()]
	var out []loss
	rng := rand.New(rand.NewPCG(1, 2))
	r := sampler.Replay{Sensed: func(ctx context.Context, t *sampler.ReplayTurn) error {
		if !t.HasMove || t.Taken.IsNull() && t.Requested.IsNull() {
			return nil
		}
		next := t.Index // the opponent's reply: its turn i after White's i, i+1 after Black's i
		if c == chess.Black {
			next++
		}
		if next >= len(opp) || !opp[next].HasMove || opp[next].Capture == chess.NoSquare {
			return nil
		}
		reply := opp[next]
		after := t.After
		victim := after.PieceAt(reply.Capture)
		gained := 0 // what our move took: a trade is no loss
		if t.Capture != chess.NoSquare {
			gained = chess.PieceValue(t.Before.PieceAt(t.Capture).Type())
		}
		if chess.PieceValue(victim.Type())-gained < least {
			return nil
		}
		before, err := chess.ParseFEN(reply.FENBefore)
		if err != nil {
			return err
		}
		taker := before.PieceAt(reply.Taken.From)
		weight, err := weightOn(ctx, s, rng, reply.Taken.From, taker)
		if err != nil {
			return err
		}
		if weight < share {
			return nil
		}
		how := "left it there"
		if t.Taken.To == reply.Capture {
			how = "moved it there"
		}
		out = append(out, loss{t.Index, fmt.Sprintf("we moved %s; %s took our %s on %s from %s (%.0f%% of the belief had it there); our move %s",
			t.Taken, taker, victim, reply.Capture, reply.Taken.From, 100*weight, how)})
		return nil
	}}
	if err := r.Run(ctx, s, h, c); err != nil && !errors.Is(err, sampler.ErrStopReplay) {
		return out, err
	}
	return out, nil
}

// weightOn is the share of the belief's weight on which piece p stands on sq.
func weightOn(ctx context.Context, s sampler.Sampler, rng *rand.Rand, sq chess.Square, p chess.Piece) (float64, error) {
	ws, err := s.Sample(ctx, 4000, rng)
	if err != nil {
		return 0, err
	}
	on := 0.0
	for _, w := range ws {
		if w.Board.PieceAt(sq) == p {
			on += w.Weight
		}
	}
	return on, nil
}

// closeSampler releases a sampler that holds resources.
func closeSampler(s sampler.Sampler) {
	if c, ok := s.(interface{ Close() error }); ok {
		c.Close()
	}
}
