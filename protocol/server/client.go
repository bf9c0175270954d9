// Package server is a native client of the reconchess tournament server's
// HTTP API (field-notes §1, the reference harness's RemoteGame and
// rc-connect): typed calls with retries, a game loop that drives any
// rbc.Player, and a listener that accepts invitations and plays several games
// at once. It lets Blindfish play ranked games without Python.
//
// The tests play against internal/loopback, a server of the same API built
// on our referee; it is internal because only tests use it.
package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
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
	// HTTPClient makes the requests; nil means a client of our own.
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
	password string
	auth     string // the Authorization header value
	http     *http.Client
	log      *slog.Logger
	retry    time.Duration
	retryFor time.Duration
	attempt  time.Duration
}

// NewClient checks cfg and returns a client; it makes no request.
func NewClient(cfg Config) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		// The parse error quotes the URL, which may hold a password.
		return nil, errors.New("server: the server URL does not parse")
	}
	if u.User != nil {
		return nil, errors.New("server: the server URL holds credentials; pass the username and password separately")
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("server: the server URL %q is not an http(s) URL", u.Redacted())
	}
	if cfg.Username == "" {
		return nil, errors.New("server: no username")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	c := &Client{
		base:     u,
		username: cfg.Username,
		password: cfg.Password,
		auth:     "Basic " + base64.StdEncoding.EncodeToString([]byte(cfg.Username+":"+cfg.Password)),
		http:     cfg.HTTPClient,
		log:      cfg.Logger,
		retry:    cfg.RetryInterval,
		retryFor: cfg.RetryFor,
		attempt:  cfg.AttemptTimeout,
	}
	if c.http == nil {
		c.http = &http.Client{}
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.retry <= 0 {
		c.retry = 500 * time.Millisecond
	}
	if c.retryFor <= 0 {
		c.retryFor = 3 * time.Minute
	}
	if c.attempt <= 0 {
		c.attempt = 30 * time.Second
	}
	return c, nil
}

// Username returns the account's name.
func (c *Client) Username() string { return c.username }

// Server returns the server's URL.
func (c *Client) Server() string { return c.base.String() }

// redact removes the credentials from text that came from elsewhere (an
// answer's body): a hostile or buggy server could echo them back.
func (c *Client) redact(s string) string {
	for _, secret := range []string{c.auth, strings.TrimPrefix(c.auth, "Basic "), c.password} {
		if len(secret) >= 3 {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
	}
	return s
}

// StatusError is a non-200 answer that is not retried: the call failed.
type StatusError struct {
	Method, Path string
	Code         int
	Body         string // the start of the answer's body, credentials removed
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("server: %s %s: HTTP %d", e.Method, e.Path, e.Code)
	if e.Code == http.StatusUnauthorized {
		msg += " (authentication failed: check the username and password)"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// callOpts modifies how one call treats answers.
type callOpts struct {
	// json sends the body as application/json (account and invitation calls);
	// game calls send a raw body, as the reference client does.
	json bool
	// doneOn4xx treats a 4xx answer to a retried attempt as success: the
	// earlier attempt got through but its answer was lost (ready, end_turn,
	// finish are idempotent in effect).
	doneOn4xx bool
}

// call performs one API call, retrying as the reference client does (5xx,
// dropped connections) and also on timeouts and undecodable answers, for at
// most RetryFor. body is marshalled unless nil; out receives the answer.
func (c *Client) call(ctx context.Context, method, path string, body, out any, o callOpts) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("server: %s %s: encoding the request: %w", method, path, err)
		}
	}
	u := *c.base
	u.Path += path
	giveUp := time.Now().Add(c.retryFor)
	var last error
	for attempt := 1; ; attempt++ {
		code, data, err := c.attemptOnce(ctx, method, u.String(), payload, o.json)
		switch {
		case err != nil && ctx.Err() != nil:
			return fmt.Errorf("server: %s %s: %w", method, path, ctx.Err())
		case err != nil:
			last = fmt.Errorf("server: %s %s: %w", method, path, err)
		case code == http.StatusOK:
			// Even an answer we ignore must be JSON: a garbled 200 (a proxy's
			// page, a cut-off body) does not prove the call was processed.
			var derr error
			if out != nil {
				derr = json.Unmarshal(data, out)
			} else if !json.Valid(data) {
				derr = errors.New("the answer is not JSON")
			}
			if derr == nil {
				return nil
			}
			last = fmt.Errorf("server: %s %s: malformed answer: %w", method, path, derr)
		case code >= 500:
			last = &StatusError{Method: method, Path: path, Code: code, Body: c.snippet(data)}
		case attempt > 1 && o.doneOn4xx && code < 500:
			c.log.Info("treating a repeated call's refusal as done: the first attempt got through", "call", method+" "+path, "status", code)
			return nil
		default:
			return &StatusError{Method: method, Path: path, Code: code, Body: c.snippet(data)}
		}
		if !time.Now().Add(c.retry).Before(giveUp) {
			return fmt.Errorf("server: giving up after %d attempts: %w", attempt, last)
		}
		c.log.Debug("retrying", "call", method+" "+path, "attempt", attempt, "err", last.Error())
		t := time.NewTimer(c.retry)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("server: %s %s: %w", method, path, ctx.Err())
		case <-t.C:
		}
	}
}

// attemptOnce makes one HTTP request and reads the whole answer.
func (c *Client) attemptOnce(ctx context.Context, method, u string, payload []byte, asJSON bool) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.attempt)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Authorization", c.auth)
	if asJSON && payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return 0, nil, fmt.Errorf("reading the answer: %w", err)
	}
	return resp.StatusCode, data, nil
}

// snippet is the start of an answer's body, fit for an error message.
func (c *Client) snippet(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return c.redact(strings.ToValidUTF8(s, "?"))
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
		return "", errors.New("server: GET /api/version: no version in the answer")
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
		return 0, errors.New("server: GET /api/users/me/version: no version in the answer")
	}
	return *out.Version, nil
}

// IncrementVersion starts a new version of our bot for ranked games.
func (c *Client) IncrementVersion(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/version", nil, nil, callOpts{json: true})
}

// SetRanked says whether we take part in ranked games.
func (c *Client) SetRanked(ctx context.Context, ranked bool) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/ranked", map[string]bool{"ranked": ranked}, nil, callOpts{json: true})
}

// SetMaxGames sets how many games the server may give us at once.
func (c *Client) SetMaxGames(ctx context.Context, n int) error {
	return c.call(ctx, http.MethodPost, "/api/users/me/max_games", map[string]int{"max_games": n}, nil, callOpts{json: true})
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
	if err := c.call(ctx, http.MethodPost, "/api/invitations/", body, &out, callOpts{json: true}); err != nil {
		return 0, err
	}
	if out.GameID == nil {
		return 0, errors.New("server: POST /api/invitations/: no game_id in the answer")
	}
	return *out.GameID, nil
}

// Accept accepts an invitation and returns the game's id.
func (c *Client) Accept(ctx context.Context, invitation int) (int, error) {
	var out struct {
		GameID *int `json:"game_id"`
	}
	path := "/api/invitations/" + strconv.Itoa(invitation)
	if err := c.call(ctx, http.MethodPost, path, nil, &out, callOpts{json: true}); err != nil {
		return 0, err
	}
	if out.GameID == nil {
		return 0, fmt.Errorf("server: POST %s: no game_id in the answer", path)
	}
	return *out.GameID, nil
}

// Finish marks an accepted invitation as played.
func (c *Client) Finish(ctx context.Context, invitation int) error {
	path := "/api/invitations/" + strconv.Itoa(invitation) + "/finish"
	return c.call(ctx, http.MethodPost, path, nil, nil, callOpts{json: true, doneOn4xx: true})
}
