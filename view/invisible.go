package view

// The page of an invisible-chess game: the true board turn by turn, each
// try and its answer, and beside it each side's belief of its opponent's
// invisible pieces as a heat map (the marginal probability of each square),
// with the belief's entropy. The belief is the exact one (invisible.Tracker),
// followed from what each side was told.

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/invisible"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/invrecord"
)

//go:embed invisible.html
var invisibleHTML string

// InvisiblePage is everything the invisible-chess page shows (JSON in it).
type InvisiblePage struct {
	Game      string `json:"game"` // "invisible"
	Invisible string `json:"invisible"`
	White     string `json:"white"`
	Black     string `json:"black"`
	Outcome   string `json:"outcome"`
	Source    string `json:"source,omitempty"`
	// Frames are the positions before the first turn and after each.
	Frames []InvisibleFrame `json:"frames"`
}

// InvisibleFrame is one moment of the game.
type InvisibleFrame struct {
	FEN string `json:"fen"` // the true board
	// Invisible lists the squares of the invisible pieces, White's then
	// Black's, so that the board can mark them.
	Invisible []string `json:"invisible"`
	// Turn says the turn just played ("" for the start): its tries with
	// their answers, and what the opponent was told.
	Turn string `json:"turn,omitempty"`
	// Heat holds, per colour, that side's belief of its opponent's
	// invisible pieces: the probability of each square (a1=0..h8=63), the
	// entropy in bits and the number of placements.
	Heat    [2][]float64 `json:"heat"`
	Entropy [2]float64   `json:"entropy"`
	Places  [2]int       `json:"places"`
	// Truth reports whether each belief holds the true placement.
	Truth [2]bool `json:"truth"`
}

// BuildInvisible gathers the page of a record.
func BuildInvisible(ctx context.Context, rec *invisible.Record, opts Options) (*InvisiblePage, error) {
	p := &InvisiblePage{Game: "invisible", Invisible: invisible.PairString(rec.Configs), White: rec.White, Black: rec.Black,
		Outcome: rec.Result.String(), Source: opts.Source}
	err := rec.Follow(func(turn int, pos *invisible.Position, tr [2]*invisible.Tracker) error {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("view: %w", err)
		}
		f := InvisibleFrame{FEN: pos.Board.FEN(), Invisible: []string{}}
		for c := chess.White; c <= chess.Black; c++ {
			for _, s := range pos.Inv[c] {
				if s != chess.NoSquare {
					f.Invisible = append(f.Invisible, s.String())
				}
			}
			m := tr[c].Belief.Marginals()
			heat := make([]float64, 64)
			for _, row := range m {
				for s, q := range row {
					heat[s] += q
				}
			}
			f.Heat[c] = heat
			f.Entropy[c] = tr[c].Belief.Entropy()
			f.Places[c] = len(tr[c].Belief.Places)
			f.Truth[c] = tr[c].Belief.Prob(pos.Inv[c.Other()]) > 0
		}
		if turn > 0 {
			f.Turn = describeTurn(rec.Turns[turn-1])
		}
		p.Frames = append(p.Frames, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	return p, nil
}

// describeTurn is a turn in words.
func describeTurn(t invisible.Turn) string {
	var parts []string
	for _, try := range t.Tries {
		a := try.Answer
		s := try.Move.String() + " " + a.Outcome.String()
		if a.Reason != invisible.NoReason {
			s += " (" + a.Reason.String() + ")"
		}
		if a.Captured >= 0 {
			s += fmt.Sprintf(", took invisible #%d", a.Captured)
		}
		parts = append(parts, s)
	}
	told := "the opponent is told: "
	switch s := t.Seen; {
	case s.Forfeit:
		told += "turn forfeited"
	case s.Moved >= 0:
		told += fmt.Sprintf("invisible piece #%d moved", s.Moved)
		if s.Capture != chess.NoSquare {
			told += ", capturing on " + s.Capture.String()
		}
	case !s.Move.IsNull():
		told += s.Move.String()
	default:
		told = ""
	}
	if t.Seen.Checkers != 0 {
		told += ", check by an invisible piece"
	}
	return t.Color.String() + ": " + strings.Join(parts, "; ") + ". " + told
}

// WriteInvisible writes the page.
func WriteInvisible(w io.Writer, p *InvisiblePage) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("view: %w", err)
	}
	// The data is a script's text: "</" must not close the script.
	js := strings.ReplaceAll(string(data), "</", `<\/`)
	page := strings.Replace(invisibleHTML, "/*DATA*/null", js, 1)
	_, err = io.WriteString(w, page)
	if err != nil {
		return fmt.Errorf("view: %w", err)
	}
	return nil
}

// WriteInvisiblePage writes the page of an invisible-chess record.
func WriteInvisiblePage(ctx context.Context, rec *record.Record, path string, opts Options) (int, error) {
	ir, err := invrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	page, err := BuildInvisible(ctx, ir, opts)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	return len(ir.Turns), writeFile(path, func(w io.Writer) error { return WriteInvisible(w, page) })
}
