package kriegspielorg

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
)

// Transcript returns every question of a game with its answer; for a game
// being played the server shows a player only its own moves.
func (c *Client) Transcript(ctx context.Context, id string) ([]TranscriptMove, error) {
	var out struct {
		Moves []TranscriptMove `json:"moves"`
	}
	err := c.api.Call(ctx, http.MethodGet, "/game/"+url.PathEscape(id)+"/moves", nil, &out, jsonCall)
	return out.Moves, err
}

// RecordOf rebuilds a finished game's record from its transcript and checks
// it by re-refereeing it: every answer the server gave must be the one our
// referee gives, and the result the one the rules give. white and black
// name the players.
func RecordOf(moves []TranscriptMove, rules kriegspiel.Ruleset, result kriegspiel.Result, white, black string) (*kriegspiel.Record, error) {
	start := kriegspiel.NewGame(rules)
	rec := &kriegspiel.Record{Ruleset: rules, White: white, Black: black, StartFEN: start.StartFEN(),
		PawnTries: start.PawnTries(), Result: result}
	for i, m := range moves {
		c, err := color(m.Color)
		if err != nil {
			return nil, fmt.Errorf("kriegspiel.org: transcript ply %d: %w", i+1, err)
		}
		a, err := m.answer()
		if err != nil {
			return nil, fmt.Errorf("kriegspiel.org: transcript ply %d: %w", i+1, err)
		}
		if a.Verdict == kriegspiel.Impossible {
			continue // not a try: the referee refused to consider it
		}
		q := kriegspiel.Any()
		if m.Question != "ASK_ANY" {
			if m.UCI == nil {
				return nil, fmt.Errorf("kriegspiel.org: transcript ply %d: a move without its move", i+1)
			}
			if q, err = kriegspiel.ParseQuestion(*m.UCI); err != nil {
				return nil, fmt.Errorf("kriegspiel.org: transcript ply %d: %w", i+1, err)
			}
		}
		if n := len(rec.Turns); n == 0 || rec.Turns[n-1].Color != c || !rec.Turns[n-1].Move.IsNull() {
			rec.Turns = append(rec.Turns, kriegspiel.Turn{Color: c, ClockLeft: -1})
		}
		t := &rec.Turns[len(rec.Turns)-1]
		t.Tries = append(t.Tries, kriegspiel.Try{Question: q, Answer: a, Public: rules.HeardByOpponent(a)})
		if a.Verdict.Done() {
			t.Move = q.Move
		}
	}
	// The final board is the replay's; everything before it must agree.
	g, err := rec.Replay()
	var mm *kriegspiel.Mismatch
	if errors.As(err, &mm) && mm.Field == "final_fen" {
		b := g.Board()
		rec.FinalFEN = b.FEN()
		_, err = rec.Replay()
	}
	if err != nil {
		return nil, fmt.Errorf("kriegspiel.org: the server's transcript does not re-referee: %w", err)
	}
	return rec, nil
}

// record fetches and checks the record of our finished game; nil (logged)
// when it cannot be had.
func (g *game) record(ctx context.Context) *kriegspiel.Record {
	moves, err := g.c.Transcript(ctx, g.id)
	if err != nil {
		g.log.Warn("no game record", "err", err)
		return nil
	}
	names := [2]string{g.o.Self, g.o.Opponent}
	if g.me == chess.Black {
		names[0], names[1] = names[1], names[0]
	}
	rec, err := RecordOf(moves, g.o.Rules, g.res.Result, names[0], names[1])
	if err != nil {
		g.log.Warn("no game record", "err", err)
		return nil
	}
	return rec
}
