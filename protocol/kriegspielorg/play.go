package kriegspielorg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/guard"
	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi"
)

// PlayOptions tune PlayGame.
type PlayOptions struct {
	// Rules are the game's rules (from its rule_variant in the game lists;
	// the state does not repeat it).
	Rules kriegspiel.Ruleset
	// Self and Opponent are the players' names, for the player and the record.
	Self, Opponent string
	// PollInterval is the longest pause between state polls while the
	// opponent plays (default 1 s); the first polls of a wait come sooner.
	PollInterval time.Duration
	// Margin is kept off our clock for the network (default 1 s, at most a
	// tenth of the clock).
	Margin time.Duration
	// StartTimeout and EndTimeout bound HandleGameStart and HandleGameEnd
	// (defaults 60 s and 30 s).
	StartTimeout, EndTimeout time.Duration
	// TryRetries bounds how often one question is sent again after its
	// answer was lost and the scoresheet shows it did not count (default 20).
	TryRetries int
	// Logger receives the game's progress; nil discards it.
	Logger *slog.Logger
}

// Result is a game played to its end.
type Result struct {
	GameID string
	Color  chess.Color
	Result kriegspiel.Result
	Turns  int // our turns
	// Record is the whole game, rebuilt from the server's transcript once
	// the game is over and checked by re-refereeing it; nil when the
	// transcript could not be had or did not check.
	Record *kriegspiel.Record
}

// ErrLost is returned when the game cannot go on for a reason of ours: the
// player failed, or the server refused a question it should have taken.
var ErrLost = errors.New("kriegspiel.org: the game cannot go on")

// PlayGame plays game id with player to its end: each of our turns gets
// what we heard of the opponent's (read from our scoresheet) and then our
// questions until one makes a move. Every callback gets a context that ends
// with our clock (less a margin). A try whose answer is lost is never sent
// twice blindly: the scoresheet tells whether it counted.
func PlayGame(ctx context.Context, c *Client, id string, player kriegspiel.Player, o PlayOptions) (*Result, error) {
	if o.PollInterval <= 0 {
		o.PollInterval = time.Second
	}
	if o.Margin <= 0 {
		o.Margin = time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = time.Minute
	}
	if o.EndTimeout <= 0 {
		o.EndTimeout = 30 * time.Second
	}
	if o.TryRetries <= 0 {
		o.TryRetries = 20
	}
	if o.Rules.Name == "" {
		o.Rules = kriegspiel.Wild16()
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g := &game{c: c, id: id, player: player, o: o, log: log.With("game", id), res: &Result{GameID: id}}
	return g.res, g.play(ctx)
}

// game is one game being played.
type game struct {
	c      *Client
	id     string
	player kriegspiel.Player
	o      PlayOptions
	log    *slog.Logger
	res    *Result
	me     chess.Color
	// heard counts the opponent's lines already given to the player; own
	// counts our own question lines on the scoresheet.
	heard, own int
}

func (g *game) play(ctx context.Context) error {
	st, err := g.c.State(ctx, g.id)
	if err != nil {
		return err
	}
	if g.me, err = color(st.YourColor); err != nil {
		return err
	}
	g.res.Color = g.me
	start := kriegspiel.NewGame(g.o.Rules)
	g.log.Info("game start", "color", g.me.String(), "rules", g.o.Rules.Name, "opponent", g.o.Opponent)
	if err := g.call(ctx, time.Now().Add(g.o.StartTimeout), "HandleGameStart", func(ctx context.Context) error {
		return g.player.HandleGameStart(ctx, g.me, g.o.Rules, start.Board(), start.PawnTries(), g.o.Opponent)
	}); err != nil {
		return err
	}
	for {
		if st, err = g.waitTurn(ctx); err != nil {
			return err
		}
		if st.State == "completed" {
			break
		}
		over, err := g.turn(ctx, st)
		if err != nil {
			return err
		}
		if over {
			if st, err = g.c.State(ctx, g.id); err != nil {
				return err
			}
			break
		}
	}
	g.res.Result = resultOf(st.Result)
	g.res.Record = g.record(ctx)
	g.log.Info("game over", "result", g.res.Result.String(), "turns", g.res.Turns)
	if err := g.call(ctx, time.Now().Add(g.o.EndTimeout), "HandleGameEnd", func(ctx context.Context) error {
		return g.player.HandleGameEnd(ctx, g.res.Result, g.res.Record)
	}); err != nil {
		g.log.Warn("the player failed at the game's end", "err", err)
	}
	return nil
}

// waitTurn polls the state until it is our turn or the game is over.
func (g *game) waitTurn(ctx context.Context) (*State, error) {
	pause := min(20*time.Millisecond, g.o.PollInterval)
	for {
		st, err := g.c.State(ctx, g.id)
		if err != nil {
			return nil, err
		}
		if st.State == "completed" || st.State == "active" && st.Turn == g.me.String() {
			return st, nil
		}
		if err := httpapi.Sleep(ctx, pause); err != nil {
			return nil, fmt.Errorf("kriegspiel.org: waiting for our turn: %w", err)
		}
		pause = min(2*pause, g.o.PollInterval)
	}
}

// turn plays one of our turns from st; over reports that the game ended
// with it.
func (g *game) turn(ctx context.Context, st *State) (over bool, err error) {
	g.res.Turns++
	deadline := g.deadline(st)
	lines, err := ReadScoresheet(st.Scoresheet, g.o.Rules)
	if err != nil {
		return false, err
	}
	heard := g.opponentLines(lines)
	if len(heard) < g.heard {
		return false, fmt.Errorf("kriegspiel.org: the scoresheet lost lines of the opponent (%d, had %d)", len(heard), g.heard)
	}
	fresh := heard[g.heard:]
	g.heard = len(heard)
	if err := g.call(ctx, deadline, "HandleOpponentTurn", func(ctx context.Context) error {
		return g.player.HandleOpponentTurn(ctx, fresh)
	}); err != nil {
		return false, err
	}
	for {
		questions, err := questionsOf(st)
		if err != nil {
			return false, err
		}
		if len(questions) == 0 {
			return false, fmt.Errorf("kriegspiel.org: our turn, but the server offers no question")
		}
		var q kriegspiel.Question
		left := time.Until(deadline)
		if err := g.call(ctx, deadline, "ChooseQuestion", func(ctx context.Context) (err error) {
			q, err = g.player.ChooseQuestion(ctx, questions, left)
			return err
		}); err != nil {
			return false, err
		}
		a, gameOver, err := g.ask(ctx, q)
		if err != nil {
			return false, err
		}
		if err := g.call(ctx, deadline, "HandleAnswer", func(ctx context.Context) error {
			return g.player.HandleAnswer(ctx, q, a)
		}); err != nil {
			return false, err
		}
		if a.Verdict.Done() || gameOver {
			return gameOver || a.End != kriegspiel.NotOver, nil
		}
		if st, err = g.c.State(ctx, g.id); err != nil {
			return false, err
		}
		if st.State == "completed" {
			return true, nil
		}
	}
}

// ask puts one question to the referee. When the answer is lost, the
// scoresheet says whether the question counted (its answer is then read
// from there); one that did not is sent again.
func (g *game) ask(ctx context.Context, q kriegspiel.Question) (kriegspiel.Answer, bool, error) {
	for attempt := 0; ; attempt++ {
		res, err := g.c.Try(ctx, g.id, q.String())
		if err == nil {
			a, aerr := res.Answer()
			if aerr != nil {
				return a, false, aerr
			}
			if a.Verdict != kriegspiel.Impossible {
				g.own++
			}
			return a, res.GameOver, nil
		}
		if ctx.Err() != nil {
			return kriegspiel.Answer{}, false, err
		}
		var se *StatusError
		refused := errors.As(err, &se) && se.Code >= 400 && se.Code < 500
		st, serr := g.c.State(ctx, g.id)
		if serr != nil {
			return kriegspiel.Answer{}, false, fmt.Errorf("%w (and the state: %w)", err, serr)
		}
		lines, lerr := ReadScoresheet(st.Scoresheet, g.o.Rules)
		if lerr != nil {
			return kriegspiel.Answer{}, false, lerr
		}
		own := g.ownLines(lines)
		switch {
		case len(own) == g.own+1 && own[g.own].Question == q:
			g.log.Info("a try's answer was lost; read it from the scoresheet", "try", q.String(), "err", err)
			g.own++
			return own[g.own-1].Answer, st.State == "completed", nil
		case st.State == "completed":
			return kriegspiel.Answer{Verdict: kriegspiel.Impossible, Capture: chess.NoSquare, PawnTries: -1}, true, nil
		case refused && se.Code != http.StatusConflict && se.Code != http.StatusTooManyRequests:
			return kriegspiel.Answer{}, false, fmt.Errorf("%w: %w", ErrLost, err)
		case attempt >= g.o.TryRetries:
			return kriegspiel.Answer{}, false, fmt.Errorf("kriegspiel.org: giving up on a try after %d attempts: %w", attempt+1, err)
		}
		g.log.Warn("a try failed and did not count; trying again", "try", q.String(), "err", err)
		if err := httpapi.Sleep(ctx, g.o.PollInterval/2); err != nil {
			return kriegspiel.Answer{}, false, err
		}
	}
}

// opponentLines are the answers we heard to the opponent's questions, as
// our referee gives them (an answer the rules keep from us is left out).
func (g *game) opponentLines(lines []Line) []kriegspiel.Heard {
	var out []kriegspiel.Heard
	for _, l := range lines {
		if !l.Status && l.Color != g.me && g.o.Rules.HeardByOpponent(l.Answer) {
			out = append(out, kriegspiel.Heard{Question: l.Question, Answer: l.Answer})
		}
	}
	return out
}

// ownLines are our own questions on the scoresheet.
func (g *game) ownLines(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		if !l.Status && l.Color == g.me {
			out = append(out, l)
		}
	}
	return out
}

// deadline is when our clock runs out, less the margin.
func (g *game) deadline(st *State) time.Time {
	left := st.Clock.WhiteRemaining
	if g.me == chess.Black {
		left = st.Clock.BlackRemaining
	}
	d := time.Duration(left * float64(time.Second))
	return time.Now().Add(d - min(g.o.Margin, d/10))
}

func (g *game) call(ctx context.Context, deadline time.Time, name string, fn func(context.Context) error) error {
	if err := guard.Call(ctx, "kriegspiel.org", deadline, name, fn); err != nil {
		return fmt.Errorf("%w: %w", ErrLost, err)
	}
	return nil
}

// questionsOf lists what we may ask now: the server's moves, and "any?"
// when it offers it.
func questionsOf(st *State) ([]kriegspiel.Question, error) {
	out := make([]kriegspiel.Question, 0, len(st.AllowedMoves)+1)
	for _, s := range st.AllowedMoves {
		q, err := kriegspiel.ParseQuestion(s)
		if err != nil {
			return nil, fmt.Errorf("kriegspiel.org: an allowed move: %w", err)
		}
		out = append(out, q)
	}
	if slices.Contains(st.PossibleActions, "ask_any") {
		out = append(out, kriegspiel.Any())
	}
	return out, nil
}

// resultOf reads the server's result.
func resultOf(p *ResultPayload) kriegspiel.Result {
	if p == nil {
		return kriegspiel.Result{}
	}
	var r kriegspiel.Result
	if p.Winner != nil {
		if w, err := color(*p.Winner); err == nil {
			r.Winner, r.HasWinner = w, true
		}
	}
	switch p.Reason {
	case "checkmate":
		r.Reason, r.End = kriegspiel.ByRules, kriegspiel.CheckmateWhiteWins
		if r.HasWinner && r.Winner == chess.Black {
			r.End = kriegspiel.CheckmateBlackWins
		}
	case "stalemate":
		r.Reason, r.End = kriegspiel.ByRules, kriegspiel.DrawStalemate
	case "insufficient":
		r.Reason, r.End = kriegspiel.ByRules, kriegspiel.DrawInsufficient
	case "too_many_reversible_moves":
		r.Reason, r.End = kriegspiel.ByRules, kriegspiel.DrawReversible
	case "repetition":
		r.Reason, r.End = kriegspiel.ByRules, kriegspiel.DrawRepetition
	case "timeout":
		r.Reason = kriegspiel.Timeout
	case "turn_limit": // the loopback server's, for short test games
		r.Reason = kriegspiel.TurnLimit
	default:
		r.Reason, r.Detail = kriegspiel.Resign, p.Reason
	}
	return r
}
