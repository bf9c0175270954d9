// Package ksserver is a local kriegspiel.org: the bot API of the site's
// server (registration, by key or open as the site's is, bearer tokens, the
// lobby with the site's rules for bots, game states with the viewer's
// scoresheet in words, move and "any?" tries, resignation, transcripts) on
// our own referee, with a chess clock. `blindfish ksserver` serves it, so
// that the site's public bots and ours play each other on one machine; the
// tests of package kriegspielorg, the site's client, play against it.
//
// It is written from the API's documented behaviour, not from the server's
// code. A Server is an http.Handler: serve it with the deadlines and bounds
// of internal/httpserve (docs/security.md). Config's TurnLimit, Now and
// Faults exist for tests (short games, a stepped clock, the faults of a
// flaky server and network); a real server leaves them zero.
package ksserver

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blindfish-rbc/blindfish/chess"
	"github.com/blindfish-rbc/blindfish/kriegspiel"
	"github.com/blindfish-rbc/blindfish/protocol/internal/faults"
	"github.com/blindfish-rbc/blindfish/protocol/internal/gameserver"
	"github.com/blindfish-rbc/blindfish/protocol/kriegspielorg"
)

// Config configures a Server.
type Config struct {
	// RegistrationKey is the key bots register with.
	RegistrationKey string
	// OpenRegistration lets anybody register a bot without a key, as the
	// site does today (it ignores the X-Bot-Registration-Key header);
	// RegistrationKey is then not checked. Off, a registration without
	// the key is refused (401), and with no RegistrationKey every one is.
	OpenRegistration bool
	// JoinCooldown is how long a bot waits between two joins of lobby
	// games: a join sooner gets 409 BOT_JOIN_COOLDOWN (0: the site's
	// DefaultJoinCooldown; negative: no wait, for tests that play games
	// back to back).
	JoinCooldown time.Duration
	// Now is the clock of the join cooldown (nil: time.Now), so that a
	// test can step over it without waiting.
	Now func() time.Time
	// Clock and Increment are each player's clock (default 25 minutes and
	// 10 s, the site's "rapid").
	Clock, Increment time.Duration
	// TurnLimit draws a game when the player to move reaches this full move
	// (0: no limit), so that tests can play short games; the site has none.
	TurnLimit int
	// OnGameEnd, when set, receives each game's true record as it ends,
	// before the answer to the call that ended it is sent. It is called
	// without the server's lock (so that a slow disk stalls no other
	// call), from the goroutines of several calls at once.
	OnGameEnd func(id string, rec *kriegspiel.Record)
	// LastID is the number of the last game of an earlier run: game ids
	// continue after it (g0001 when 0), so that records kept by id are
	// never named twice.
	LastID int
	// MaxBodyBytes bounds a request's body (default DefaultMaxBodyBytes);
	// a longer one gets 413 before it is read whole.
	MaxBodyBytes int64
	// Faults are injected into the answers. Every call may be processed
	// and its answer lost: the client must find out from the game's state.
	Faults faults.Faults
}

// DefaultJoinCooldown is the site's pause between two joins of one bot.
const DefaultJoinCooldown = 60 * time.Second

// DefaultMaxBodyBytes bounds a request's body: the API's bodies (a bot's
// profile, a lobby request, a move) are a few hundred bytes.
const DefaultMaxBodyBytes = gameserver.DefaultMaxBodyBytes

// MaxUsernameLen is the longest username a bot may register.
const MaxUsernameLen = 32

// Server is the loopback server; it is an http.Handler. No call does I/O
// while it holds the server's lock: bodies are read before it is taken
// and answers written after it is let go, so that a slow client delays
// only itself.
type Server struct {
	base gameserver.Base // faults and the body bound
	cfg  Config

	mu     sync.Mutex
	tokens map[string]string   // token → username
	users  map[string]*account // username → account
	games  map[string]*game    // id → game
	codes  map[string]string   // code → id
	nextID int
	ended  []endedGame // games ended by the call in progress, for OnGameEnd
}

// account is a registered user: a bot, or a human (who may play bots'
// lobby games, and whose own games bots may not join).
type account struct {
	human       bool
	displayName string
	variants    []string  // the rulesets a bot says it plays (kept, as the site does, not shown)
	lastJoin    time.Time // a bot's last join of a lobby game
}

type endedGame struct {
	id  string
	rec *kriegspiel.Record
}

// New returns a server with no bots and no games.
func New(cfg Config) *Server {
	if cfg.Clock <= 0 {
		cfg.Clock = 25 * time.Minute
	}
	if cfg.Increment <= 0 {
		cfg.Increment = 10 * time.Second
	}
	if cfg.JoinCooldown == 0 {
		cfg.JoinCooldown = DefaultJoinCooldown
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Server{base: gameserver.NewBase(cfg.Faults, cfg.MaxBodyBytes), cfg: cfg, tokens: map[string]string{}, users: map[string]*account{},
		games: map[string]*game{}, codes: map[string]string{}, nextID: max(cfg.LastID, 0)}
}

// Record returns the true record of a game (for the tests to compare with
// what the players heard).
func (s *Server) Record(id string) (*kriegspiel.Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.games[id]
	if !ok || g.g == nil {
		return nil, false
	}
	return g.record(), true
}

// record is the game's true record so far.
func (g *game) record() *kriegspiel.Record {
	rec := kriegspiel.NewRecord(g.g)
	rec.White, rec.Black = g.players[0], g.players[1]
	rec.Result = g.result
	return rec
}

// game is one game on the server.
type game struct {
	id, code string
	rules    kriegspiel.Ruleset
	players  [2]string // usernames; "" while waiting
	creator  chess.Color
	state    string // waiting, active, completed
	g        *kriegspiel.Game
	tries    []try
	clocks   [2]time.Duration
	since    time.Time // when the player to move started its turn
	result   kriegspiel.Result
}

// try is one question asked, with the full move number it was asked at.
type try struct {
	turn  int
	color chess.Color
	q     kriegspiel.Question
	a     kriegspiel.Answer
}

// FaultCounts returns how many faults of each kind were injected.
func (s *Server) FaultCounts() map[string]int { return s.base.FaultCounts() }

// ServeHTTP answers one API call.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.base.Serve(w, r, true, func(w http.ResponseWriter) { s.route(w, r) })
}

func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	path := strings.Trim(r.URL.Path, "/")
	if r.Method == http.MethodPost && path == "auth/bots/register" {
		key := r.Header.Get("X-Bot-Registration-Key")
		if !s.cfg.OpenRegistration && !gameserver.SecretEqual(key, s.cfg.RegistrationKey) {
			refuse(w)
			fail(w, http.StatusUnauthorized, "INVALID_REGISTRATION_KEY", "bad registration key")
			return
		}
		body, ok := s.readBody(w, r)
		if !ok {
			return
		}
		s.locked(w, func(w http.ResponseWriter) { s.register(w, body) })
		return
	}
	user, ok := s.user(r)
	if !ok {
		refuse(w)
		fail(w, http.StatusUnauthorized, "UNAUTHORIZED", "missing or unknown bearer token")
		return
	}
	var body []byte
	if r.Method == http.MethodPost {
		if body, ok = s.readBody(w, r); !ok {
			return
		}
	}
	parts := strings.Split(path, "/")
	if r.Method == http.MethodGet && len(parts) == 2 && parts[0] == "user" {
		s.locked(w, func(w http.ResponseWriter) { s.profile(w, parts[1]) })
		return
	}
	if r.Method == http.MethodPost && path == "bots/profile" {
		s.locked(w, func(w http.ResponseWriter) { s.syncProfile(w, user, body) })
		return
	}
	if r.Method == http.MethodPost && len(parts) == 2 && parts[0] == "bots" {
		// The bots' availability reports: taken and echoed.
		var v map[string]any
		if err := json.Unmarshal(body, &v); err != nil || v == nil {
			v = map[string]any{}
		}
		reply(w, http.StatusOK, v)
		return
	}
	if len(parts) < 2 || parts[0] != "game" {
		fail(w, http.StatusNotFound, "NOT_FOUND", "no such endpoint")
		return
	}
	s.locked(w, func(w http.ResponseWriter) { s.gameCall(w, r.Method, path, parts, body, user) })
}

// refuse closes the connection after the answer: a client without
// credentials keeps no connection open, so it holds a place only among the
// server's new connections, which make way for newer ones (see
// internal/httpserve), and cannot keep a bot out by holding keep-alive
// connections.
func refuse(w http.ResponseWriter) { w.Header().Set("Connection", "close") }

// readBody reads the request's body whole, before any lock is taken (see
// gameserver.ReadBody); a body over the limit gets 413 PAYLOAD_TOO_LARGE.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := s.base.ReadBody(w, r)
	var tooLarge *gameserver.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		fail(w, http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", tooLarge.Error())
		return nil, false
	case err != nil:
		fail(w, http.StatusBadRequest, "BAD_REQUEST", "could not read the request body")
		return nil, false
	}
	return body, true
}

// locked runs f under the server's lock with its answer held back; once
// the lock is let go, it reports the games f ended to OnGameEnd and then
// sends the answer.
func (s *Server) locked(w http.ResponseWriter, f func(http.ResponseWriter)) {
	d := &heldAnswer{header: w.Header()}
	s.mu.Lock()
	f(d)
	ended := s.ended
	s.ended = nil
	s.mu.Unlock()
	for _, e := range ended {
		s.cfg.OnGameEnd(e.id, e.rec)
	}
	d.send(w)
}

// heldAnswer is an http.ResponseWriter that keeps the answer in memory.
type heldAnswer struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (h *heldAnswer) Header() http.Header { return h.header }

func (h *heldAnswer) WriteHeader(code int) {
	if h.code == 0 {
		h.code = code
	}
}

func (h *heldAnswer) Write(p []byte) (int, error) {
	h.WriteHeader(http.StatusOK)
	return h.body.Write(p)
}

func (h *heldAnswer) send(w http.ResponseWriter) {
	w.WriteHeader(cmp.Or(h.code, http.StatusOK))
	w.Write(h.body.Bytes())
}

// gameCall answers the calls on games and the lobby (with the lock held).
func (s *Server) gameCall(w http.ResponseWriter, method, path string, parts []string, body []byte, user string) {
	switch {
	case method == http.MethodGet && path == "game/mine/active":
		s.mine(w, user)
	case method == http.MethodGet && path == "game/open":
		s.open(w)
	case method == http.MethodPost && path == "game/create":
		s.create(w, body, user)
	case method == http.MethodPost && len(parts) == 3 && parts[1] == "join":
		s.join(w, user, parts[2])
	default:
		g, ok := s.games[parts[1]]
		if !ok {
			fail(w, http.StatusNotFound, "GAME_NOT_FOUND", "no such game")
			return
		}
		me, ok := g.seat(user)
		if !ok {
			fail(w, http.StatusForbidden, "FORBIDDEN", "only participants may do this")
			return
		}
		s.checkTime(g)
		switch action := strings.Join(parts[2:], "/"); {
		case method == http.MethodGet && action == "":
			reply(w, http.StatusOK, map[string]any{"game_id": g.id, "state": g.state,
				"white": map[string]string{"username": g.players[0]}, "black": map[string]string{"username": g.players[1]}})
		case method == http.MethodGet && action == "state":
			reply(w, http.StatusOK, g.view(me))
		case method == http.MethodGet && action == "moves":
			s.transcript(w, g)
		case method == http.MethodPost && action == "move":
			var req struct {
				UCI string `json:"uci"`
			}
			if err := json.Unmarshal(body, &req); err != nil {
				fail(w, http.StatusUnprocessableEntity, "VALIDATION", "want {\"uci\": ...}")
				return
			}
			q, err := kriegspiel.ParseQuestion(req.UCI)
			if err != nil || q.AskAny {
				reply(w, http.StatusOK, map[string]any{"move_done": false, "announcement": "INVALID_UCI", "game_over": false})
				return
			}
			s.ask(w, g, me, q)
		case method == http.MethodPost && action == "ask-any":
			s.ask(w, g, me, kriegspiel.Any())
		case method == http.MethodPost && action == "resign":
			if g.state != "active" {
				fail(w, http.StatusConflict, "GAME_NOT_ACTIVE", "the game is not being played")
				return
			}
			s.finish(g, kriegspiel.Result{Reason: kriegspiel.Resign, Winner: me.Other(), HasWinner: true})
			reply(w, http.StatusOK, map[string]any{"result": resultPayload(g.result)})
		default:
			fail(w, http.StatusNotFound, "NOT_FOUND", "no such endpoint")
		}
	}
}

// AddBot registers a bot without a call (so that a test with faults need
// not register through them) and returns its token.
func (s *Server) AddBot(username string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(username, &account{displayName: username})
}

// AddHuman registers a human player (the site's ordinary account, which
// bots have no call to make) and returns its token: bots may not join the
// lobby games it opens.
func (s *Server) AddHuman(username string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addUserLocked(username, &account{human: true, displayName: username})
}

func (s *Server) addUserLocked(username string, a *account) string {
	var b [16]byte
	rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	s.tokens[tok] = username
	s.users[username] = a
	return tok
}

// isBot reports whether a username is a registered bot.
func (s *Server) isBot(username string) bool {
	a, ok := s.users[username]
	return ok && !a.human
}

// profile is a user's public page, in the site's shape. Nothing is rated
// here: the rating is the site's starting one.
func (s *Server) profile(w http.ResponseWriter, name string) {
	a, ok := s.users[name]
	if !ok {
		fail(w, http.StatusNotFound, "USER_NOT_FOUND", "no such user")
		return
	}
	role := "bot"
	if a.human {
		role = "user"
	}
	out := map[string]any{"username": name, "display_name": a.displayName, "role": role, "is_bot": !a.human,
		"stats": map[string]any{"elo": 1200, "elo_peak": 1200}}
	reply(w, http.StatusOK, out)
}

// syncProfile takes a bot's rulesets (POST /bots/profile), as the site
// does: only bots may, and the list is required.
func (s *Server) syncProfile(w http.ResponseWriter, user string, body []byte) {
	if !s.isBot(user) {
		fail(w, http.StatusForbidden, "FORBIDDEN", "only bots can sync bot profiles")
		return
	}
	var req struct {
		Variants []string `json:"supported_rule_variants"`
	}
	if err := json.Unmarshal(body, &req); err != nil || req.Variants == nil {
		fail(w, http.StatusUnprocessableEntity, "VALIDATION", "want {\"supported_rule_variants\": [...]}")
		return
	}
	s.users[user].variants = req.Variants
	reply(w, http.StatusOK, map[string]any{"ok": true, "supported_rule_variants": req.Variants})
}

// CheckUsername says why a username cannot be registered (nil when it
// can): 1 to MaxUsernameLen letters, digits, '_' or '-', so that it is fit
// for a file name and a terminal as it is.
func CheckUsername(name string) error {
	if len(name) < 1 || len(name) > MaxUsernameLen {
		return fmt.Errorf("the username must be 1 to %d characters long", MaxUsernameLen)
	}
	for _, c := range []byte(name) {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		default:
			return errors.New("the username may hold only letters A-Z and a-z, digits, '_' and '-'")
		}
	}
	return nil
}

func (s *Server) user(r *http.Request) (string, bool) {
	tok, ok := gameserver.BearerToken(r)
	if !ok {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.tokens[tok]
	return u, ok
}

// register registers a bot (with the lock held).
func (s *Server) register(w http.ResponseWriter, body []byte) {
	var p kriegspielorg.BotProfile
	if err := json.Unmarshal(body, &p); err != nil || p.Username == "" || p.OwnerEmail == "" {
		fail(w, http.StatusUnprocessableEntity, "VALIDATION", "username and owner_email are required")
		return
	}
	if err := CheckUsername(p.Username); err != nil {
		fail(w, http.StatusBadRequest, "INVALID_USERNAME", err.Error())
		return
	}
	if _, taken := s.users[p.Username]; taken {
		fail(w, http.StatusConflict, "USERNAME_TAKEN", "username already taken")
		return
	}
	tok := s.addUserLocked(p.Username, &account{displayName: cmp.Or(p.DisplayName, p.Username), variants: p.Variants})
	reply(w, http.StatusCreated, kriegspielorg.Registration{BotID: "bot-" + p.Username, Username: p.Username, APIToken: tok})
}

func (s *Server) mine(w http.ResponseWriter, user string) {
	out := []kriegspielorg.GameInfo{}
	for _, id := range s.sortedIDs() {
		g := s.games[id]
		if _, ok := g.seat(user); ok && g.state != "completed" {
			out = append(out, g.info())
		}
	}
	reply(w, http.StatusOK, map[string]any{"games": out})
}

func (s *Server) open(w http.ResponseWriter) {
	out := []kriegspielorg.OpenGame{}
	for _, id := range s.sortedIDs() {
		if g := s.games[id]; g.state == "waiting" {
			out = append(out, kriegspielorg.OpenGame{GameCode: g.code, RuleVariant: g.rules.Name,
				CreatedBy: g.players[g.creator], AvailableColor: g.creator.Other().String()})
		}
	}
	reply(w, http.StatusOK, map[string]any{"games": out})
}

func (s *Server) sortedIDs() []string {
	ids := make([]string, 0, len(s.games))
	for id := range s.games {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (s *Server) create(w http.ResponseWriter, body []byte, user string) {
	var req kriegspielorg.CreateRequest
	if err := json.Unmarshal(body, &req); err != nil {
		fail(w, http.StatusUnprocessableEntity, "VALIDATION", "bad request body")
		return
	}
	rules, err := kriegspiel.ParseRuleset(req.RuleVariant)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "VALIDATION", "unknown rule_variant")
		return
	}
	c := chess.White
	switch req.PlayAs {
	case "black":
		c = chess.Black
	case "random", "":
		c = chess.Color(s.nextID % 2) // alternating: as random as a lobby needs, and repeatable
	case "white":
	default:
		fail(w, http.StatusUnprocessableEntity, "VALIDATION", "play_as is white, black or random")
		return
	}
	if s.isBot(user) {
		for _, g := range s.games {
			if g.state == "waiting" && g.players[g.creator] == user {
				fail(w, http.StatusConflict, "BOT_ALREADY_HAS_OPEN_GAME", "a bot can only have one open lobby game at a time")
				return
			}
		}
	}
	s.nextID++
	g := &game{id: fmt.Sprintf("g%04d", s.nextID), code: code(s.nextID), rules: rules, creator: c, state: "waiting"}
	g.players[c] = user
	s.games[g.id], s.codes[g.code] = g, g.id
	reply(w, http.StatusCreated, kriegspielorg.Created{GameID: g.id, GameCode: g.code, PlayAs: c.String(),
		RuleVariant: rules.Name, State: "waiting"})
}

// code is a game's join code: six characters of the site's alphabet.
func code(n int) string {
	const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
	b := make([]byte, 6)
	for i := range b {
		b[5-i] = alphabet[n%len(alphabet)]
		n /= len(alphabet)
	}
	return string(b)
}

func (s *Server) join(w http.ResponseWriter, user, code string) {
	id, ok := s.codes[code]
	if !ok {
		fail(w, http.StatusNotFound, "GAME_NOT_FOUND", "no game with that code")
		return
	}
	g := s.games[id]
	bot, now := s.isBot(user), s.cfg.Now()
	// The site's checks, in its order: a bot may join only a bot's game,
	// and only once per JoinCooldown.
	switch {
	case g.players[g.creator] == user:
		fail(w, http.StatusConflict, "CANNOT_JOIN_OWN_GAME", "you created this game")
		return
	case g.state != "waiting":
		fail(w, http.StatusConflict, "GAME_FULL", "the game is not waiting for a player")
		return
	case bot && !s.isBot(g.players[g.creator]):
		fail(w, http.StatusForbidden, "FORBIDDEN", "bots cannot join human-created lobby games")
		return
	case bot && s.cfg.JoinCooldown > 0 && !s.users[user].lastJoin.IsZero() && now.Sub(s.users[user].lastJoin) < s.cfg.JoinCooldown:
		fail(w, http.StatusConflict, "BOT_JOIN_COOLDOWN", fmt.Sprintf("bots can only join another bot's lobby game once per %s", s.cfg.JoinCooldown))
		return
	}
	if bot {
		s.users[user].lastJoin = now
	}
	me := g.creator.Other()
	g.players[me] = user
	g.state, g.g = "active", kriegspiel.NewGame(g.rules)
	g.clocks = [2]time.Duration{s.cfg.Clock, s.cfg.Clock}
	g.since = time.Now()
	reply(w, http.StatusOK, kriegspielorg.Joined{GameID: g.id, GameCode: g.code, PlayAs: me.String(), RuleVariant: g.rules.Name})
}

// checkTime ends the game when the player to move has run out of time.
func (s *Server) checkTime(g *game) {
	if g.state != "active" {
		return
	}
	c := g.g.Turn()
	if time.Since(g.since) > g.clocks[c] {
		g.clocks[c] = 0
		s.finish(g, kriegspiel.Result{Reason: kriegspiel.Timeout, Winner: c.Other(), HasWinner: true})
	}
}

func (s *Server) ask(w http.ResponseWriter, g *game, me chess.Color, q kriegspiel.Question) {
	if g.state != "active" || g.g.Turn() != me {
		fail(w, http.StatusConflict, "NOT_YOUR_TURN", "it is not your turn")
		return
	}
	b := g.g.Board()
	turn := b.FullmoveNumber()
	a, err := g.g.Ask(q)
	if err != nil {
		fail(w, http.StatusConflict, "GAME_OVER", err.Error())
		return
	}
	if a.Verdict != kriegspiel.Impossible {
		g.tries = append(g.tries, try{turn: turn, color: me, q: q, a: a})
	}
	if a.Verdict.Done() {
		now := time.Now()
		g.clocks[me] -= now.Sub(g.since)
		g.clocks[me] += s.cfg.Increment
		g.since = now
		if g.g.Over() {
			s.finish(g, kriegspiel.ResultOf(g.g))
		} else if b := g.g.Board(); s.cfg.TurnLimit > 0 && b.FullmoveNumber() > s.cfg.TurnLimit {
			s.finish(g, kriegspiel.Result{Reason: kriegspiel.TurnLimit})
		}
	}
	reply(w, http.StatusOK, g.moveResult(a))
}

func (s *Server) finish(g *game, r kriegspiel.Result) {
	g.state, g.result = "completed", r
	if s.cfg.OnGameEnd != nil && g.g != nil {
		s.ended = append(s.ended, endedGame{g.id, g.record()})
	}
}

func (g *game) seat(user string) (chess.Color, bool) {
	for c, u := range g.players {
		if u == user {
			return chess.Color(c), true
		}
	}
	return chess.White, false
}

func (g *game) info() kriegspielorg.GameInfo {
	gi := kriegspielorg.GameInfo{GameID: g.id, GameCode: g.code, RuleVariant: g.rules.Name, State: g.state}
	if g.state == "active" {
		gi.Turn = g.g.Turn().String()
	}
	return gi
}

// moveResult is the answer to a try as the API sends it.
func (g *game) moveResult(a kriegspiel.Answer) map[string]any {
	out := map[string]any{"move_done": a.Verdict.Done(), "announcement": a.Verdict.String(),
		"checks": []string{}, "game_over": g.state == "completed", "clock": g.clock()}
	special := a.End.String()
	switch {
	case a.DoubleCheck():
		special = "CHECK_DOUBLE"
		out["checks"] = []string{a.Checks[0].String(), a.Checks[1].String()}
	case a.Checks[0] != kriegspiel.NoCheck:
		special = a.Checks[0].String()
		out["checks"] = []string{special}
	}
	if special != "NONE" {
		out["special_announcement"] = special
	}
	if a.Capture != chess.NoSquare {
		out["capture_square"] = a.Capture.String()
	}
	if a.Captured != kriegspiel.Unannounced {
		out["captured_piece_announcement"] = a.Captured.String()
	}
	if a.PawnTries >= 0 {
		out["next_turn_pawn_tries"] = a.PawnTries
	}
	if g.g != nil {
		out["turn"] = g.g.Turn().String()
	}
	return out
}

func (g *game) clock() kriegspielorg.Clock {
	cl := g.clocks
	c := chess.White
	if g.g != nil {
		c = g.g.Turn()
	}
	if g.state == "active" {
		cl[c] = max(cl[c]-time.Since(g.since), 0)
	}
	return kriegspielorg.Clock{WhiteRemaining: cl[0].Seconds(), BlackRemaining: cl[1].Seconds(), ActiveColor: c.String()}
}

// view is the game as player me sees it.
func (g *game) view(me chess.Color) kriegspielorg.State {
	st := kriegspielorg.State{GameID: g.id, State: g.state, MoveNumber: 1, YourColor: me.String(),
		AllowedMoves: []string{}, PossibleActions: []string{}, Clock: g.clock(),
		Scoresheet: g.scoresheet(me)}
	st.RefereeLog = refereeLog(st.Scoresheet)
	if g.g == nil {
		return st
	}
	b := g.g.Board()
	st.MoveNumber = b.FullmoveNumber()
	st.MaterialSummary = g.material()
	if g.state == "completed" {
		st.YourFEN = b.FEN() // the site shows the whole board once the game is over
	} else {
		// Our own men only, with the site's placeholder fields.
		own := b
		for s := range chess.Square(64) {
			if p := own.PieceAt(s); p != chess.NoPiece && p.Color() != me {
				own.SetPiece(s, chess.NoPiece)
			}
		}
		placement, _, _ := strings.Cut(own.FEN(), " ")
		st.YourFEN = placement + " " + map[chess.Color]string{chess.White: "w", chess.Black: "b"}[b.Turn()] + " - - 0 1"
	}
	if g.state == "active" {
		st.Turn = g.g.Turn().String()
	}
	if g.state == "completed" {
		p := resultPayload(g.result)
		st.Result = &p
	}
	if g.state == "active" && g.g.Turn() == me {
		for _, q := range g.g.Questions(nil) {
			if q.AskAny {
				st.PossibleActions = append(st.PossibleActions, "ask_any")
			} else {
				st.AllowedMoves = append(st.AllowedMoves, q.Move.String())
			}
		}
		slices.Sort(st.AllowedMoves)
		if len(st.AllowedMoves) > 0 {
			st.PossibleActions = append([]string{"move"}, st.PossibleActions...)
		}
	}
	return st
}

// scoresheet is what player me heard, in words: its own tries, every try of
// its opponent's (the client must leave out what its rules keep from it),
// and after each move the pawn tries of the player to move.
func (g *game) scoresheet(me chess.Color) kriegspielorg.Scoresheet {
	sc := kriegspielorg.Scoresheet{ViewerColor: me.String()}
	at := func(turn int) *kriegspielorg.ScoresheetTurn {
		for len(sc.Turns) < turn {
			sc.Turns = append(sc.Turns, kriegspielorg.ScoresheetTurn{Turn: len(sc.Turns) + 1,
				White: []kriegspielorg.Entry{}, Black: []kriegspielorg.Entry{}})
		}
		return &sc.Turns[turn-1]
	}
	add := func(turn int, c chess.Color, e kriegspielorg.Entry) {
		t := at(turn)
		if c == chess.White {
			t.White = append(t.White, e)
		} else {
			t.Black = append(t.Black, e)
		}
	}
	for _, t := range g.tries {
		q := t.q
		if t.color != me {
			q = kriegspiel.Question{AskAny: t.q.AskAny}
		}
		add(t.turn, t.color, kriegspielorg.WriteEntry(q, t.a, t.color == me))
		if t.a.Verdict.Done() && t.a.PawnTries >= 0 {
			next, turn := t.color.Other(), t.turn
			if t.color == chess.Black {
				turn++
			}
			add(turn, next, kriegspielorg.WriteStatus(t.a.PawnTries, next == me))
		}
	}
	return sc
}

// material is the public count of each side's men: those on the board, and
// (when captures are announced as pawn or piece) its pawns taken.
func (g *game) material() map[string]any {
	b := g.g.Board()
	out := map[string]any{}
	var pawnsTaken [2]int
	for _, t := range g.tries {
		if t.a.Verdict == kriegspiel.Captured && t.a.Captured == kriegspiel.CapturedPawn {
			pawnsTaken[t.color.Other()]++
		}
	}
	for c := chess.White; c <= chess.Black; c++ {
		side := map[string]any{"pieces_remaining": b.Pieces(c).Count(), "pawns_captured": nil}
		if g.rules.TypedCaptures {
			side["pawns_captured"] = pawnsTaken[c]
		}
		out[c.String()] = side
	}
	return out
}

// refereeLog is the viewer's referee log as the site shows it: each line of
// the scoresheet's words with its ply, and nothing else.
func refereeLog(sc kriegspielorg.Scoresheet) []map[string]any {
	out := []map[string]any{}
	for _, t := range sc.Turns {
		for c, column := range [2][]kriegspielorg.Entry{t.White, t.Black} {
			for _, e := range column {
				out = append(out, map[string]any{"ply": 2*(t.Turn-1) + 1 + c, "announcement": e.Message,
					"special_announcement": nil, "capture_square": nil, "timestamp": nil})
			}
		}
	}
	return out
}

func (s *Server) transcript(w http.ResponseWriter, g *game) {
	if g.state != "completed" {
		fail(w, http.StatusForbidden, "FORBIDDEN", "the transcript is shown once the game is over")
		return
	}
	moves := []map[string]any{}
	for i, t := range g.tries {
		m := g.moveResult(t.a)
		ans := map[string]any{"main": m["announcement"], "capture_square": m["capture_square"],
			"captured_piece_announcement": m["captured_piece_announcement"], "special": m["special_announcement"],
			"checks": m["checks"], "next_turn_pawn_tries": m["next_turn_pawn_tries"]}
		qt, uci := "COMMON", any(t.q.Move.String())
		if t.q.AskAny {
			qt, uci = "ASK_ANY", nil
		}
		moves = append(moves, map[string]any{"ply": i + 1, "color": t.color.String(), "question_type": qt,
			"uci": uci, "answer": ans, "move_done": t.a.Verdict.Done()})
	}
	reply(w, http.StatusOK, map[string]any{"game_id": g.id, "rule_variant": g.rules.Name, "moves": moves})
}

func resultPayload(r kriegspiel.Result) kriegspielorg.ResultPayload {
	var p kriegspielorg.ResultPayload
	if r.HasWinner {
		w := r.Winner.String()
		p.Winner = &w
	}
	switch {
	case r.Reason == kriegspiel.Timeout:
		p.Reason = "timeout"
	case r.Reason == kriegspiel.Resign:
		p.Reason = "resignation"
	case r.Reason == kriegspiel.TurnLimit:
		p.Reason = "turn_limit" // ours: the site has no turn limit
	case r.End == kriegspiel.CheckmateWhiteWins || r.End == kriegspiel.CheckmateBlackWins:
		p.Reason = "checkmate"
	case r.End == kriegspiel.DrawStalemate:
		p.Reason = "stalemate"
	case r.End == kriegspiel.DrawInsufficient:
		p.Reason = "insufficient"
	case r.End == kriegspiel.DrawRepetition:
		p.Reason = "repetition" // ours: the site's rules have no repetition draw
	default:
		p.Reason = "too_many_reversible_moves"
	}
	return p
}

func reply(w http.ResponseWriter, code int, v any) { gameserver.Reply(w, code, v) }

func fail(w http.ResponseWriter, code int, errCode, msg string) {
	reply(w, code, map[string]any{"error": map[string]any{"code": errCode, "message": msg, "details": map[string]any{}}})
}
