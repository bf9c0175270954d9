package rbcclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// Game is one game on the server, as one of its players sees it.
type Game struct {
	c  *Client
	ID int
}

// Game returns the calls of game id.
func (c *Client) Game(id int) *Game { return &Game{c: c, ID: id} }

func (g *Game) path(endpoint string) string {
	return "/api/games/" + strconv.Itoa(g.ID) + "/" + endpoint
}

func (g *Game) get(ctx context.Context, endpoint string, out any) error {
	return g.c.call(ctx, http.MethodGet, g.path(endpoint), nil, out, callOpts{})
}

func (g *Game) post(ctx context.Context, endpoint string, body, out any, o callOpts) error {
	if body == nil {
		body = struct{}{} // the reference client sends {} to the game calls
	}
	return g.c.call(ctx, http.MethodPost, g.path(endpoint), body, out, o)
}

// field reads one required key of an answer.
func field[T any](g *Game, ctx context.Context, endpoint, key string) (T, error) {
	var out map[string]json.RawMessage
	var v T
	if err := g.get(ctx, endpoint, &out); err != nil {
		return v, err
	}
	raw, ok := out[key]
	if !ok {
		return v, fmt.Errorf("rbcclient: GET %s: no %q in the answer", g.path(endpoint), key)
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("rbcclient: GET %s: %s: %w", g.path(endpoint), key, err)
	}
	return v, nil
}

// Color returns the colour we play.
func (g *Game) Color(ctx context.Context) (chess.Color, error) {
	white, err := field[bool](g, ctx, "color", "color")
	if err != nil {
		return chess.White, err
	}
	if white {
		return chess.White, nil
	}
	return chess.Black, nil
}

// StartingBoard returns the starting position.
func (g *Game) StartingBoard(ctx context.Context) (chess.Board, error) {
	b, err := field[WireBoard](g, ctx, "starting_board", "board")
	if err != nil {
		return chess.Board{}, err
	}
	return chess.ParsePosition(b.FEN)
}

// OpponentName returns the opponent's name.
func (g *Game) OpponentName(ctx context.Context) (string, error) {
	return field[string](g, ctx, "opponent_name", "opponent_name")
}

// Ready tells the server we are ready; the clocks start when both are.
func (g *Game) Ready(ctx context.Context) error {
	return g.post(ctx, "ready", nil, nil, callOpts{DoneOn4xx: true})
}

// Status is the answer of game_status.
type Status struct {
	IsOver   bool `json:"is_over"`
	IsMyTurn bool `json:"is_my_turn"`
}

// Status returns whether the game is over and whether it is our turn.
func (g *Game) Status(ctx context.Context) (Status, error) {
	var s struct {
		IsOver   *bool `json:"is_over"`
		IsMyTurn *bool `json:"is_my_turn"`
	}
	if err := g.get(ctx, "game_status", &s); err != nil {
		return Status{}, err
	}
	if s.IsOver == nil || s.IsMyTurn == nil {
		return Status{}, fmt.Errorf("rbcclient: GET %s: incomplete status", g.path("game_status"))
	}
	return Status{IsOver: *s.IsOver, IsMyTurn: *s.IsMyTurn}, nil
}

// SenseActions returns the squares we may sense.
func (g *Game) SenseActions(ctx context.Context) ([]chess.Square, error) {
	ws, err := field[[]WireSquare](g, ctx, "sense_actions", "sense_actions")
	if err != nil {
		return nil, err
	}
	out := make([]chess.Square, 0, len(ws))
	for _, s := range ws {
		if s.Valid() {
			out = append(out, s.Square)
		}
	}
	return out, nil
}

// MoveActions returns the moves we may request.
func (g *Game) MoveActions(ctx context.Context) ([]chess.Move, error) {
	wm, err := field[[]WireMove](g, ctx, "move_actions", "move_actions")
	if err != nil {
		return nil, err
	}
	out := make([]chess.Move, 0, len(wm))
	for _, m := range wm {
		if !m.IsNull() {
			out = append(out, m.Move)
		}
	}
	return out, nil
}

// OpponentMoveResult returns where the opponent captured one of our pieces
// on its last move, or chess.NoSquare.
func (g *Game) OpponentMoveResult(ctx context.Context) (chess.Square, error) {
	s, err := field[WireSquare](g, ctx, "opponent_move_results", "opponent_move_results")
	return s.Square, err
}

// SecondsLeft returns our clock.
func (g *Game) SecondsLeft(ctx context.Context) (time.Duration, error) {
	f, err := field[float64](g, ctx, "seconds_left", "seconds_left")
	if err != nil {
		return 0, err
	}
	return time.Duration(f * float64(time.Second)), nil
}

// Sense senses the window around square (chess.NoSquare passes).
func (g *Game) Sense(ctx context.Context, square chess.Square) ([]rbc.SquarePiece, error) {
	var out struct {
		SenseResult *[]WireSenseEntry `json:"sense_result"`
	}
	if err := g.post(ctx, "sense", map[string]WireSquare{"square": {square}}, &out, callOpts{}); err != nil {
		return nil, err
	}
	if out.SenseResult == nil {
		return nil, fmt.Errorf("rbcclient: POST %s: no sense_result in the answer", g.path("sense"))
	}
	res := make([]rbc.SquarePiece, len(*out.SenseResult))
	for i, e := range *out.SenseResult {
		res[i] = rbc.SquarePiece(e)
	}
	return res, nil
}

// Move requests a move (the null move passes) and returns its result.
func (g *Game) Move(ctx context.Context, m chess.Move) (WireMoveResult, error) {
	var out struct {
		MoveResult *WireMoveResult `json:"move_result"`
	}
	if err := g.post(ctx, "move", map[string]WireMove{"requested_move": {m}}, &out, callOpts{}); err != nil {
		return WireMoveResult{}, err
	}
	if out.MoveResult == nil {
		return WireMoveResult{}, fmt.Errorf("rbcclient: POST %s: no move_result in the answer", g.path("move"))
	}
	return *out.MoveResult, nil
}

// EndTurn ends our turn.
func (g *Game) EndTurn(ctx context.Context) error {
	return g.post(ctx, "end_turn", nil, nil, callOpts{DoneOn4xx: true})
}

// Resign resigns the game (only on our turn).
func (g *Game) Resign(ctx context.Context) error { return g.post(ctx, "resign", nil, nil, callOpts{}) }

// ErrorResign tells the server we failed: our clock is zeroed, so the
// opponent need not wait for it to run out.
func (g *Game) ErrorResign(ctx context.Context) error {
	return g.post(ctx, "error_resign", nil, nil, callOpts{DoneOn4xx: true})
}

// Outcome returns the winner and the reason, once the game is over.
func (g *Game) Outcome(ctx context.Context) (rbc.Outcome, error) {
	var o rbc.Outcome
	var w struct {
		Winner *bool `json:"winner_color"`
	}
	if err := g.get(ctx, "winner_color", &w); err != nil {
		return o, err
	}
	if w.Winner != nil {
		o.HasWinner = true
		if !*w.Winner {
			o.Winner = chess.Black
		}
	}
	r, err := field[WireWinReason](g, ctx, "win_reason", "win_reason")
	if err != nil {
		return o, err
	}
	o.Reason = r.WinReason
	return o, nil
}

// History returns the game's record as the server sends it (the harness's
// GameHistory JSON) and parsed.
func (g *Game) History(ctx context.Context) (json.RawMessage, *rbc.History, error) {
	raw, err := field[json.RawMessage](g, ctx, "game_history", "game_history")
	if err != nil {
		return nil, nil, err
	}
	h, err := record.ParseHistory(raw)
	if err != nil {
		return raw, nil, fmt.Errorf("rbcclient: the game history does not parse: %w", err)
	}
	return raw, h, nil
}

// ErrGameOver reports that the game ended while we were playing a turn (our
// clock ran out, or the opponent's): not an error of ours.
var ErrGameOver = errors.New("rbcclient: the game is over")
