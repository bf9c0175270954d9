// Package rbcclienttest is a tournament server for tests, as httptest is
// for net/http: it implements the reconchess server's HTTP API (the calls
// the reference client makes) on top of our own referee, so that a client
// can play whole games against local bots, and it can inject the faults a
// real server and network produce (5xx bursts, slow answers, dropped
// connections, malformed JSON) to show that the client survives them.
//
// A game's user side is a player whose callbacks wait for the user's HTTP
// calls; the other side is a local rbc.Player. The referee (rbc.PlayLocalGame)
// runs the game, with its clocks, exactly as in a local match.
package rbcclienttest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/protocol/internal/faults"
	"github.com/blindfish-rbc/blindfish/protocol/internal/gameserver"
	"github.com/blindfish-rbc/blindfish/protocol/rbcclient"
	"github.com/blindfish-rbc/blindfish/rbc"
	"github.com/blindfish-rbc/blindfish/record"
)

// Faults says how often each fault is injected (see package faults).
type Faults = faults.Faults

// Config configures a Server.
type Config struct {
	// Version is what GET /api/version reports (default rbcclient.HarnessVersion).
	Version string
	// Users maps each account's name to its password.
	Users map[string]string
	// Game sets the clocks and limits of every game (names are filled in).
	Game rbc.Options
	// Bots are the server's own players, which users may invite by name.
	Bots map[string]func() rbc.Player
	// Faults are injected into the answers.
	Faults Faults
	// Logger receives the server's diagnostics; nil discards them.
	Logger *slog.Logger
	// MaxBodyBytes bounds a request's body (default DefaultMaxBodyBytes);
	// a longer one gets 413 before it is read whole.
	MaxBodyBytes int64
}

// DefaultMaxBodyBytes bounds a request's body: the API's bodies (a
// square, a move, a setting) are a few dozen bytes.
const DefaultMaxBodyBytes = gameserver.DefaultMaxBodyBytes

// Server is the loopback tournament server; it is an http.Handler.
type Server struct {
	base   gameserver.Base // faults and the body bound
	cfg    Config
	log    *slog.Logger
	ctx    context.Context // ends the referee games on Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu          sync.Mutex
	nextID      int
	users       map[string]*userState
	invitations map[int]*invitation
	games       map[int]*game
}

type userState struct {
	ranked   bool
	maxGames int
	version  int
}

type invitation struct {
	id        int
	to        string
	game      *game
	accepted  bool
	finished  bool
	createdAt time.Time
}

// game is one game between a user and a local bot.
type game struct {
	id       int
	user     string
	color    chess.Color // the user's
	oppName  string
	opp      rbc.Player
	remote   *remotePlayer
	readyCh  chan struct{}
	readyOne sync.Once
	over     chan struct{}

	mu            sync.Mutex
	outcome       rbc.Outcome
	history       *rbc.History
	errorResigned bool
}

// New returns a server; serve it with httptest.NewServer (or any server).
func New(cfg Config) *Server {
	if cfg.Version == "" {
		cfg.Version = rbcclient.HarnessVersion
	}
	if cfg.Game.InitialTime <= 0 {
		cfg.Game = rbc.DefaultOptions()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Game.Logger == nil {
		cfg.Game.Logger = log
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		base: gameserver.NewBase(cfg.Faults, cfg.MaxBodyBytes), cfg: cfg, log: log, ctx: ctx, cancel: cancel,
		nextID: 1, users: map[string]*userState{}, invitations: map[int]*invitation{}, games: map[int]*game{},
	}
	for name := range cfg.Users {
		s.users[name] = &userState{maxGames: 4}
	}
	return s
}

// Close aborts the games still running and waits for their referees.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
}

// Invite makes a local bot invite user to a game in which the user plays
// color; it returns the invitation's id.
func (s *Server) Invite(user string, color chess.Color, botName string, bot rbc.Player) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.newGameLocked(user, color, botName, bot)
	inv := &invitation{id: s.nextID, to: user, game: g, createdAt: time.Now()}
	s.nextID++
	s.invitations[inv.id] = inv
	return inv.id
}

func (s *Server) newGameLocked(user string, color chess.Color, botName string, bot rbc.Player) *game {
	g := &game{
		id: s.nextID, user: user, color: color, oppName: botName, opp: bot,
		remote:  newRemotePlayer(s.cfg.Game.InitialTime),
		readyCh: make(chan struct{}), over: make(chan struct{}),
	}
	s.nextID++
	s.games[g.id] = g
	s.wg.Add(1)
	go s.run(g)
	return g
}

// run referees game g once its user is ready.
func (s *Server) run(g *game) {
	defer s.wg.Done()
	select {
	case <-g.readyCh:
	case <-s.ctx.Done():
		g.finish(rbc.Outcome{Reason: rbc.NoReason, Detail: "server closed before the game started"}, nil)
		return
	}
	opts := s.cfg.Game
	white, black := rbc.Player(g.remote), g.opp
	opts.WhiteName, opts.BlackName = g.user, g.oppName
	if g.color == chess.Black {
		white, black = black, white
		opts.WhiteName, opts.BlackName = g.oppName, g.user
	}
	res, err := rbc.PlayLocalGame(s.ctx, white, black, opts)
	if err != nil {
		g.finish(rbc.Outcome{Detail: "aborted: " + err.Error()}, nil)
		return
	}
	s.log.Debug("game over", "game", g.id, "outcome", res.History.Outcome.String())
	g.finish(res.History.Outcome, res.History)
}

func (g *game) finish(o rbc.Outcome, h *rbc.History) {
	g.mu.Lock()
	g.outcome, g.history = o, h
	g.mu.Unlock()
	close(g.over)
}

func (g *game) isOver() bool {
	select {
	case <-g.over:
		return true
	default:
		return false
	}
}

// GameInfo is what a test can check about a game.
type GameInfo struct {
	ID            int
	Invitation    int // 0 for a game the user asked for
	User          string
	Color         chess.Color // the user's
	Started       bool        // the user said ready
	Over          bool
	Outcome       rbc.Outcome
	History       *rbc.History
	ErrorResigned bool
	Finished      bool // the invitation was finished
}

// Games returns every game, by id.
func (s *Server) Games() []GameInfo {
	s.mu.Lock()
	finished, invOf := map[int]bool{}, map[int]int{}
	for _, inv := range s.invitations {
		invOf[inv.game.id] = inv.id
		if inv.finished {
			finished[inv.game.id] = true
		}
	}
	games := make([]*game, 0, len(s.games))
	for id := 1; id < s.nextID; id++ {
		if g, ok := s.games[id]; ok {
			games = append(games, g)
		}
	}
	s.mu.Unlock()
	out := make([]GameInfo, 0, len(games))
	for _, g := range games {
		over := g.isOver()
		started := false
		select {
		case <-g.readyCh:
			started = true
		default:
		}
		g.mu.Lock()
		out = append(out, GameInfo{ID: g.id, Invitation: invOf[g.id], Started: started, User: g.user, Color: g.color, Over: over, Outcome: g.outcome,
			History: g.history, ErrorResigned: g.errorResigned, Finished: finished[g.id]})
		g.mu.Unlock()
	}
	return out
}

// UserInfo is an account's settings as the client left them.
type UserInfo struct {
	Ranked   bool
	MaxGames int
	Version  int
}

// User returns the settings of user.
func (s *Server) User(name string) UserInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[name]
	if u == nil {
		return UserInfo{}
	}
	return UserInfo{Ranked: u.ranked, MaxGames: u.maxGames, Version: u.version}
}

// --- HTTP -------------------------------------------------------------------

// FaultCounts returns how many faults of each kind were injected.
func (s *Server) FaultCounts() map[string]int { return s.base.FaultCounts() }

// ServeHTTP answers one API call, after the fault injector has had its say.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := r.BasicAuth()
	if !ok || !gameserver.SecretEqual(pass, s.cfg.Users[user]) {
		body := "Authentication required."
		if s.cfg.Faults.EchoAuthOn401 {
			body += " You sent: " + r.Header.Get("Authorization") + " (" + user + ":" + pass + ")"
		}
		http.Error(w, body, http.StatusUnauthorized)
		return
	}
	s.base.Serve(w, r, safeToRepeat(r), func(w http.ResponseWriter) { s.route(w, r, user) })
}

// safeToRepeat says whether a call may be processed and its answer lost:
// the client repeats it and its effect does not change (GETs, settings,
// ready, end_turn, finish, error_resign). Sense, move and accepting an
// invitation are not: their results cannot be asked for again.
func safeToRepeat(r *http.Request) bool {
	if r.Method == http.MethodGet {
		return true
	}
	p := r.URL.Path
	for _, suffix := range []string{"/ready", "/end_turn", "/finish", "/error_resign", "/me/ranked", "/me/max_games"} {
		if strings.HasSuffix(p, suffix) {
			return true
		}
	}
	return false
}

type apiError struct {
	code int
	msg  string
}

func badRequest(format string, args ...any) *apiError {
	return &apiError{http.StatusBadRequest, fmt.Sprintf(format, args...)}
}

func (s *Server) route(w http.ResponseWriter, r *http.Request, user string) {
	// The body is read whole here, before any lock is taken, so that a
	// client sending it slowly delays only itself.
	body, aerr := s.readBody(w, r)
	if aerr != nil {
		http.Error(w, aerr.msg, aerr.code)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	out, aerr := s.dispatch(r, user)
	if aerr != nil {
		http.Error(w, aerr.msg, aerr.code)
		return
	}
	gameserver.Reply(w, http.StatusOK, out)
}

func (s *Server) dispatch(r *http.Request, user string) (any, *apiError) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	parts := strings.Split(strings.TrimPrefix(p, "/api/"), "/")
	if !strings.HasPrefix(p, "/api/") || len(parts) == 0 {
		return nil, &apiError{http.StatusNotFound, "no such endpoint"}
	}
	get, post := r.Method == http.MethodGet, r.Method == http.MethodPost
	switch {
	case parts[0] == "version" && len(parts) == 1 && get:
		return map[string]string{"version": s.cfg.Version}, nil
	case parts[0] == "users":
		return s.userCall(r, user, parts[1:], get, post)
	case parts[0] == "invitations":
		return s.invitation(r, user, parts[1:], get, post)
	case parts[0] == "games" && len(parts) == 3:
		id, err := strconv.Atoi(parts[1])
		if err != nil {
			return nil, &apiError{http.StatusNotFound, "no such game"}
		}
		s.mu.Lock()
		g := s.games[id]
		s.mu.Unlock()
		if g == nil || g.user != user {
			return nil, &apiError{http.StatusNotFound, "no such game"}
		}
		return s.gameCall(r, g, parts[2], get, post)
	}
	return nil, &apiError{http.StatusNotFound, "no such endpoint"}
}

// readBody reads the request's body whole (see gameserver.ReadBody); a
// body over the limit gets 413.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *apiError) {
	data, err := s.base.ReadBody(w, r)
	var tooLarge *gameserver.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return nil, &apiError{http.StatusRequestEntityTooLarge, tooLarge.Error()}
	case err != nil:
		return nil, badRequest("%v", err)
	}
	return data, nil
}

// decodeBody decodes the body route has read.
func decodeBody(r *http.Request, v any) *apiError {
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return badRequest("reading the body: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return badRequest("malformed request data: %v", err)
	}
	return nil
}

func (s *Server) userCall(r *http.Request, user string, parts []string, get, post bool) (any, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.users[user]
	switch {
	case len(parts) == 0 && get:
		var names []string
		for n := range s.cfg.Users {
			names = append(names, n)
		}
		for n := range s.cfg.Bots {
			names = append(names, n)
		}
		return map[string][]string{"usernames": names}, nil
	case len(parts) == 1 && parts[0] == "me" && post:
		return map[string]any{"id": 1, "username": user, "max_games": u.maxGames}, nil
	case len(parts) == 2 && parts[1] == "version" && get:
		return map[string]int{"version": u.version}, nil
	case len(parts) == 2 && parts[1] == "version" && post:
		u.version++
		return map[string]any{"id": 1, "username": user, "version": u.version}, nil
	case len(parts) == 2 && parts[1] == "ranked" && post:
		var body struct {
			Ranked *bool `json:"ranked"`
		}
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Ranked == nil {
			return nil, badRequest("ranked not present or not a boolean")
		}
		u.ranked = *body.Ranked
		return map[string]any{"id": 1, "username": user, "ranked": u.ranked}, nil
	case len(parts) == 2 && parts[1] == "max_games" && post:
		var body struct {
			MaxGames *int `json:"max_games"`
		}
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.MaxGames == nil || *body.MaxGames < 0 {
			return nil, badRequest("max_games not present or not an integer")
		}
		u.maxGames = *body.MaxGames
		return map[string]any{"id": 1, "username": user, "max_games": u.maxGames}, nil
	}
	return nil, &apiError{http.StatusNotFound, "no such endpoint"}
}

func (s *Server) invitation(r *http.Request, user string, parts []string, get, post bool) (any, *apiError) {
	switch {
	case len(parts) == 0 && get:
		s.mu.Lock()
		defer s.mu.Unlock()
		ids := []int{}
		for id := 1; id < s.nextID; id++ {
			if inv, ok := s.invitations[id]; ok && inv.to == user && !inv.accepted {
				ids = append(ids, id)
			}
		}
		return map[string][]int{"invitations": ids}, nil
	case len(parts) == 0 && post:
		var body struct {
			Opponent *string `json:"opponent"`
			Color    *bool   `json:"color"`
		}
		if err := decodeBody(r, &body); err != nil {
			return nil, err
		}
		if body.Opponent == nil || body.Color == nil {
			return nil, badRequest("opponent and color are required")
		}
		bot := s.cfg.Bots[*body.Opponent]
		if bot == nil {
			return nil, badRequest("invitation does not exist: %q is not a server bot", *body.Opponent)
		}
		color := chess.Black
		if *body.Color {
			color = chess.White
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		g := s.newGameLocked(user, color, *body.Opponent, bot())
		return map[string]int{"game_id": g.id}, nil
	}
	if len(parts) < 1 || len(parts) > 2 || !post {
		return nil, &apiError{http.StatusNotFound, "no such endpoint"}
	}
	id, err := strconv.Atoi(parts[0])
	s.mu.Lock()
	defer s.mu.Unlock()
	inv := s.invitations[id]
	if err != nil || inv == nil || inv.to != user {
		return nil, badRequest("invitation does not exist")
	}
	if len(parts) == 1 {
		if inv.accepted {
			return nil, badRequest("invitation already accepted")
		}
		inv.accepted = true
		return map[string]int{"game_id": inv.game.id}, nil
	}
	if parts[1] != "finish" {
		return nil, &apiError{http.StatusNotFound, "no such endpoint"}
	}
	if !inv.accepted {
		return nil, badRequest("invitation is not accepted")
	}
	if inv.finished {
		return nil, badRequest("invitation already finished")
	}
	inv.finished = true
	return struct{}{}, nil
}

// gameCall answers one of the game endpoints.
func (s *Server) gameCall(r *http.Request, g *game, endpoint string, get, post bool) (any, *apiError) {
	p := g.remote
	over := g.isOver()
	finished := badRequest("game is finished")
	switch {
	case endpoint == "color" && get:
		return map[string]bool{"color": g.color == chess.White}, nil
	case endpoint == "starting_board" && get:
		return map[string]any{"board": rbcclient.WireBoard{FEN: chess.StartFEN}}, nil
	case endpoint == "opponent_name" && get:
		return map[string]string{"opponent_name": g.oppName}, nil
	case endpoint == "ready" && post:
		already := true
		g.readyOne.Do(func() { close(g.readyCh); already = false })
		if already {
			return nil, badRequest("player already marked as ready")
		}
		return struct{}{}, nil
	case endpoint == "game_status" && get:
		p.mu.Lock()
		mine := p.myTurn
		p.mu.Unlock()
		return map[string]bool{"is_over": over, "is_my_turn": mine && !over}, nil
	case endpoint == "is_over" && get:
		return map[string]bool{"is_over": over}, nil
	case endpoint == "is_my_turn" && get:
		p.mu.Lock()
		defer p.mu.Unlock()
		return map[string]bool{"is_my_turn": p.myTurn && !over}, nil
	case endpoint == "sense_actions" && get:
		p.mu.Lock()
		defer p.mu.Unlock()
		sq := make([]rbcclient.WireSquare, len(p.senseActions))
		for i, s := range p.senseActions {
			sq[i] = rbcclient.WireSquare{Square: s}
		}
		return map[string]any{"sense_actions": sq}, nil
	case endpoint == "move_actions" && get:
		p.mu.Lock()
		defer p.mu.Unlock()
		ms := make([]rbcclient.WireMove, len(p.moveActions))
		for i, m := range p.moveActions {
			ms[i] = rbcclient.WireMove{Move: m}
		}
		return map[string]any{"move_actions": ms}, nil
	case endpoint == "opponent_move_results" && get:
		if over {
			return nil, finished
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		return map[string]any{"opponent_move_results": rbcclient.WireSquare{Square: p.oppCapture}}, nil
	case endpoint == "seconds_left" && get:
		if over {
			return nil, finished
		}
		return map[string]float64{"seconds_left": p.secondsLeft().Seconds()}, nil
	case endpoint == "sense" && post:
		return s.sense(r, g)
	case endpoint == "move" && post:
		return s.move(r, g)
	case endpoint == "end_turn" && post:
		if over {
			return nil, finished
		}
		if !p.endTurn() {
			return nil, badRequest("you haven't sensed and moved")
		}
		return struct{}{}, nil
	case endpoint == "resign" && post:
		p.mu.Lock()
		mine := p.myTurn
		p.mu.Unlock()
		if !mine || over {
			return nil, badRequest("it is not your turn")
		}
		p.resign()
		return struct{}{}, nil
	case endpoint == "error_resign" && post:
		g.mu.Lock()
		g.errorResigned = true
		g.mu.Unlock()
		p.resign()
		return struct{}{}, nil
	case (endpoint == "winner_color" || endpoint == "win_reason" || endpoint == "game_history") && get:
		if !over {
			return nil, badRequest("game is not over")
		}
		g.mu.Lock()
		defer g.mu.Unlock()
		switch endpoint {
		case "winner_color":
			var w *bool
			if g.outcome.HasWinner {
				white := g.outcome.Winner == chess.White
				w = &white
			}
			return map[string]*bool{"winner_color": w}, nil
		case "win_reason":
			return map[string]any{"win_reason": rbcclient.WireWinReason{WinReason: g.outcome.Reason}}, nil
		default:
			if g.history == nil {
				return nil, badRequest("the game was aborted")
			}
			var buf bytes.Buffer
			if err := record.WriteHistory(g.history, &buf); err != nil {
				return nil, &apiError{http.StatusInternalServerError, err.Error()}
			}
			return map[string]json.RawMessage{"game_history": buf.Bytes()}, nil
		}
	}
	return nil, &apiError{http.StatusNotFound, "no such endpoint"}
}

func (s *Server) sense(r *http.Request, g *game) (any, *apiError) {
	var body map[string]json.RawMessage
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	raw, ok := body["square"]
	if !ok {
		return nil, badRequest("malformed request data: no square")
	}
	var sq rbcclient.WireSquare
	if err := sq.UnmarshalJSON(raw); err != nil {
		return nil, badRequest("malformed request data: %v", err)
	}
	p := g.remote
	p.mu.Lock()
	if g.isOver() || !p.myTurn || p.phase != wantSense {
		p.mu.Unlock()
		return nil, badRequest("game is finished, not your turn, or you already sensed")
	}
	p.phase = sensing
	p.mu.Unlock()
	p.senseCh <- sq.Square
	select {
	case res := <-p.senseResCh:
		out := make([]rbcclient.WireSenseEntry, len(res))
		for i, e := range res {
			out[i] = rbcclient.WireSenseEntry(e)
		}
		return map[string]any{"sense_result": out}, nil
	case <-g.over:
		return nil, badRequest("game is finished")
	case <-r.Context().Done():
		return nil, &apiError{http.StatusServiceUnavailable, "request cancelled"}
	}
}

func (s *Server) move(r *http.Request, g *game) (any, *apiError) {
	var body map[string]json.RawMessage
	if err := decodeBody(r, &body); err != nil {
		return nil, err
	}
	raw, ok := body["requested_move"]
	if !ok {
		return nil, badRequest("malformed request data: no requested_move")
	}
	var m rbcclient.WireMove
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, badRequest("malformed request data: %v", err)
	}
	p := g.remote
	p.mu.Lock()
	if g.isOver() || !p.myTurn || p.phase != wantMove {
		p.mu.Unlock()
		return nil, badRequest("game is finished, you haven't sensed, or you already moved")
	}
	p.phase = moving
	p.mu.Unlock()
	p.moveCh <- m.Move
	select {
	case res := <-p.moveResCh:
		return map[string]any{"move_result": rbcclient.WireMoveResult{Requested: res.requested, Taken: res.taken, Capture: res.capture}}, nil
	case <-g.over:
		return nil, badRequest("game is finished")
	case <-r.Context().Done():
		return nil, &apiError{http.StatusServiceUnavailable, "request cancelled"}
	}
}
