package view

// The page of a Kriegspiel game: the referee's answers turn by turn, seen by
// one player or by a spectator, with a player's belief drawn on the board.
// A Kriegspiel player sees no part of its opponent's board, only the
// referee's answers, so the page shows what was asked and answered and lets
// the belief (the boards those answers leave possible) stand for the rest.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/record"
	"github.com/blindfish-rbc/blindfish/record/ksrecord"
	"github.com/blindfish-rbc/blindfish/sampler"
)

// DefaultKriegspielLimit is the most boards a Kriegspiel belief is followed
// to on a page unless told otherwise. An exact Kriegspiel belief reaches
// hundreds of thousands of boards within a dozen turns, and past that its
// updates take seconds a turn; the turns after the limit are shown without
// a belief.
const DefaultKriegspielLimit = DefaultMaxBoards

// KriegspielPage is everything the Kriegspiel page shows, as it is embedded
// in it (JSON).
type KriegspielPage struct {
	// Game is "kriegspiel": the page's script and the tests tell the two
	// pages' data apart by it.
	Game    string `json:"game"`
	Ruleset string `json:"ruleset"`
	White   string `json:"white"`
	Black   string `json:"black"`
	Outcome string `json:"outcome"`
	Source  string `json:"source,omitempty"`
	// Side is the player whose view the page shows ("white" or "black"):
	// its own men, and only the answers it heard. "" shows the true board
	// and every answer.
	Side string `json:"side,omitempty"`
	// Belief names the belief followed ("exact", or a sampling one), Limit
	// the most boards it was followed to.
	Belief string `json:"belief,omitempty"`
	Limit  int    `json:"limit"`
	// Turns are the players' turns in order; the page has one frame per
	// turn (the board before its move) and a last one, Final.
	Turns []KriegspielTurn `json:"turns"`
	Final string           `json:"final"`
	// Beliefs holds, per colour whose belief was followed, one entry per
	// frame: the belief at the start of turn k (after the k turns before
	// it), and after the last turn. An entry is nil where the belief was
	// not followed; Stopped says why.
	Beliefs map[string][]*KriegspielBelief `json:"beliefs,omitempty"`
	Stopped map[string]string              `json:"stopped,omitempty"`
}

// KriegspielTurn is one player's turn.
type KriegspielTurn struct {
	Color string `json:"color"` // "white" or "black"
	Turn  int    `json:"turn"`  // the player's own turn number, from 0
	// Before is the board before the turn's move (FEN); in a player's view,
	// the placement of its own men and the side to move only.
	Before string `json:"before"`
	// Move is the move made (UCI), "" when none was made or the page's side
	// did not see it (its opponent's).
	Move string `json:"move,omitempty"`
	// PawnTries is the number of pawn tries announced to the player at the
	// start of the turn, or -1 when the rules announce none.
	PawnTries int `json:"pawnTries"`
	// Tries are the questions asked and their answers, in order; in a
	// player's view only those it heard.
	Tries []KriegspielTry `json:"tries"`
}

// KriegspielTry is one question and the referee's answer.
type KriegspielTry struct {
	// Q is the move tried (UCI) or "any"; "" where the page's side did not
	// see the question (its opponent's move).
	Q string `json:"q,omitempty"`
	// Verdict is the referee's name of the verdict (ILLEGAL_MOVE, ...), Says
	// the whole answer in words.
	Verdict string `json:"verdict"`
	Says    string `json:"says"`
	// Capture is the square of a captured man, Check the check announced
	// ("" for none), for the board's marks.
	Capture string `json:"capture,omitempty"`
	Check   string `json:"check,omitempty"`
	// Public reports whether the asker's opponent heard the answer.
	Public bool `json:"public"`
}

// KriegspielBelief is a player's belief at one moment: how many of its
// boards have an opponent's man on each square.
type KriegspielBelief struct {
	Boards int  `json:"boards"`
	Exact  bool `json:"exact"` // the whole set of boards the answers allow
	// Counts holds, per square (a1=0..h8=63), the boards with an opponent's
	// man there.
	Counts []int `json:"counts"`
	// Truth reports whether the true position (Board.Key: the placement,
	// side to move, castling and en-passant rights) is among the boards.
	Truth bool `json:"truth"`
}

// BuildKriegspiel gathers what the page of a Kriegspiel record shows. With
// one colour in opts.Colors the page is that player's view; with none or
// both it is the true board. Each colour's belief is followed with
// opts.Sampler (kriegspiel.ViewNames; "" is exact), of at most
// opts.MaxBoards boards (DefaultKriegspielLimit when 0); a sampling belief
// keeps opts.SamplerOptions.PoolSize boards. opts.Bot is for RBC records.
func BuildKriegspiel(ctx context.Context, rec *kriegspiel.Record, opts Options) (*KriegspielPage, error) {
	if opts.Bot != nil {
		return nil, errors.New("view: a bot's choices are shown on RBC records only")
	}
	name := opts.Sampler
	if name == "" {
		name = "exact"
	}
	limit := opts.MaxBoards
	if limit <= 0 {
		limit = DefaultKriegspielLimit
	}
	rec, err := withBoards(rec)
	if err != nil {
		return nil, err
	}
	p := &KriegspielPage{Game: "kriegspiel", Ruleset: rec.Ruleset.Name, White: rec.White, Black: rec.Black,
		Outcome: rec.Result.String(), Source: opts.Source, Limit: limit}
	side := -1
	if len(opts.Colors) == 1 {
		side = int(opts.Colors[0])
		p.Side = opts.Colors[0].String()
	}
	if err := p.addTurns(rec, side); err != nil {
		return nil, err
	}
	if len(opts.Colors) == 0 {
		return p, nil
	}
	start, err := chess.ParseFEN(rec.StartFEN) // read by addTurns already
	if err != nil {
		return nil, fmt.Errorf("view: the record's start: %w", err)
	}
	p.Belief = name
	p.Beliefs = map[string][]*KriegspielBelief{}
	for _, c := range opts.Colors {
		size := limit
		if name != "exact" {
			size = opts.SamplerOptions.PoolSize
			if size <= 0 {
				size = sampler.DefaultPoolSize
			}
		}
		v, err := kriegspiel.NewView(name, c, rec.Ruleset, start, rec.PawnTries, size, rand.New(rand.NewPCG(opts.Seed, uint64(c))))
		if err != nil {
			return nil, fmt.Errorf("view: %w", err)
		}
		frames := make([]*KriegspielBelief, len(rec.Turns)+1)
		frames[0] = countBelief([]chess.Board{start}, c, &start, name == "exact")
		st, err := kriegspiel.FollowTurns(ctx, rec, c, v, func(turn int, truth *chess.Board) error {
			frames[turn+1] = countBelief(v.Boards(), c, truth, name == "exact")
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("view: %v's belief: %w", c, err)
		}
		p.Beliefs[c.String()] = frames
		if why := stoppedNote(rec, st, limit); why != "" {
			if p.Stopped == nil {
				p.Stopped = map[string]string{}
			}
			p.Stopped[c.String()] = why
		}
	}
	return p, nil
}

// withBoards returns rec with the true board after every move filled in
// where the record leaves it out (fen_after is optional), from the
// referee's replay of the questions.
func withBoards(rec *kriegspiel.Record) (*kriegspiel.Record, error) {
	if !slices.ContainsFunc(rec.Turns, func(t kriegspiel.Turn) bool { return !t.Move.IsNull() && t.FENAfter == "" }) {
		return rec, nil
	}
	g, err := kriegspiel.NewGameFromFEN(rec.Ruleset, rec.StartFEN)
	if err != nil {
		return nil, fmt.Errorf("view: the record's start: %w", err)
	}
	out := *rec
	out.Turns = slices.Clone(rec.Turns)
	for i := range out.Turns {
		t := &out.Turns[i]
		for j, try := range t.Tries {
			if _, err := g.Ask(try.Question); err != nil {
				return nil, fmt.Errorf("view: replay turns[%d].tries[%d]: %w", i, j, err)
			}
		}
		if !t.Move.IsNull() && t.FENAfter == "" {
			b := g.Board()
			t.FENAfter = b.FEN()
		}
	}
	return &out, nil
}

// stoppedNote says why a belief was not followed to the end of the record,
// or "" when it was.
func stoppedNote(rec *kriegspiel.Record, st kriegspiel.FollowStats, limit int) string {
	if st.Stopped == nil {
		if n := len(rec.Turns); n > 0 && rec.Turns[n-1].Move.IsNull() {
			return fmt.Sprintf("not followed on frame %d: the game ended before the last turn's move", n+1)
		}
		return ""
	}
	// The turn at StoppedAt is the first not followed: the belief after it
	// is frame StoppedAt+1, which the page numbers from 1.
	frame := st.StoppedAt + 2
	switch {
	case errors.Is(st.Stopped, kriegspiel.ErrBeliefTooLarge):
		return fmt.Sprintf("not followed from frame %d on: the belief would pass %d boards (view --max-boards)", frame, limit)
	case errors.Is(st.Stopped, kriegspiel.ErrEmptyBelief):
		return fmt.Sprintf("not followed from frame %d on: no board is left consistent with the answers", frame)
	}
	return fmt.Sprintf("not followed from frame %d on: %v", frame, st.Stopped)
}

// countBelief counts, per square, the boards with a man of c's opponent
// there.
func countBelief(boards []chess.Board, c chess.Color, truth *chess.Board, exact bool) *KriegspielBelief {
	b := &KriegspielBelief{Boards: len(boards), Exact: exact, Counts: make([]int, 64)}
	enemy := c.Other()
	want, key := truth.Pieces(enemy), truth.Key()
	for i := range boards {
		bb := boards[i].Pieces(enemy)
		if !b.Truth && bb == want && boards[i].Key() == key {
			b.Truth = true
		}
		for bb != 0 {
			b.Counts[bb.PopFirst()]++
		}
	}
	return b
}

// addTurns lists the turns, as the side (a colour, or -1 for the true board)
// saw them.
func (p *KriegspielPage) addTurns(rec *kriegspiel.Record, side int) error {
	before := rec.StartFEN
	tries := rec.PawnTries
	own := map[chess.Color]int{}
	for i, t := range rec.Turns {
		shown, err := seenBoard(before, side)
		if err != nil {
			return fmt.Errorf("view: turn %d: %w", i, err)
		}
		kt := KriegspielTurn{Color: t.Color.String(), Turn: own[t.Color], Before: shown, PawnTries: tries, Tries: []KriegspielTry{}}
		own[t.Color]++
		mine := side < 0 || int(t.Color) == side
		if mine && !t.Move.IsNull() {
			kt.Move = t.Move.String()
		}
		for _, try := range t.Tries {
			if !mine && !try.Public {
				continue // the side did not hear it
			}
			kt.Tries = append(kt.Tries, tryOf(t.Color, try, mine))
			if try.Answer.Verdict.Done() {
				tries = try.Answer.PawnTries
			}
		}
		p.Turns = append(p.Turns, kt)
		if !t.Move.IsNull() {
			before = t.FENAfter // filled in by withBoards where the record has none
		}
	}
	final, err := seenBoard(rec.FinalFEN, side)
	if err != nil {
		return fmt.Errorf("view: the final board: %w", err)
	}
	p.Final = final
	return nil
}

// seenBoard returns the board of fen as side sees it: all of it (side < 0),
// or its own men only.
func seenBoard(fen string, side int) (string, error) {
	b, err := chess.ParseFEN(fen)
	if err != nil {
		return "", err
	}
	if side < 0 {
		return fen, nil
	}
	for bb := b.Pieces(chess.Color(side).Other()); bb != 0; {
		b.SetPiece(bb.PopFirst(), chess.NoPiece)
	}
	// The placement and the side to move: the castling rights, en-passant
	// square and move counters would tell of the opponent's men.
	f := strings.Fields(b.FEN())
	return f[0] + " " + f[1], nil
}

// tryOf returns a question and its answer as the page shows them; seen says
// whether the question itself is shown (the asker's, or the true board's).
func tryOf(mover chess.Color, try kriegspiel.Try, seen bool) KriegspielTry {
	a := try.Answer
	kt := KriegspielTry{Verdict: a.Verdict.String(), Says: a.Words(mover), Public: try.Public}
	if seen || try.Question.AskAny {
		kt.Q = try.Question.String()
	}
	if a.Capture != chess.NoSquare {
		kt.Capture = a.Capture.String()
	}
	if a.Checks[0] != kriegspiel.NoCheck {
		kt.Check = a.CheckWords()
	}
	return kt
}

// WriteKriegspielPage writes the page of a Kriegspiel record
// (BuildKriegspiel).
func WriteKriegspielPage(ctx context.Context, rec *record.Record, path string, opts Options) (int, error) {
	kr, err := ksrecord.Read(bytes.NewReader(rec.Data))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	page, err := BuildKriegspiel(ctx, kr, opts)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", rec.Name(), err)
	}
	return len(page.Turns), WriteKriegspielFile(path, page)
}
