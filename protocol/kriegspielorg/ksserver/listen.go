package ksserver

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net"
)

// NewRegistrationKey returns a random registration key (24 hex digits), for
// a server that is given none and should not register bots without one.
func NewRegistrationKey() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Listen listens on addr (HOST:PORT) for the server. The API is meant for
// bots on this machine: an address beyond it is allowed, but warned about
// on log, saying who can then register bots (anyone who reaches the port
// and learns the key, or anyone at all with OpenRegistration).
func (s *Server) Listen(addr string, log *slog.Logger) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err // net names the address and the cause
	}
	if host, _, _ := net.SplitHostPort(ln.Addr().String()); !net.ParseIP(host).IsLoopback() {
		who := "anyone who can reach the port and learns the registration key can register bots"
		if s.cfg.OpenRegistration {
			who = "anyone who can reach the port can register bots (--open-registration)"
		}
		log.Warn("listening beyond this machine: "+who, "addr", ln.Addr().String())
	}
	return ln, nil
}
