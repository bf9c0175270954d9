package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

//go:embed page.html page.js page.css
var assets embed.FS

// maxActionBytes bounds an action's body: a move is a few dozen bytes.
const maxActionBytes = 4 << 10

// maxPoll bounds how long a state request waits for a change; it stays
// under the server's write deadline (httpserve.DefaultLimits).
const maxPoll = 20 * time.Second

// maxPollers bounds the long polls waiting at once: a page holds one, so a
// few tabs fit, and a runaway script cannot hold the server's goroutines.
const maxPollers = 16

// TokenHeader carries the session's token on every API request.
const TokenHeader = "X-Blindfish-Token"

// Server serves the page of one game and its API.
type Server struct {
	desk   *Desk
	token  string
	log    *slog.Logger
	polls  chan struct{}
	mu     sync.Mutex
	viewer string        // the replay page's file, once written
	served chan struct{} // closed when the replay page is first served
	once   sync.Once
}

// NewServer returns the server of the game at d, with a fresh token.
func NewServer(d *Desk, log *slog.Logger) (*Server, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("web: a token: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{desk: d, token: hex.EncodeToString(b), log: log, polls: make(chan struct{}, maxPollers), served: make(chan struct{})}, nil
}

// URL is the page's address on a listener at addr: the token rides in it,
// so only who was given the address can act.
func (s *Server) URL(addr net.Addr) string {
	return "http://" + addr.String() + "/?t=" + s.token
}

// SetViewer makes path, the game's replay page, the answer to /game, and
// tells the pages.
func (s *Server) SetViewer(path string) {
	s.mu.Lock()
	s.viewer = path
	s.mu.Unlock()
	s.desk.Update(func(st *State) { st.Viewer = "/game?t=" + s.token })
}

// Handler returns the server's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.asset("page.html", "text/html; charset=utf-8"))
	mux.HandleFunc("GET /page.js", s.asset("page.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /page.css", s.asset("page.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /api/state", s.state)
	mux.HandleFunc("POST /api/act", s.act)
	mux.HandleFunc("GET /game", s.game)
	return s.localOnly(mux)
}

// localOnly refuses a request whose Host is not a loopback address (a page
// of another site that a rebinding DNS name points here).
func (s *Server) localOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			httpError(w, http.StatusMisdirectedRequest, fmt.Errorf("web: host %q is not this machine's loopback", r.Host))
			return
		}
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// asset serves an embedded file.
func (s *Server) asset(name, ctype string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		data, err := assets.ReadFile(name)
		if err != nil {
			httpError(w, http.StatusInternalServerError, err)
			return
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Security-Policy", "default-src 'self'; connect-src 'self'")
		w.Write(data)
	}
}

// authorized reports whether r carries the token (header, or for a page
// opened by address, the query), answering 403 when it does not.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request, queryOK bool) bool {
	got := r.Header.Get(TokenHeader)
	if got == "" && queryOK {
		got = r.URL.Query().Get("t")
	}
	if got != s.token {
		httpError(w, http.StatusForbidden, errors.New("web: no or a wrong token: open the address the command printed"))
		return false
	}
	return true
}

// state answers the game's state once its version passes ?since (at once
// without it), waiting at most maxPoll.
func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r, false) {
		return
	}
	since := -1
	if v := r.URL.Query().Get("since"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < -1 {
			httpError(w, http.StatusBadRequest, fmt.Errorf("web: since=%q is not a version", v))
			return
		}
		since = n
	}
	select {
	case s.polls <- struct{}{}:
		defer func() { <-s.polls }()
	default:
		httpError(w, http.StatusTooManyRequests, fmt.Errorf("web: %d pages already wait for the game: close some tabs", maxPollers))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), maxPoll)
	defer cancel()
	writeJSON(w, http.StatusOK, s.desk.Wait(ctx, since))
}

// act takes the person's action.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r, false) {
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		httpError(w, http.StatusUnsupportedMediaType, fmt.Errorf("web: an action is JSON, not %q", ct))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxActionBytes))
	if err != nil {
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Errorf("web: an action of over %d bytes", maxActionBytes))
		return
	}
	var a Action
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		httpError(w, http.StatusBadRequest, fmt.Errorf("web: the action does not parse: %w", err))
		return
	}
	switch a.Kind {
	case "sense", "move", "pass", "any", "resign":
	default:
		httpError(w, http.StatusBadRequest, fmt.Errorf("web: unknown action %q (want sense, move, pass, any or resign)", a.Kind))
		return
	}
	if err := s.desk.Act(a); err != nil {
		code := http.StatusUnprocessableEntity
		if errors.Is(err, ErrNotAsked) {
			code = http.StatusConflict
		}
		httpError(w, code, err)
		return
	}
	s.log.Debug("person acted", "kind", a.Kind, "square", a.Square, "move", a.Move)
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// game serves the replay page once the game is over.
func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	if !s.authorized(w, r, true) {
		return
	}
	s.mu.Lock()
	path := s.viewer
	s.mu.Unlock()
	if path == "" {
		httpError(w, http.StatusNotFound, errors.New("web: the replay page is written when the game is over"))
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		httpError(w, http.StatusInternalServerError, fmt.Errorf("web: the replay page: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(data)
	s.once.Do(func() { close(s.served) })
}

// ServeReplay makes path the replay page (SetViewer) and returns once it
// has been served, ctx ends or linger has passed.
func (s *Server) ServeReplay(ctx context.Context, path string, linger time.Duration) {
	s.SetViewer(path)
	select {
	case <-s.served:
		time.Sleep(time.Second) // the page's own requests after it
	case <-ctx.Done():
	case <-time.After(linger):
	}
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		httpError(w, http.StatusInternalServerError, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
}

// httpError answers code with the error as JSON, {"error": "..."}.
func httpError(w http.ResponseWriter, code int, err error) {
	data, _ := json.Marshal(map[string]string{"error": err.Error()})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
}
