// Package rbcclient is a native client of the reconchess tournament server's
// HTTP API (as the reference harness's RemoteGame and rc-connect use it,
// docs/protocol.md): typed calls with retries, a game loop that drives any
// rbc.Player, and a listener that accepts invitations and plays several games
// at once. It lets Blindfish play ranked games without Python.
//
// The tests play against rbcclienttest, a server of the same API built
// on our referee, which a bot author can test a client against too.
package rbcclient

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/blindfish-rbc/blindfish/protocol/internal/httpapi"
)

// HarnessVersion is the reconchess release whose API this client speaks; the
// server reports its own at /api/version.
const HarnessVersion = "1.6.9"

// Config configures a Client.
type Config struct {
	// URL is the server's base URL, e.g. "https://rbc.jhuapl.edu". It must
	// not hold credentials.
	URL string
	// Username and Password are sent with HTTP Basic auth on every call and
	// never appear in logs or errors.
	Username, Password string
	// HTTPClient makes the requests; nil means a client of our own. Either
	// way a redirect is followed only within URL's scheme, host and port:
	// any other fails the call with a RedirectError, and the password is
	// not sent there (a copy of HTTPClient gets that policy).
	HTTPClient *http.Client
	// Logger receives retries and failures; nil discards them.
	Logger *slog.Logger
	// RetryInterval is the pause between attempts after a 5xx answer, a
	// dropped connection, a timeout or a malformed answer (default 0.5 s, the
	// reference client's).
	RetryInterval time.Duration
	// RetryFor bounds the retries of one call (default 3 minutes): beyond it
	// the call fails, where the reference client would retry for ever.
	RetryFor time.Duration
	// AttemptTimeout bounds one HTTP attempt (default 30 s), so that a hung
	// connection is retried rather than waited on.
	AttemptTimeout time.Duration
}

// Client calls the server's API for one account. It is safe for concurrent
// use: the games of a listener share one.
type Client struct {
	base     *url.URL
	username string
	api      *httpapi.Caller
}

// NewClient checks cfg and returns a client; it makes no request.
func NewClient(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		// The parse error quotes the URL, which may hold a password.
		return nil, errors.New("rbcclient: the server URL does not parse")
	}
	if u.User != nil {
		return nil, errors.New("rbcclient: the server URL holds credentials; pass the username and password separately")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("rbcclient: the server URL %q is not an http(s) URL", u.Redacted())
	}
	if cfg.Username == "" {
		return nil, errors.New("rbcclient: no username")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.Username+":"+cfg.Password))
	api := httpapi.New(httpapi.Config{
		Name: "server", Base: u, Auth: auth,
		Secrets:       []string{auth, strings.TrimPrefix(auth, "Basic "), cfg.Password},
		AuthHint:      "authentication failed: check the username and password",
		HTTPClient:    cfg.HTTPClient,
		Logger:        cfg.Logger,
		RetryInterval: cfg.RetryInterval, RetryFor: cfg.RetryFor, AttemptTimeout: cfg.AttemptTimeout,
	})
	return &Client{base: u, username: cfg.Username, api: api}, nil
}

// Username returns the account's name.
func (c *Client) Username() string { return c.username }

// Server returns the server's URL.
func (c *Client) Server() string { return c.base.String() }

// StatusError is an answer outside 2xx that is not retried (or a 5xx once
// the retries are spent): the call failed.
type StatusError = httpapi.StatusError

// RedirectError is a redirect to another scheme, host or port, refused
// without sending the credentials there; it is not retried.
type RedirectError = httpapi.RedirectError

// callOpts modifies how one call treats answers: game calls send a raw body,
// as the reference client does; account and invitation calls send JSON; and
// ready, end_turn and finish are idempotent in effect (DoneOn4xx).
type callOpts = httpapi.Options

// call performs one API call, retrying as the reference client does (5xx,
// dropped connections) and also on timeouts and undecodable answers, for at
// most RetryFor.
func (c *Client) call(ctx context.Context, method, path string, body, out any, o callOpts) error {
	return c.api.Call(ctx, method, path, body, out, o)
}

// --- account and invitation calls ------------------------------------------

// Version returns the reconchess version the server runs.
func (c *Client) Version(ctx context.Context) (string, error) {
	var out struct {
		Version *string `json:"version"`
	}
	if err := c.call(ctx, http.MethodGet, "/api/version", nil, &out, callOpts{}); err != nil {
		return "", err
	}
	if out.Version == nil {
		return "", errors.New("rbcclient: GET /api/version: no version in the answer")
	}
	return *out.Version, nil
}

// Users returns the names of the active users.
func (c *Client) Users(ctx context.Context) ([]string, error) {
	var out struct {
		Usernames []string `json:"usernames"`
	}
	err := c.call(ctx, http.MethodGet, "/api/users/", nil, &out, callOpts{})
	return out.Usernames, err
}

// BotVersion returns the version number of our bot for ranked games (0: none yet).
func (c *Client) BotVersion(ctx context.Context) (int, error) {
	var out struct {
		Version *int `json:"version"`
	}
	if err := c.call(ctx, http.MethodGet, "/api/users/me/version", nil, &out, callOpts{}); err != nil {
		return 0, err
	}
	if out.Version == nil {
		return 0, errors.New("rbcclient: GET /api/users/me/version: no version in the answer")
	}
	return *out.Version, nil
}

// IncrementVersion starts a new version of our bot for ranked games.
func (c *Client) IncrementVersion(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/version", nil, nil, callOpts{JSON: true})
}

// SetRanked says whether we take part in ranked games.
func (c *Client) SetRanked(ctx context.Context, ranked bool) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/ranked", map[string]bool{"ranked": ranked}, nil, callOpts{JSON: true})
}

// SetMaxGames sets how many games the server may give us at once.
func (c *Client) SetMaxGames(ctx context.Context, n int) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/max_games", map[string]int{"max_games": n}, nil, callOpts{JSON: true})
}

// Invitations returns the ids of the invitations waiting for us.
func (c *Client) Invitations(ctx context.Context) ([]int, error) {
	var out struct {
		Invitations []int `json:"invitations"`
	}
	err := c.call(ctx, http.MethodGet, "/api/invitations/", nil, &out, callOpts{})
	return out.Invitations, err
}

// Invite invites opponent to a game in which we play color (true: White)
// and returns the game's id.
func (c *Client) Invite(ctx context.Context, opponent string, white bool) (int, error) {
	var out struct {
		GameID *int `json:"game_id"`
	}
	body := map[string]any{"opponent": opponent, "color": white}
	if err := c.call(ctx, http.MethodPost, "/api/invitations/", body, &out, callOpts{JSON: true}); err != nil {
		return 0, err
	}
	if out.GameID == nil {
		return 0, errors.New("rbcclient: POST /api/invitations/: no game_id in the answer")
	}
	return *out.GameID, nil
}

// Accept accepts an invitation and returns the game's id.
func (c *Client) Accept(ctx context.Context, invitation int) (int, error) {
	var out struct {
		GameID *int `json:"game_id"`
	}
	path := "/api/invitations/" + strconv.Itoa(invitation)
	if err := c.call(ctx, http.MethodPost, path, nil, &out, callOpts{JSON: true}); err != nil {
		return 0, err
	}
	if out.GameID == nil {
		return 0, fmt.Errorf("rbcclient: POST %s: no game_id in the answer", path)
	}
	return *out.GameID, nil
}

// Finish marks an accepted invitation as played.
func (c *Client) Finish(ctx context.Context, invitation int) error {
	path := "/api/invitations/" + strconv.Itoa(invitation) + "/finish"
	return c.call(ctx, http.MethodPost, path, nil, nil, callOpts{JSON: true, DoneOn4xx: true})
}
