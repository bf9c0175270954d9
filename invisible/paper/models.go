package paper

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/invrecord"
)

// ModelScore is how well one opponent model predicted the opponent's
// invisible pieces on recorded games against one kind of opponent: over the
// positions where a side's belief had more than one placement (the same
// positions under every model, since no model rules a placement out), the
// mean probability the belief gave the true placement, its mean log-loss
// (−log₂ of it) and the belief's mean entropy, in bits.
type ModelScore struct {
	Model     invisible.Model
	Opponent  string // the opponent's bot, its settings left out; "all" for every one
	Positions int
	MeanP     float64
	LogLoss   float64
	Entropy   float64
}

// ScoreModels follows every invisible-chess record under paths (files,
// folders, archives, as record.Records reads them) with each model's
// beliefs and scores how well each predicted the truth.
func ScoreModels(ctx context.Context, paths []string) ([]ModelScore, error) {
	type key struct {
		m   invisible.Model
		opp string
	}
	acc := map[key]*ModelScore{}
	add := func(m invisible.Model, opp string, p, h float64) {
		for _, o := range []string{opp, "all"} {
			s := acc[key{m, o}]
			if s == nil {
				s = &ModelScore{Model: m, Opponent: o}
				acc[key{m, o}] = s
			}
			s.Positions++
			s.MeanP += p
			s.LogLoss -= math.Log2(p)
			s.Entropy += h
		}
	}
	games := 0
	for rec, err := range record.Records(paths...) {
		if err != nil {
			return nil, fmt.Errorf("paper: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("paper: %w", err)
		}
		if !invrecord.Is(rec.Data) {
			continue
		}
		r, err := invrecord.Read(bytes.NewReader(rec.Data))
		if err != nil {
			return nil, fmt.Errorf("paper: %s: %w", rec.Name(), err)
		}
		games++
		names := [2]string{botName(r.White), botName(r.Black)}
		for _, m := range invisible.Models() {
			err := r.FollowWith(m, func(_ int, pos *invisible.Position, tr [2]*invisible.Tracker) error {
				for c := chess.White; c <= chess.Black; c++ {
					if b := &tr[c].Belief; len(b.Places) > 1 {
						add(m, names[c.Other()], b.Prob(pos.Inv[c.Other()]), b.Entropy())
					}
				}
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("paper: %s: %w", rec.Name(), err)
			}
		}
	}
	if games == 0 {
		return nil, fmt.Errorf("paper: no invisible-chess record in %s", strings.Join(paths, " "))
	}
	var out []ModelScore
	for _, s := range acc {
		n := float64(s.Positions)
		s.MeanP, s.LogLoss, s.Entropy = s.MeanP/n, s.LogLoss/n, s.Entropy/n
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Opponent != b.Opponent {
			return a.Opponent == "all" || (b.Opponent != "all" && a.Opponent < b.Opponent)
		}
		return a.Model < b.Model
	})
	return out, nil
}

// botName is a bot spec without its settings.
func botName(spec string) string {
	name, _, _ := strings.Cut(spec, ":")
	return name
}

// WriteModels writes the scores as a table.
func WriteModels(w io.Writer, scores []ModelScore) {
	fmt.Fprintln(w, "Opponent models: how well each belief predicts the true placement of the opponent's invisible pieces,")
	fmt.Fprintln(w, "over the recorded positions where the belief has more than one placement.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| opponent | model | positions | mean P(truth) | log-loss (bits) | entropy (bits) |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|")
	for _, s := range scores {
		fmt.Fprintf(w, "| %s | %s | %d | %.3f | %.3f | %.3f |\n", s.Opponent, s.Model, s.Positions, s.MeanP, s.LogLoss, s.Entropy)
	}
}
