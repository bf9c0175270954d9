// Package httpapi makes JSON calls to a game server's HTTP API with the
// retries a bot needs on the open internet: a 5xx answer, a dropped or hung
// connection or an undecodable answer is tried again for a bounded time; any
// other refusal, and every redirect not followed (a loop, a bad Location,
// another origin), is an error at once. No error it returns quotes a
// secret: whatever net/http or the server put in one is redacted first. The reconchess tournament client
// (protocol/rbcclient) and the kriegspiel.org client (protocol/kriegspielorg)
// share it, so that both treat a flaky server alike.
//
// Every call carries a credential (a password, a bearer token or a
// registration key), so a Caller follows a redirect only within the
// server's origin (same scheme, host and port) and refuses any other with a
// RedirectError before anything is sent there: Go's client would forward
// custom headers to any host, and Authorization across a scheme or port
// change, on a redirect answered by a hostile or misconfigured server.
package httpapi

import (
	"bytes"
	"context"
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

// Config configures a Caller.
type Config struct {
	// Name prefixes every error ("server", "kriegspiel.org").
	Name string
	// Base is the server's base URL; call paths are appended to its path.
	Base *url.URL
	// Auth is the Authorization header sent with every call ("" sends none).
	Auth string
	// Secrets are removed from every error text that quotes the server (a
	// hostile or buggy server could echo them back).
	Secrets []string
	// AuthHint is added to the error of a 401 answer.
	AuthHint string
	// HTTPClient makes the requests; nil means a client of our own. New uses
	// a copy of it whose CheckRedirect refuses redirects that leave the
	// base URL's origin (see RedirectError) before calling the client's own
	// CheckRedirect, if any; the client itself is not modified.
	HTTPClient *http.Client
	// Logger receives retries; nil discards them.
	Logger *slog.Logger
	// RetryInterval is the pause between attempts (default 0.5 s).
	RetryInterval time.Duration
	// RetryFor bounds the retries of one call (default 3 minutes).
	RetryFor time.Duration
	// AttemptTimeout bounds one HTTP attempt (default 30 s), so that a hung
	// connection is retried rather than waited on.
	AttemptTimeout time.Duration
}

// Caller makes calls for one account. It is safe for concurrent use.
type Caller struct {
	cfg Config
}

// New returns a caller with cfg's defaults filled in; it makes no request.
func New(cfg Config) *Caller {
	cfg.HTTPClient = sameOriginClient(cfg.HTTPClient)
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.RetryInterval <= 0 {
		cfg.RetryInterval = 500 * time.Millisecond
	}
	if cfg.RetryFor <= 0 {
		cfg.RetryFor = 3 * time.Minute
	}
	if cfg.AttemptTimeout <= 0 {
		cfg.AttemptTimeout = 30 * time.Second
	}
	return &Caller{cfg: cfg}
}

// Base returns the server's base URL.
func (c *Caller) Base() string { return c.cfg.Base.String() }

// StatusError is an answer outside 2xx: a 4xx at once, a 5xx once the
// retries are spent.
type StatusError struct {
	Name, Method, Path string
	Code               int
	Body               string // the start of the answer's body, secrets removed
	Hint               string // what to check, for a 401
	// ErrCode is the code of an answer of the form {"error": {"code":
	// ...}} (kriegspiel.org's), "" for any other.
	ErrCode string
	// RetryAfter is the answer's Retry-After header (in seconds or as a
	// date), 0 when it has none.
	RetryAfter time.Duration
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("%s: %s %s: HTTP %d", e.Name, e.Method, e.Path, e.Code)
	if e.Code == http.StatusUnauthorized && e.Hint != "" {
		msg += " (" + e.Hint + ")"
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// maxRedirects bounds a chain of same-origin redirects, as Go's default
// policy does.
const maxRedirects = 10

// RedirectError is a redirect that was refused because it leaves the
// server's origin (another scheme, host or port): the request was not sent
// to the target, so no credential went there. It is not retried.
type RedirectError struct {
	Name, Method, Path string
	Code               int    // the redirecting answer's status
	From               string // the server's origin, scheme://host[:port]
	To                 string // the target's origin, secrets removed
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("%s: %s %s: HTTP %d redirects from %s to %s (another scheme, host or port); "+
		"refused it, and the credentials were not sent there (if that server is the right one, use its URL instead)",
		e.Name, e.Method, e.Path, e.Code, e.From, e.To)
}

// RedirectStopError is a redirect within the server's origin that was not
// followed: the chain was longer than 10 (a redirect loop), the answer's
// Location did not parse, or the caller's own redirect policy refused it.
// Like every redirect error it ends the call: it is not retried.
type RedirectStopError struct {
	Name, Method, Path string
	Reason             string // why, in words that quote nothing of the server's
	// Err is the caller's redirect policy's error (secrets removed), nil
	// for a loop or a bad Location.
	Err error
}

func (e *RedirectStopError) Error() string {
	msg := fmt.Sprintf("%s: %s %s: did not follow the server's redirect: %s; not retried", e.Name, e.Method, e.Path, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *RedirectStopError) Unwrap() error { return e.Err }

// stopRedirect is what the client's redirect policy (and its transport,
// for a Location that does not parse) returns for a redirect it does not
// follow; Call makes a RedirectStopError of it.
type stopRedirect struct {
	reason string
	err    error
}

func (e *stopRedirect) Error() string { return e.reason }
func (e *stopRedirect) Unwrap() error { return e.err }

// sameOriginClient returns a copy of hc (nil: a default client) whose
// redirect policy keeps requests, and so their credentials, on the first
// request's origin; hc's own policy, if any, then has its say. Every
// redirect it does not follow ends in a *RedirectError or a
// *stopRedirect, which Call does not retry.
func sameOriginClient(hc *http.Client) *http.Client {
	var c http.Client
	if hc != nil {
		c = *hc
	}
	next := c.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		from := via[0].URL
		if !sameOrigin(from, req.URL) {
			e := &RedirectError{From: origin(from), To: origin(req.URL)}
			if req.Response != nil {
				e.Code = req.Response.StatusCode
			}
			return e
		}
		if next != nil {
			if err := next(req, via); err != nil && !errors.Is(err, http.ErrUseLastResponse) {
				return &stopRedirect{reason: "the client's redirect policy refused it", err: err}
			} else if err != nil {
				return err
			}
			return nil
		}
		if len(via) >= maxRedirects {
			return &stopRedirect{reason: fmt.Sprintf("%d redirects in a row within its origin (a redirect loop)", maxRedirects)}
		}
		return nil
	}
	c.Transport = locationCheck{next: c.Transport}
	return &c
}

// locationCheck is a transport that refuses a redirect whose Location does
// not parse before net/http quotes that header in its error (a server may
// echo a secret there), and without a retry.
type locationCheck struct{ next http.RoundTripper }

func (t locationCheck) RoundTrip(req *http.Request) (*http.Response, error) {
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		if loc := resp.Header.Get("Location"); loc != "" {
			if _, err := req.URL.Parse(loc); err != nil {
				resp.Body.Close()
				return nil, &stopRedirect{reason: "its Location header does not parse"}
			}
		}
	}
	return resp, nil
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (an omitted port is the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// origin is u's scheme://host[:port], without user info, path or query.
func origin(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// Options modify how one call is made and how its answers are taken.
type Options struct {
	// JSON sends the body as application/json; otherwise it is sent raw
	// (the reconchess client's game calls).
	JSON bool
	// DoneOn4xx treats a 4xx answer to a retried attempt as success: the
	// earlier attempt got through but its answer was lost (for calls that
	// are idempotent in effect).
	DoneOn4xx bool
	// Once makes a single attempt: for calls that must not be repeated
	// blindly (a move), whose caller finds out from the server's state
	// whether a failed attempt got through.
	Once bool
	// Header holds extra request headers (a registration key).
	Header map[string]string
	// NoAuth leaves out the Authorization header.
	NoAuth bool
}

// Call performs one API call. body is marshalled unless nil; out receives
// the answer unless nil (the answer must still be JSON: a garbled 2xx — a
// proxy's page, a cut-off body — does not prove the call was processed).
func (c *Caller) Call(ctx context.Context, method, path string, body, out any, o Options) error {
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("%s: %s %s: encoding the request: %w", c.cfg.Name, method, path, err)
		}
	}
	u := *c.cfg.Base
	u.Path += path
	giveUp := time.Now().Add(c.cfg.RetryFor)
	var last error
	for attempt := 1; ; attempt++ {
		code, header, data, err := c.attemptOnce(ctx, method, u.String(), payload, o)
		var re *RedirectError
		var stop *stopRedirect
		switch {
		case errors.As(err, &re):
			// Returned without the url.Error around it, which quotes the raw
			// Location header.
			re.Name, re.Method, re.Path = c.cfg.Name, method, path
			re.To = c.Redact(re.To)
			return re
		case errors.As(err, &stop):
			// Final, like every redirect error; the url.Error around it,
			// which quotes the Location, is left out.
			return &RedirectStopError{Name: c.cfg.Name, Method: method, Path: path, Reason: stop.reason, Err: c.scrub(stop.err)}
		case err != nil && ctx.Err() != nil:
			return fmt.Errorf("%s: %s %s: %w", c.cfg.Name, method, path, ctx.Err())
		case err != nil:
			last = fmt.Errorf("%s: %s %s: %w", c.cfg.Name, method, path, c.scrub(err))
		case code >= 200 && code < 300:
			var derr error
			if out != nil {
				derr = json.Unmarshal(data, out)
			} else if !json.Valid(data) {
				derr = errors.New("the answer is not JSON")
			}
			if derr == nil {
				return nil
			}
			last = fmt.Errorf("%s: %s %s: malformed answer: %w", c.cfg.Name, method, path, derr)
		case code >= 500:
			last = c.statusError(method, path, code, header, data)
		case attempt > 1 && o.DoneOn4xx:
			c.cfg.Logger.Info("treating a repeated call's refusal as done: the first attempt got through", "call", method+" "+path, "status", code)
			return nil
		default:
			return c.statusError(method, path, code, header, data)
		}
		if o.Once {
			return last
		}
		if !time.Now().Add(c.cfg.RetryInterval).Before(giveUp) {
			return fmt.Errorf("%s: giving up after %d attempts: %w", c.cfg.Name, attempt, last)
		}
		c.cfg.Logger.Debug("retrying", "call", method+" "+path, "attempt", attempt, "err", last.Error())
		if err := Sleep(ctx, c.cfg.RetryInterval); err != nil {
			return fmt.Errorf("%s: %s %s: %w", c.cfg.Name, method, path, err)
		}
	}
}

// Sleep waits for d or until ctx is done, whichever is first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Caller) statusError(method, path string, code int, header http.Header, data []byte) *StatusError {
	e := &StatusError{Name: c.cfg.Name, Method: method, Path: path, Code: code, Body: c.snippet(data), Hint: c.cfg.AuthHint,
		RetryAfter: retryAfter(header.Get("Retry-After"), time.Now())}
	var shaped struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &shaped) == nil {
		e.ErrCode = c.Redact(shaped.Error.Code)
	}
	return e
}

// retryAfter reads a Retry-After header: a number of seconds or an HTTP
// date (0 when absent, malformed or past).
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		return max(time.Duration(n)*time.Second, 0)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// attemptOnce makes one HTTP request and reads the whole answer.
func (c *Caller) attemptOnce(ctx context.Context, method, u string, payload []byte, o Options) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.AttemptTimeout)
	defer cancel()
	var rd io.Reader
	if payload != nil {
		rd = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("building the request: %w", err)
	}
	if c.cfg.Auth != "" && !o.NoAuth {
		req.Header.Set("Authorization", c.cfg.Auth)
	}
	if o.JSON && payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range o.Header {
		req.Header.Set(k, v)
	}
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	return resp.StatusCode, resp.Header, data, nil
}

// snippet is the start of an answer's body, fit for an error message.
func (c *Caller) snippet(data []byte) string {
	s := strings.TrimSpace(string(data))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return c.Redact(strings.ToValidUTF8(s, "?"))
}

// Redact removes the configured secrets from s, as they are and as a URL's
// path or query would escape them.
func (c *Caller) Redact(s string) string {
	for _, secret := range c.cfg.Secrets {
		if len(secret) < 3 {
			continue
		}
		for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret)} {
			s = strings.ReplaceAll(s, form, "[redacted]")
		}
	}
	return s
}

// scrub returns err with no secret left in it, nor in any error it wraps:
// the same redaction as a request's URL gets, applied to whatever net/http
// quotes (the URL of a url.Error, a malformed answer's first line). An
// error that quotes none is returned as it is; a url.Error is rebuilt
// around a scrubbed error (so that a timeout still reads as one); any
// other error that quotes a secret is replaced by its redacted text.
func (c *Caller) scrub(err error) error {
	if err == nil {
		return nil
	}
	if ue, ok := err.(*url.Error); ok {
		u := c.Redact(ue.URL)
		if pu, perr := url.Parse(u); perr == nil {
			u = pu.Redacted() // a password in the URL's user part
		}
		return &url.Error{Op: ue.Op, URL: u, Err: c.scrub(ue.Err)}
	}
	if msg := err.Error(); c.Redact(msg) != msg {
		return errors.New(c.Redact(msg))
	}
	for e := errors.Unwrap(err); e != nil; e = errors.Unwrap(e) {
		if msg := e.Error(); c.Redact(msg) != msg {
			return errors.New(c.Redact(err.Error())) // a wrapped one quotes a secret
		}
	}
	return err
}
