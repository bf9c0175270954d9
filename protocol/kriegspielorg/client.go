package kriegspielorg

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi"
)

// DefaultURL is kriegspiel.org's API, whose paths carry no /api prefix.
const DefaultURL = "https://api.kriegspiel.org"

// Config configures a Client.
type Config struct {
	// URL is the API's base URL (DefaultURL).
	URL string
	// Token is the bot's bearer token (from a registration). It is sent on
	// every call and never appears in logs or errors.
	Token string
	// HTTPClient makes the requests; nil means a client of our own. Either
	// way a redirect is followed only within URL's scheme, host and port:
	// any other fails the call with a RedirectError, and neither the token
	// nor the registration key is sent there (a copy of HTTPClient gets
	// that policy).
	HTTPClient *http.Client
	// Logger receives retries; nil discards them.
	Logger *slog.Logger
	// RetryInterval, RetryFor and AttemptTimeout bound the retries of one
	// call after a 5xx answer, a dropped connection or a malformed answer
	// (defaults 0.5 s, 3 minutes, 30 s).
	RetryInterval, RetryFor, AttemptTimeout time.Duration
}

// Client calls the API for one bot account. It is safe for concurrent use:
// the games of a listener share one.
type Client struct {
	api *httpapi.Caller
}

// NewClient checks cfg and returns a client; it makes no request.
func NewClient(cfg Config) (*Client, error) {
	u, err := baseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	auth := ""
	if cfg.Token != "" {
		auth = "Bearer " + cfg.Token
	}
	return &Client{api: httpapi.New(httpapi.Config{
		Name: "kriegspiel.org", Base: u, Auth: auth, Secrets: []string{cfg.Token},
		AuthHint:   "the bearer token was refused: check it, or register the bot again",
		HTTPClient: cfg.HTTPClient, Logger: cfg.Logger,
		RetryInterval: cfg.RetryInterval, RetryFor: cfg.RetryFor, AttemptTimeout: cfg.AttemptTimeout,
	})}, nil
}

func baseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, errors.New("kriegspiel.org: the server URL does not parse")
	}
	if u.User != nil {
		return nil, errors.New("kriegspiel.org: the server URL holds credentials; pass the token separately")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("kriegspiel.org: the server URL %q is not an http(s) URL", u.Redacted())
	}
	u.Path = strings.TrimRight(u.Path, "/")
	return u, nil
}

// Server returns the API's base URL.
func (c *Client) Server() string { return c.api.Base() }

// StatusError is a refusal by the server (4xx), or a 5xx once the retries
// are spent.
type StatusError = httpapi.StatusError

// RedirectError is a redirect to another scheme, host or port, refused
// without sending the token or the registration key there; it is not
// retried.
type RedirectError = httpapi.RedirectError

// Register registers a bot account and returns its token. It needs no token
// of its own. The key, when not "", is sent in the X-Bot-Registration-Key
// header and never logged; kriegspiel.org registers bots without one today
// (and ignores the header), so "" sends no header at all.
func Register(ctx context.Context, cfg Config, key string, p BotProfile) (*Registration, error) {
	u, err := baseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	api := httpapi.New(httpapi.Config{
		Name: "kriegspiel.org", Base: u, Secrets: []string{key},
		AuthHint:   "the registration key was refused",
		HTTPClient: cfg.HTTPClient, Logger: cfg.Logger,
		RetryInterval: cfg.RetryInterval, RetryFor: cfg.RetryFor, AttemptTimeout: cfg.AttemptTimeout,
	})
	var out Registration
	o := httpapi.Options{JSON: true}
	if key != "" {
		o.Header = map[string]string{"X-Bot-Registration-Key": key}
	}
	if err := api.Call(ctx, http.MethodPost, "/auth/bots/register", p, &out, o); err != nil {
		return nil, err
	}
	if out.APIToken == "" {
		return nil, errors.New("kriegspiel.org: the registration's answer holds no api_token")
	}
	return &out, nil
}

var jsonCall = httpapi.Options{JSON: true}

// SyncProfile tells the site the rulesets the bot plays (POST
// /bots/profile, the site's only call on a bot's own profile) and returns
// the list it took.
func (c *Client) SyncProfile(ctx context.Context, variants []string) ([]string, error) {
	var out struct {
		Variants []string `json:"supported_rule_variants"`
	}
	err := c.api.Call(ctx, http.MethodPost, "/bots/profile", map[string][]string{"supported_rule_variants": variants}, &out, jsonCall)
	return out.Variants, err
}

// Profile returns a user's public profile.
func (c *Client) Profile(ctx context.Context, username string) (*Profile, error) {
	var out Profile
	if err := c.api.Call(ctx, http.MethodGet, "/user/"+url.PathEscape(username), nil, &out, jsonCall); err != nil {
		return nil, err
	}
	return &out, nil
}

// ActiveGames returns our games that are waiting for an opponent or being
// played.
func (c *Client) ActiveGames(ctx context.Context) ([]GameInfo, error) {
	var out struct {
		Games []GameInfo `json:"games"`
	}
	err := c.api.Call(ctx, http.MethodGet, "/game/mine/active", nil, &out, jsonCall)
	return out.Games, err
}

// OpenGames returns the lobby: games waiting for an opponent.
func (c *Client) OpenGames(ctx context.Context) ([]OpenGame, error) {
	var out struct {
		Games []OpenGame `json:"games"`
	}
	err := c.api.Call(ctx, http.MethodGet, "/game/open", nil, &out, jsonCall)
	return out.Games, err
}

// Create opens a game in the lobby.
func (c *Client) Create(ctx context.Context, r CreateRequest) (*Created, error) {
	if r.TimeControl == "" {
		r.TimeControl = "rapid"
	}
	if r.OpponentType == "" {
		r.OpponentType = "human"
	}
	if r.PlayAs == "" {
		r.PlayAs = "random"
	}
	var out Created
	if err := c.api.Call(ctx, http.MethodPost, "/game/create", r, &out, jsonCall); err != nil {
		if g := c.ownOpenGame(ctx, err, r.RuleVariant); g != nil {
			return g, nil
		}
		return nil, err
	}
	if out.GameID == "" {
		return nil, errors.New("kriegspiel.org: POST /game/create: no game_id in the answer")
	}
	return &out, nil
}

// ownOpenGame returns our game waiting in the lobby with the given rules
// when err is the site's refusal of a second open game (a bot may have one):
// most often the answer to our own first attempt was lost and the retry was
// refused, and in any case the game we asked for exists. nil otherwise.
func (c *Client) ownOpenGame(ctx context.Context, err error, variant string) *Created {
	var se *StatusError
	if !errors.As(err, &se) || se.Code != http.StatusConflict || se.ErrCode != "BOT_ALREADY_HAS_OPEN_GAME" {
		return nil
	}
	games, gerr := c.ActiveGames(ctx)
	if gerr != nil {
		return nil
	}
	for _, g := range games {
		if g.State == "waiting" && (variant == "" || g.RuleVariant == variant) {
			return &Created{GameID: g.GameID, GameCode: g.GameCode, RuleVariant: g.RuleVariant, State: g.State}
		}
	}
	return nil
}

// Join joins a lobby game by its code.
func (c *Client) Join(ctx context.Context, code string) (*Joined, error) {
	var out Joined
	path := "/game/join/" + url.PathEscape(code)
	if err := c.api.Call(ctx, http.MethodPost, path, struct{}{}, &out, jsonCall); err != nil {
		return nil, err
	}
	if out.GameID == "" {
		return nil, fmt.Errorf("kriegspiel.org: POST %s: no game_id in the answer", path)
	}
	return &out, nil
}

// State returns the game as we see it.
func (c *Client) State(ctx context.Context, id string) (*State, error) {
	var out State
	if err := c.api.Call(ctx, http.MethodGet, "/game/"+url.PathEscape(id)+"/state", nil, &out, jsonCall); err != nil {
		return nil, err
	}
	if out.State == "" || out.YourColor == "" {
		return nil, fmt.Errorf("kriegspiel.org: game %s: the state lacks its state or our colour", id)
	}
	return &out, nil
}

// Try asks the referee one question once: a move in UCI form, or "any?".
// It is never repeated blindly (a try that got through but whose answer was
// lost must not be asked twice); the caller reads the scoresheet to learn
// whether a failed try counted.
func (c *Client) Try(ctx context.Context, id string, uci string) (*MoveResult, error) {
	var out MoveResult
	o := httpapi.Options{JSON: true, Once: true}
	var err error
	if uci == "any" {
		err = c.api.Call(ctx, http.MethodPost, "/game/"+url.PathEscape(id)+"/ask-any", struct{}{}, &out, o)
	} else {
		err = c.api.Call(ctx, http.MethodPost, "/game/"+url.PathEscape(id)+"/move", map[string]string{"uci": uci}, &out, o)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Resign resigns a game.
func (c *Client) Resign(ctx context.Context, id string) error {
	return c.api.Call(ctx, http.MethodPost, "/game/"+url.PathEscape(id)+"/resign", struct{}{}, nil,
		httpapi.Options{JSON: true, DoneOn4xx: true})
}

// Game returns a game's public facts (its players).
func (c *Client) Game(ctx context.Context, id string) (*GameMeta, error) {
	var out GameMeta
	if err := c.api.Call(ctx, http.MethodGet, "/game/"+url.PathEscape(id), nil, &out, jsonCall); err != nil {
		return nil, err
	}
	return &out, nil
}
