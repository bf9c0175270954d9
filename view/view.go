// Package view turns a recorded game of Reconnaissance Blind Chess, or of
// Kriegspiel (kriegspiel.go), into one self-contained HTML page that replays
// it turn by turn, with a player's belief about the hidden board drawn on
// the board as a heat map.
//
// People judge an RBC bot, and a belief sampler, by watching what it believed
// and why it sensed and moved as it did; reading logs is a poor substitute.
// The page needs no network when it is opened (script, styles and piece
// glyphs are all inside it), so it can be mailed, attached to an issue or
// kept next to the record it was made from.
//
// The work is split in two: Build replays the record through a sampler and
// gathers per-square statistics (the expensive part, done in Go), and Write
// embeds them as JSON in a fixed page whose script draws them.
package view

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/analysis"
	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// DefaultMaxBoards is how many boards of a belief are counted per turn at
// most. Past it the per-square statistics come from a sample of that many
// boards: counting tens of millions of boards per turn would make a page
// take minutes, and the heat map cannot show the difference.
const DefaultMaxBoards = 200_000

// Options say whose belief to draw and how to compute it.
type Options struct {
	// Colors are the sides whose belief is computed (none: the page shows the
	// game only).
	Colors []chess.Color
	// Sampler names the belief (sampler.Names); default "exact".
	Sampler string
	// SamplerOptions configure it.
	SamplerOptions sampler.Options
	// MaxBoards caps the boards counted per belief (default DefaultMaxBoards).
	MaxBoards int
	// Seed seeds the sampling past MaxBoards, so that pages are reproducible.
	Seed uint64
	// Source is the record's file name, shown on the page and linked to.
	Source string
	// Bot, when set, is asked at every turn of its side where it would sense
	// and what it would move, and the page shows its choices next to what
	// was played.
	Bot *BotOptions
}

// BotOptions name the bot whose own choices a page shows: the way to see
// why a game went as it did is to ask the bot on the game's own positions
// (package analysis).
type BotOptions struct {
	// Spec names the bot on the page.
	Spec  string
	Color chess.Color
	// Player is a fresh player for this game; Build does not close it.
	Player rbc.Player
	// Left is the clock time the bot is told it has at every turn.
	Left time.Duration
	// Log, when set, is the Capture the player logs to: each decision's
	// lines (the Blindfish player's values and runners-up) go on the page.
	Log *analysis.Capture
}

// maxLogLines bounds the lines of one decision kept for the page.
const maxLogLines = 12

// Page is everything the page shows, as it is embedded in it (JSON).
type Page struct {
	White   string `json:"white"`
	Black   string `json:"black"`
	Outcome string `json:"outcome"`
	Source  string `json:"source,omitempty"`
	Sampler string `json:"sampler,omitempty"`
	// MaxBoards is the cap on boards counted per belief (see Belief.Sampled).
	MaxBoards int `json:"maxBoards"`
	// Plies are the turns of both players in the order they were played
	// (White's first turn, Black's first, ...).
	Plies []Ply `json:"plies"`
	// Final is the board after the last move (FEN).
	Final string `json:"final"`
	// Beliefs holds, per colour ("white", "black"), one entry per turn of
	// that colour, when the colour's belief was computed.
	Beliefs map[string][]TurnBeliefs `json:"beliefs,omitempty"`
	// Bot holds a bot's own choices on one side, when one was asked.
	Bot *BotAnalysis `json:"bot,omitempty"`
}

// BotAnalysis is what a bot chose at the turns of one side.
type BotAnalysis struct {
	Spec  string  `json:"spec"`
	Color string  `json:"color"`
	LeftS float64 `json:"leftS"` // the clock it was told it had, in seconds
	// Turns holds one entry per turn of the side, in order.
	Turns []BotTurn `json:"turns"`
}

// BotTurn is the bot's choice at one turn.
type BotTurn struct {
	Sense   string  `json:"sense,omitempty"` // "" for a pass
	HasMove bool    `json:"hasMove"`         // the record has a move at this turn
	Move    string  `json:"move,omitempty"`  // UCI; "" for a pass
	TookMS  float64 `json:"tookMs"`
	// Top are the best move requests with their values, best first, as the
	// bot logged them (empty for a bot that logs none).
	Top []Alternative `json:"top,omitempty"`
	// Log holds the lines the decision logged (at most maxLogLines;
	// Dropped counts the rest).
	Log     []string `json:"log,omitempty"`
	Dropped int      `json:"dropped,omitempty"`
}

// Alternative is a move request with the value the bot gave it.
type Alternative struct {
	Move  string  `json:"move"`
	Value float64 `json:"value"`
}

// Ply is one player's turn.
type Ply struct {
	Color string `json:"color"` // "white" or "black"
	Turn  int    `json:"turn"`  // the player's own turn number, from 0
	// Notice is the square where the opponent's previous move captured one
	// of this player's pieces (told at the start of the turn), or "".
	Notice string `json:"notice,omitempty"`
	// Sense is the sensed square ("" for a passed sense), SenseResult what it
	// showed: square name to piece letter ("" for empty).
	Sense       string            `json:"sense,omitempty"`
	SenseResult map[string]string `json:"senseResult,omitempty"`
	HasMove     bool              `json:"hasMove"`
	Requested   string            `json:"requested,omitempty"` // UCI; "" for a pass
	Taken       string            `json:"taken,omitempty"`     // UCI; "" when no move was made
	Capture     string            `json:"capture,omitempty"`   // square of the piece captured
	Before      string            `json:"before"`              // FEN before the move
	After       string            `json:"after,omitempty"`     // FEN after the move
}

// TurnBeliefs is one player's belief at three moments of one of its turns.
type TurnBeliefs struct {
	Start  *Belief `json:"start"`           // after the capture notice, before the sense
	Sensed *Belief `json:"sensed"`          // after the sense: what the move was chosen on
	Moved  *Belief `json:"moved,omitempty"` // after the move result
}

// Belief is a summary of a belief over the enemy's pieces.
type Belief struct {
	// Size is the number of boards the belief holds; Exact says whether that
	// is the whole information set; Deferred counts exact's backlog.
	Size     int  `json:"size"`
	Exact    bool `json:"exact"`
	Deferred int  `json:"deferred,omitempty"`
	// Entropy is the sampler's estimate of the uncertainty, in bits.
	Entropy float64 `json:"entropy"`
	// Counted is the number of boards the statistics come from; Sampled is
	// true when they were drawn (Size passed the cap) rather than all counted.
	Counted int  `json:"counted"`
	Sampled bool `json:"sampled,omitempty"`
	// P holds, for each piece type (pawn..king) and square (a1=0..h8=63),
	// the probability in thousandths that an enemy piece of that type is
	// there: 6×64 integers, type-major. Thousandths keep the page small and
	// are finer than a colour scale can show.
	P []int `json:"p"`
	// Truth is the weight of the boards counted that agree with the true
	// board on every enemy piece: 0 when the belief has lost the truth. It is
	// a fraction, not thousandths like P, because one board in ten thousand
	// is the usual case and must not round to "lost".
	Truth float64 `json:"truth"`
}

// Build replays h and gathers what the page shows.
func Build(ctx context.Context, h *rbc.History, opts Options) (*Page, error) {
	if opts.Sampler == "" {
		opts.Sampler = "exact"
	}
	if opts.MaxBoards <= 0 {
		opts.MaxBoards = DefaultMaxBoards
	}
	p := &Page{White: h.WhiteName, Black: h.BlackName, Outcome: h.Outcome.String(),
		Source: opts.Source, MaxBoards: opts.MaxBoards}
	if err := p.addPlies(h); err != nil {
		return nil, err
	}
	if len(opts.Colors) > 0 {
		p.Sampler = opts.Sampler
		p.Beliefs = map[string][]TurnBeliefs{}
	}
	for _, c := range opts.Colors {
		tb, err := replay(ctx, h, c, opts)
		if err != nil {
			return nil, fmt.Errorf("view: %v's belief: %w", c, err)
		}
		p.Beliefs[c.String()] = tb
	}
	if opts.Bot != nil {
		bot, err := askBot(ctx, h, opts.Bot)
		if err != nil {
			return nil, fmt.Errorf("view: the bot %s as %v: %w", opts.Bot.Spec, opts.Bot.Color, err)
		}
		p.Bot = bot
	}
	return p, nil
}

// askBot replays h to the bot on its side and gathers its choices.
func askBot(ctx context.Context, h *rbc.History, o *BotOptions) (*BotAnalysis, error) {
	if o.Player == nil || o.Left <= 0 {
		return nil, errors.New("no player, or no time on its clock")
	}
	out := &BotAnalysis{Spec: o.Spec, Color: o.Color.String(), LeftS: o.Left.Seconds()}
	if o.Log != nil {
		o.Log.Take() // what the player logged when it was made
	}
	err := analysis.Follow(ctx, o.Player, h, o.Color, o.Left, func(int) bool { return true }, func(d analysis.Decision) {
		t := BotTurn{Sense: squareName(d.Sense), HasMove: d.Record.HasMove, TookMS: float64(d.Took.Microseconds()) / 1000}
		if d.Record.HasMove && !d.Move.IsNull() {
			t.Move = d.Move.String()
		}
		if o.Log != nil {
			entries, dropped := o.Log.Take()
			for _, e := range entries {
				if next, ok := e.Attrs["next"]; ok && e.Message == "move" {
					t.Top = parseAlternatives(next)
				}
				if len(t.Log) < maxLogLines {
					t.Log = append(t.Log, e.Text)
				} else {
					dropped++
				}
			}
			t.Dropped = dropped
		}
		out.Turns = append(out.Turns, t)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// parseAlternatives reads the runners-up the Blindfish player logs with its
// move, "e2e4:35 d2d4:20 ...", and returns none when the text is not of
// that form (another bot's log).
func parseAlternatives(s string) []Alternative {
	var out []Alternative
	for _, f := range strings.Fields(s) {
		mv, val, ok := strings.Cut(f, ":")
		if !ok {
			return nil
		}
		if _, err := chess.ParseMove(mv); err != nil {
			return nil
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		out = append(out, Alternative{Move: mv, Value: v})
	}
	return out
}

// addPlies lists both players' turns in the order they were played.
func (p *Page) addPlies(h *rbc.History) error {
	start := chess.StartBoard()
	p.Final = start.FEN()
	n := max(len(h.Turns[chess.White]), len(h.Turns[chess.Black]))
	for i := range n {
		for _, c := range []chess.Color{chess.White, chess.Black} {
			if i >= len(h.Turns[c]) {
				continue
			}
			rec := &h.Turns[c][i]
			ply := Ply{Color: c.String(), Turn: i, HasMove: rec.HasMove, Sense: squareName(rec.Sense)}
			if len(rec.SenseResult) > 0 {
				ply.SenseResult = map[string]string{}
				for _, sp := range rec.SenseResult {
					ply.SenseResult[sp.Square.String()] = pieceLetter(sp.Piece)
				}
			}
			// The notice: the capture of the opponent's move just before.
			if len(p.Plies) > 0 {
				prev := p.Plies[len(p.Plies)-1]
				if prev.Color != ply.Color {
					ply.Notice = prev.Capture
				}
			}
			switch {
			case rec.HasMove:
				ply.Before = rec.FENBefore
				ply.After = rec.FENAfter
				if !rec.Requested.IsNull() {
					ply.Requested = rec.Requested.String()
				}
				if !rec.Taken.IsNull() {
					ply.Taken = rec.Taken.String()
				}
				ply.Capture = squareName(rec.Capture)
				p.Final = rec.FENAfter
			default:
				ply.Before = p.Final
			}
			parse := chess.ParseFEN
			if len(p.Plies) == 0 {
				parse = chess.ParsePosition // the record's first board comes from outside: checked
			}
			if _, err := parse(ply.Before); err != nil {
				return fmt.Errorf("view: %v's turn %d: board before the move: %w", c, i, err)
			}
			if ply.After != "" {
				if _, err := chess.ParseFEN(ply.After); err != nil {
					return fmt.Errorf("view: %v's turn %d: board after the move: %w", c, i, err)
				}
			}
			p.Plies = append(p.Plies, ply)
		}
	}
	return nil
}

// replay feeds colour c's observations to a fresh sampler and summarises the
// belief at each moment of each turn.
func replay(ctx context.Context, h *rbc.History, c chess.Color, opts Options) ([]TurnBeliefs, error) {
	so := opts.SamplerOptions
	so.Seed = opts.Seed
	s, err := sampler.New(opts.Sampler, so)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(opts.Seed, uint64(c)+1))
	enemy := c.Other()
	out := make([]TurnBeliefs, 0, len(h.Turns[c]))
	// summary summarises the belief, against the true board now, into *into.
	summary := func(ctx context.Context, t *sampler.ReplayTurn, into **Belief) error {
		b, err := summarise(ctx, s, enemy, &t.Path[len(t.Path)-1], opts.MaxBoards, rng)
		if err != nil {
			return fmt.Errorf("turn %d: %w", t.Index, err)
		}
		*into = b
		return nil
	}
	r := &sampler.Replay{
		Noticed: func(ctx context.Context, t *sampler.ReplayTurn) error {
			out = append(out, TurnBeliefs{})
			return summary(ctx, t, &out[len(out)-1].Start)
		},
		Sensed: func(ctx context.Context, t *sampler.ReplayTurn) error {
			return summary(ctx, t, &out[len(out)-1].Sensed)
		},
		Moved: func(ctx context.Context, t *sampler.ReplayTurn) error {
			return summary(ctx, t, &out[len(out)-1].Moved)
		},
	}
	if err := r.Run(ctx, s, h, c); err != nil {
		return nil, err
	}
	return out, nil
}

// tally is one worker's weighted counts.
type tally struct {
	w     [6][64]float64
	total float64
	truth float64
	n     int
}

func (t *tally) add(b *chess.Board, weight float64, enemy chess.Color, truth [6]chess.Bitboard) {
	t.total += weight
	t.n++
	same := true
	for k := range 6 {
		bb := b.PiecesOf(enemy, chess.PieceType(k+1))
		if bb != truth[k] {
			same = false
		}
		for bb != 0 {
			t.w[k][bb.PopFirst()] += weight
		}
	}
	if same {
		t.truth += weight
	}
}

// summarise counts the enemy's pieces over the belief: every board when it
// holds at most maxBoards, else a weighted sample of maxBoards.
func summarise(ctx context.Context, s sampler.Sampler, enemy chess.Color, truthBoard *chess.Board, maxBoards int, rng *rand.Rand) (*Belief, error) {
	size := s.Size()
	b := &Belief{Size: size.Boards, Exact: size.Exact, Deferred: size.Deferred, Entropy: s.Entropy()}
	if math.IsNaN(b.Entropy) || math.IsInf(b.Entropy, 0) {
		b.Entropy = 0
	}
	var truth [6]chess.Bitboard
	for k := range 6 {
		truth[k] = truthBoard.PiecesOf(enemy, chess.PieceType(k+1))
	}
	var total tally
	if size.Boards > maxBoards {
		b.Sampled = true
		sample, err := s.Sample(ctx, maxBoards, rng)
		if err != nil {
			return nil, fmt.Errorf("sample the belief: %w", err)
		}
		for i := range sample {
			total.add(&sample[i].Board, sample[i].Weight, enemy, truth)
		}
	} else {
		tallies := make([]tally, s.Workers())
		err := s.ForEach(ctx, func(worker int, boards []chess.Board, weights []float64) error {
			if worker < 0 || worker >= len(tallies) {
				return errors.New("sampler gave a worker id out of range")
			}
			t := &tallies[worker]
			for i := range boards {
				w := 1.0
				if weights != nil {
					w = weights[i]
				}
				t.add(&boards[i], w, enemy, truth)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("count the belief: %w", err)
		}
		for i := range tallies {
			t := &tallies[i]
			total.total += t.total
			total.truth += t.truth
			total.n += t.n
			for k := range 6 {
				for sq := range 64 {
					total.w[k][sq] += t.w[k][sq]
				}
			}
		}
	}
	b.Counted = total.n
	b.P = make([]int, 6*64)
	if total.total > 0 {
		for k := range 6 {
			for sq := range 64 {
				b.P[k*64+sq] = int(math.Round(1000 * total.w[k][sq] / total.total))
			}
		}
		b.Truth = float64(float32(total.truth / total.total)) // 7 digits are plenty and keep the JSON short
	}
	return b, nil
}

func squareName(s chess.Square) string {
	if !s.Valid() {
		return ""
	}
	return s.String()
}

func pieceLetter(p chess.Piece) string {
	if p == chess.NoPiece {
		return ""
	}
	return p.String()
}
