// Package gameserver is what the two game servers for bots have in common:
// ksserver (the local kriegspiel.org) and rbcclienttest (the reconchess
// tournament server for tests). Each keeps its own routes and wire format;
// the HTTP plumbing they share lives here once, so that the limits
// docs/security.md states hold for both the same way: a request's body is
// read whole, within a bound, before any of the server's locks is taken
// (a slow client delays only itself), and answers are JSON written in one
// piece.
package gameserver

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/blindfish-rbc/blindfish/protocol/internal/faults"
)

// DefaultMaxBodyBytes bounds a request's body: the APIs' bodies (a bot's
// profile, a lobby request, a square, a move, a setting) are a few hundred
// bytes at most.
const DefaultMaxBodyBytes = 16 << 10

// TooLargeError is ReadBody's error for a body over its limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the request body is over %d bytes", e.Limit)
}

// ReadBody reads r's body whole, up to limit bytes. A longer body is
// refused as soon as that is known (at once when its Content-Length says
// so) with a *TooLargeError, is not read further, and the connection is
// closed after the answer (the rest of the body is never read). Any other
// error is the connection's.
func ReadBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	tooLarge := func() error {
		w.Header().Set("Connection", "close")
		return &TooLargeError{Limit: limit}
	}
	if r.ContentLength > limit {
		return nil, tooLarge()
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if errors.As(err, new(*http.MaxBytesError)) {
		return nil, tooLarge()
	}
	if err != nil {
		return nil, fmt.Errorf("reading the body: %w", err)
	}
	return data, nil
}

// Reply writes v as the JSON answer with status code. A value that does
// not encode gets 500 and no partial answer.
func Reply(w http.ResponseWriter, code int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(data, '\n'))
}

// BearerToken is the token of r's "Authorization: Bearer" header; false
// when there is none.
func BearerToken(r *http.Request) (string, bool) {
	return strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
}

// SecretEqual says whether got is the secret want (a password, a
// registration key), in a time that does not tell how much of it matched.
// An empty want matches nothing: an account or key that was never set
// cannot be used.
func SecretEqual(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// Base is what a game server's handler starts from: the faults it injects
// into its answers and the bound on a request's body. A Server keeps it
// in a field of its own (so that none of its methods joins the Server's
// API) and forwards FaultCounts.
type Base struct {
	faults       *faults.Injector
	maxBodyBytes int64
}

// NewBase returns a Base that injects f and reads bodies up to maxBodyBytes
// (DefaultMaxBodyBytes when not positive).
func NewBase(f faults.Faults, maxBodyBytes int64) Base {
	if maxBodyBytes <= 0 {
		maxBodyBytes = DefaultMaxBodyBytes
	}
	return Base{faults: faults.New(f), maxBodyBytes: maxBodyBytes}
}

// FaultCounts returns how many faults of each kind were injected.
func (b *Base) FaultCounts() map[string]int { return b.faults.Counts() }

// Serve answers one call with handle after the fault injector has had its
// say (see faults.Injector.Serve): safe says whether the call may be
// processed and its answer lost.
func (b *Base) Serve(w http.ResponseWriter, r *http.Request, safe bool, handle func(http.ResponseWriter)) {
	b.faults.Serve(w, r, safe, handle)
}

// ReadBody is ReadBody with the Base's bound.
func (b *Base) ReadBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	return ReadBody(w, r, b.maxBodyBytes)
}
