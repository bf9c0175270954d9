package paper

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
)

// Figure3Point is one game 2B won against 1B: each side's summed entropy.
type Figure3Point struct {
	Winner, Loser float64
}

// Figure3 plays opts.Games games of 2B against 1B (the strategic advisor on
// both sides, colours alternating) and returns, for those 2B won, the
// winner's and the loser's summed entropy, sorted by the loser's; and the
// games played.
func Figure3(ctx context.Context, opts Options) ([]Figure3Point, int, error) {
	games := make([]Game, opts.Games)
	seed := opts.Seed*1_000_003 + 900_000
	for k := range games {
		seed++
		games[k] = Game{Configs: [2]invisible.Config{invisible.B2, invisible.B1}, Bots: [2]string{opts.Bot, opts.Bot}, Seed: seed}
		if k%2 == 1 {
			games[k].Configs = [2]invisible.Config{invisible.B1, invisible.B2}
		}
	}
	outs, err := playAll(ctx, games, opts.Jobs, true, opts.Progress)
	if err != nil {
		return nil, 0, err
	}
	if opts.CSV != nil {
		cw := csv.NewWriter(opts.CSV)
		_ = cw.Write(csvHeader)
		writeCSV(cw, "figure3", "2B:1B", outs)
	}
	var pts []Figure3Point
	for _, o := range outs {
		if !o.Decisive || o.Configs[o.Winner] != invisible.B2 {
			continue
		}
		pts = append(pts, Figure3Point{Winner: o.Entropy[o.Winner], Loser: o.Entropy[o.Winner.Other()]})
	}
	slices.SortStableFunc(pts, func(a, b Figure3Point) int {
		switch {
		case a.Loser < b.Loser:
			return -1
		case a.Loser > b.Loser:
			return 1
		}
		return 0
	})
	return pts, len(outs), nil
}

// WriteFigure3 prints the count the paper gives.
func WriteFigure3(w io.Writer, pts []Figure3Point, games int) {
	more := 0
	for _, p := range pts {
		if p.Loser > p.Winner {
			more++
		}
	}
	fmt.Fprintf(w, "Figure 3: of %d games of 2B against 1B, 2B won %d; in %d of them the loser's summed entropy exceeded the winner's (the paper: all but one of 190).\n", games, len(pts), more)
}

// WriteFigure3SVG draws the figure: each game 2B won, sorted by the loser's
// summed entropy, the loser's and the winner's as two series of points.
func WriteFigure3SVG(w io.Writer, pts []Figure3Point) error {
	const width, height, margin = 720.0, 420.0, 50.0
	top := 1.0
	for _, p := range pts {
		top = max(top, p.Loser, p.Winner)
	}
	x := func(i int) float64 { return margin + (width-2*margin)*float64(i)/float64(max(len(pts)-1, 1)) }
	y := func(v float64) float64 { return height - margin - (height-2*margin)*v/top }
	var err error
	pr := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	pr(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", width, height)
	pr(`<rect width="100%%" height="100%%" fill="white"/>` + "\n")
	pr(`<text x="%.0f" y="20" text-anchor="middle">Games 2B won against 1B, sorted: summed entropy (bits) of each side's belief</text>`+"\n", width/2)
	pr(`<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", margin, height-margin, width-margin, height-margin)
	pr(`<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", margin, margin, margin, height-margin)
	for k := 0; k <= 4; k++ {
		v := top * float64(k) / 4
		pr(`<text x="%.0f" y="%.1f" text-anchor="end">%.0f</text>`+"\n", margin-5, y(v)+4, v)
	}
	pr(`<text x="%.0f" y="%.0f" text-anchor="middle">game (sorted by the loser's summed entropy)</text>`+"\n", width/2, height-15)
	for i, p := range pts {
		pr(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="#c22"/>`+"\n", x(i), y(p.Loser))
		pr(`<circle cx="%.1f" cy="%.1f" r="2.5" fill="#22c"/>`+"\n", x(i), y(p.Winner))
	}
	pr(`<circle cx="%.0f" cy="40" r="4" fill="#c22"/><text x="%.0f" y="44">loser (1B)</text>`+"\n", margin+10, margin+20)
	pr(`<circle cx="%.0f" cy="58" r="4" fill="#22c"/><text x="%.0f" y="62">winner (2B)</text>`+"\n", margin+10, margin+20)
	pr("</svg>\n")
	if err != nil {
		return fmt.Errorf("paper: %w", err)
	}
	return nil
}

// Versus is our bot against an opponent in one configuration (both sides
// the same), colours alternating.
type Versus struct {
	Config              invisible.Config
	Wins, Draws, Losses int
}

// Score is the bot's score, a draw half a point.
func (v Versus) Score() float64 {
	n := v.Wins + v.Draws + v.Losses
	return (float64(v.Wins) + float64(v.Draws)/2) / float64(max(n, 1))
}

// PlayVersus plays bot against opponent, opts.Games games in each of
// configs.
func PlayVersus(ctx context.Context, bot, opponent string, configs []invisible.Config, opts Options) ([]Versus, error) {
	var out []Versus
	var cw *csv.Writer
	if opts.CSV != nil {
		cw = csv.NewWriter(opts.CSV)
		_ = cw.Write(csvHeader)
	}
	seed := opts.Seed*1_000_003 + 700_000
	for _, cfg := range configs {
		games := make([]Game, opts.Games)
		for k := range games {
			seed++
			games[k] = Game{Configs: [2]invisible.Config{cfg, cfg}, Bots: [2]string{bot, opponent}, Seed: seed}
			if k%2 == 1 {
				games[k].Bots = [2]string{opponent, bot}
			}
		}
		outs, err := playAll(ctx, games, opts.Jobs, false, opts.Progress)
		if err != nil {
			return nil, err
		}
		v := Versus{Config: cfg}
		for k, o := range outs {
			us := chess.Color(k % 2) // the bot is White in even games
			switch {
			case !o.Decisive:
				v.Draws++
			case o.Winner == us:
				v.Wins++
			default:
				v.Losses++
			}
		}
		if cw != nil {
			writeCSV(cw, "versus", fmt.Sprintf("%s vs %s %s", bot, opponent, cfg), outs)
		}
		out = append(out, v)
	}
	return out, nil
}

// WriteVersus prints the bot's results.
func WriteVersus(w io.Writer, bot, opponent string, vs []Versus) {
	fmt.Fprintf(w, "%s against %s (both sides the same invisible pieces, colours alternating; draws half a point)\n\n", bot, opponent)
	fmt.Fprintln(w, "| config | games | W | D | L | score | 95 % interval of the win share of decisive games |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, v := range vs {
		lo, hi := Wilson(v.Wins, v.Wins+v.Losses)
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %.1f %% | %.0f–%.0f %% |\n", v.Config.Label(), v.Wins+v.Draws+v.Losses, v.Wins, v.Draws, v.Losses, 100*v.Score(), lo, hi)
	}
}
